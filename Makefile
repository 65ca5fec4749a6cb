# reasonix-desktop — the two commands a fresh Debian machine needs are
# `make run` and `make test` (see README.md). Everything else is a helper.

GO          ?= go
BIN         := bin
DEMO_DIR    ?= $(CURDIR)/.demo
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
# Debian packages Fyne needs to build and show a window (cgo + GL + X11), and
# Xvfb, xdotool, xclip (the paste) and imagemagick (screenshots) for the CI
# start test and the end-to-end scripts. Node and
# npm (for the MCP reference servers) are installed by mcp-servers only when
# missing: a machine may have them from elsewhere (NodeSource bundles npm).
DEB_PKGS    := gcc pkg-config libgl1-mesa-dev libxcursor-dev libxrandr-dev libxinerama-dev \
               libxi-dev libxxf86vm-dev xvfb xdotool xclip imagemagick python3 git \
               fcitx5 fcitx5-chinese-addons dbus-x11 fonts-droid-fallback
EXAMPLES    := $(notdir $(wildcard examples/*))

FYNE_TOOLS  := fyne.io/tools/cmd/fyne@v1.7.4

.PHONY: e2e-parallel e2e-longchat e2e-kill node-npm e2e-ime e2e-zh e2e-connect e2e-edit e2e-discover e2e-find e2e-sidebar e2e-notices fuzz-check mcp-servers run test deps build examples bench lint generate check-generated package package-check test-windows cross clean soak perf-check stress

## run: install what the machine lacks, build, start the app with the bundled examples
run: deps build examples
	@./scripts/run-demo.sh "$(DEMO_DIR)"

## test: the whole suite with -race (a 50-kill chaos run included), plus vet, staticcheck, gofmt,
## generated-file drift, the trust decoders' fuzz targets (fuzz-check), the real app started under Xvfb (screenshot and logs in ci-logs/) and
## driven end to end with xdotool (type, send, approve, answer a prompt, check the session; then
## page a long chat, a key set in Settings, a paste, a copy, an attachment: xvfb-e2e-input.sh),
## chats switched back and forth (xvfb-switch-check.sh); three edits approved on their diffs and then
## rewound (xvfb-e2e-edit.sh); the market's Discover tab, a market update and a marketplace root's plugins
## picked in Install… (xvfb-e2e-discover.sh); a 100,000-character paste folded and Ctrl+F in a 5,000-message
## chat (xvfb-e2e-find.sh); a search across 200 chats, export and import, zoom kept over a restart
## (xvfb-e2e-sidebar.sh); four toasts beside an approval and Settings on a 900×600 screen (xvfb-e2e-notices.sh);
## a real Chinese input method (fcitx5 pinyin) composing over the composer and an approval (xvfb-e2e-ime.sh);
## the window in Chinese under LANG=zh_CN.UTF-8, screenshots of it, an approval, Settings, plugins (xvfb-e2e-zh.sh);
## Connect a model with the DeepSeek preset against a local fake DeepSeek, in Chinese (xvfb-e2e-connect.sh);
## chats side by side: switches between live chats with the plugins' pids unchanged and two chats replying at once
## (xvfb-e2e-parallel.sh), a 50,000-message chat reopened at launch (xvfb-e2e-longchat.sh), and 20 kill -9 of the
## window at random moments of a reply, each relaunched and its files checked (xvfb-kill-check.sh);
## then the other platforms: the core and CLI built for windows and darwin (cross), the wine lane
## (test-windows) and the packages, with the .deb installed and started (package-check)
test: deps mcp-servers lint check-generated
	$(GO) test -race -count=1 ./...
	$(MAKE) fuzz-check
	bash scripts/xvfb-start-test.sh
	bash scripts/xvfb-e2e.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-switch-check.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-edit.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-discover.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-find.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-sidebar.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-notices.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-ime.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-zh.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-connect.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-parallel.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-longchat.sh
	BIN=bin/reasonix-desktop bash scripts/xvfb-kill-check.sh
	$(MAKE) cross
	LOGDIR=ci-logs $(MAKE) test-windows
	$(MAKE) package-check

## fuzz-check: the fuzz targets of what decides trust run for FUZZ_TIME each on top of their
## seed corpus (make test runs it): the command-line parser that scopes approvals, the MCP tool
## names, the hook lines' plugin-root references, the names a package file is opened by, the
## /proc stat lines the reaper finds a process tree by; a killed app's turn checkpoint; and what decides what a file tool writes
## (the edit match, the encoding detector), the rewind journal's index, web_fetch's HTML reader and the diff
FUZZ_TIME ?= 20s
FUZZ_TARGETS := internal/foundation/cmdscope:FuzzAnalyze internal/extensions/mcp:FuzzToolName internal/packages/hook:FuzzRootReference \
                internal/packages/plugin:FuzzPackageFSName internal/foundation/proc:FuzzParseStat \
                internal/core/tools:FuzzEditMatch internal/core/tools:FuzzDetectDecode internal/core/rewind:FuzzParseIndex \
                internal/core/tools/web:FuzzHTMLToText internal/foundation/textdiff:FuzzApplyGivesNew \
                internal/foundation/jsonerr:FuzzExplain internal/core/agent:FuzzRecoverCheckpoint internal/core/agent:FuzzFirstUserMessage
fuzz-check:
	@GO=$(GO) FUZZ_TIME=$(FUZZ_TIME) bash scripts/fuzz-check.sh $(FUZZ_TARGETS)

## e2e-parallel: live chats in the real window: switch time, send after a switch, plugin pids unchanged, two
## chats replying at once, RSS with 1, 4 and 8 live chats (figures on stdout)
e2e-parallel: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-parallel.sh

## e2e-longchat: launch with a 50,000-message chat as the last one, then a 50-message one: time to the window,
## to the first screen and to quiet, idle RSS of each (figures on stdout)
e2e-longchat: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-longchat.sh

## e2e-kill: KILLS (20) kill -9 of the real window mid-reply, each relaunched: nothing sent lost, cut replies
## marked interrupted, drafts kept, no plugin process left
e2e-kill: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-kill-check.sh

## e2e-edit: three edit_file calls approved on their diffs, then Rewind to here in the real window
## under Xvfb (screenshots ci-logs/e2e-edit-*.png)
e2e-edit: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-edit.sh

## e2e-discover: Discover (search, a pinned hash, install), the plugin manager's compatibility report and
## a marketplace root picked in Install…, in the real window (screenshots ci-logs/e2e-discover-*.png)
e2e-discover: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-discover.sh

## e2e-find, e2e-sidebar, e2e-notices: issue 40's window checks one at a time (screenshots in ci-logs/)
e2e-find: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-find.sh
e2e-sidebar: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-sidebar.sh
e2e-notices: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-notices.sh

## e2e-ime: fcitx5 pinyin composing in the real window: a composing Enter sends and approves nothing,
## a composing BackSpace deletes nothing (xvfb-e2e-ime.sh)
e2e-ime: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-ime.sh

## e2e-connect: Connect a model (DeepSeek preset, a local fake server) in the real window, in Chinese
e2e-connect: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-connect.sh

## e2e-zh: the window in Simplified Chinese (LANG=zh_CN.UTF-8); screenshots ci-logs/e2e-zh-*.png
e2e-zh: build
	BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-zh.sh

## perf-check: the transcript's figures in the real window under Xvfb (5,000 messages)
perf-check:
	bash scripts/xvfb-perf-check.sh

## soak: the full chaos soak (make test runs a 50-kill one): 8 plugins, streaming turns through
## the real binary, 1,000 random kill -9 of sidecars, then 100 SIGKILLs of the
## host mid-turn; prints panics, hung turns, unnamed failures, survivors and
## unloadable sessions. SOAK_KILLS / SOAK_HOST_KILLS change the counts.
SOAK_KILLS      ?= 1000
SOAK_HOST_KILLS ?= 100
soak:
	REASONIX_SOAK=1 REASONIX_SOAK_KILLS=$(SOAK_KILLS) REASONIX_SOAK_HOST_KILLS=$(SOAK_HOST_KILLS) \
		$(GO) test -count=1 -timeout 60m -run '^TestSoak$$' -v ./cmd/reasonix-desktop/

## stress: every package's tests STRESS_COUNT times (default 10) under -race while a CPU hog
## runs (scripts/stress.sh); prints runs and failures per package, fails on any failure.
## STRESS_PKGS narrows it (default ./...). Soak tests stay gated (make soak).
## STRESS_BUSY=build also rebuilds the whole module (go build -a, a private cache) in a loop
## beside the tests, STRESS_BUSY=test runs a second go test -race (STRESS_BUSY_PKG) in a loop:
## what a CI machine shares its cores, disk and linker with
STRESS_COUNT ?= 10
STRESS_PKGS  ?= ./...
STRESS_BUSY  ?= none
stress: deps mcp-servers
	STRESS_COUNT=$(STRESS_COUNT) STRESS_BUSY=$(STRESS_BUSY) GO=$(GO) nice bash scripts/stress.sh $(STRESS_PKGS)

## deps: Debian packages (only the missing ones; needs root or sudo)
deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

## mcp-servers: the MCP reference servers from npm (server-everything, server-filesystem) at the
## versions pinned in testdata/mcp-servers/package-lock.json, and the official MCP conformance
## runner pinned in testdata/mcp-conformance, for the tests
MCP_SERVERS     := testdata/mcp-servers
MCP_CONFORMANCE := testdata/mcp-conformance
mcp-servers: $(MCP_SERVERS)/node_modules/.package-lock.json $(MCP_CONFORMANCE)/node_modules/.package-lock.json
node-npm:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
		echo "installing: nodejs npm"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nodejs npm; \
	fi
$(MCP_SERVERS)/node_modules/.package-lock.json: $(MCP_SERVERS)/package-lock.json | node-npm
	cd $(MCP_SERVERS) && npm ci --no-audit --no-fund --loglevel=error
$(MCP_CONFORMANCE)/node_modules/.package-lock.json: $(MCP_CONFORMANCE)/package-lock.json | node-npm
	cd $(MCP_CONFORMANCE) && npm ci --no-audit --no-fund --loglevel=error

build:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/reasonix-desktop ./cmd/reasonix-desktop

## examples: build every example sidecar inside its own folder (bin/<name>)
examples:
	@for e in $(EXAMPLES); do \
		if [ -f examples/$$e/main.go ]; then \
			$(GO) build -o examples/$$e/bin/$$e ./examples/$$e || exit 1; \
		fi; \
	done

## bench: one table of every benchmark beside its raw baseline; installs what its rows need
## (the MCP reference servers, the Debian packages the desktop rows build with); a failed
## benchmark run prints its output and its rows say how many runs failed
bench: deps mcp-servers
	$(GO) run ./scripts/benchtable

## lint: gofmt, vet, staticcheck, and no binary or file over 1 MiB tracked by git
lint:
	$(GO) run ./scripts/treecheck
	@fmt=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$fmt" ]; then echo "gofmt needed:"; echo "$$fmt"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

## package: bin/pkg/: a .deb and an .rpm (nfpm) with the .desktop entry, icon and example
## plugins, a Windows installer (NSIS) and a portable Windows zip (scripts/package.sh)
package: deps
	bash scripts/package.sh

## package-check: install the .deb with dpkg and start the installed app under Xvfb
package-check: package
	bash scripts/package-check.sh

## test-windows: the wine lane (scripts/windows/lane.sh): the core's tests as Windows binaries
## with real child .exe processes, a headless chat and a host kill through reasonix-desktop.exe,
## the GUI (cgo, mingw-w64) started under wine + Xvfb; logs and timings in ci-logs/
test-windows:
	bash scripts/windows/lane.sh

## cross: the core and the CLI for windows/amd64 and darwin/amd64+arm64 with CGO off (-tags nogui:
## the window needs cgo; internal/frontends/desktop is left out), vetted with their tests (cmd/'s tests are Unix-only)
cross:
	@for t in windows/amd64 darwin/amd64 darwin/arm64; do \
		echo "cross: $$t"; \
		pkgs=$$($(GO) list ./... | grep -v -e /internal/frontends/desktop -e /cmd/reasonix-desktop); \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) vet $$pkgs || exit 1; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -tags nogui -o /dev/null ./cmd/reasonix-desktop || exit 1; \
	done

generate:
	$(GO) run ./scripts/extension-protocol-gen

check-generated:
	$(GO) run ./scripts/extension-protocol-gen -check

clean:
	rm -rf $(BIN) $(DEMO_DIR) examples/*/bin
