#!/usr/bin/env bash
# xvfb-e2e-discover.sh — the package market in the real window, as a user
# with xdotool (issue 35):
#  1. a private market on loopback: the market package's static test market
#     (internal/packages/market/testdata/market: hookify, security-guidance,
#     release-note-kit, a mirror whose download is not the reviewed
#     content, a skill, an MCP server, a theme) served over HTTP by python3,
#     its URL given as REASONIX_DESKTOP_MARKET_URL;
#  2. the palette (Ctrl+K) opens "Discover plugins (market)": the plugin
#     manager on its Discover tab lists the 7 packages (screenshot);
#  3. "claude hooks" typed in its focused search field and Enter: hookify
#     alone, its facts shown with the hash its reviewer pinned (screenshot);
#  4. Install… downloads it, checks the pinned hash and shows the FULL TRUST
#     preview with its compatibility report (partial; screenshot); Enter
#     installs it: the store records market:hookify@0.1.0 and its content
#     hash, and the row says installed (screenshot);
#  5. the Plugins tab: hookify's details with its Compatibility section and
#     Update… (a market origin) (screenshot);
#  6. Install… of a marketplace root (a folder laid out as
#     anthropics/claude-code: .claude-plugin/marketplace.json listing
#     ./plugins/<name>): its 5 plugins as checkboxes (screenshot), one
#     ticked, its preview (screenshot), Enter installs it from the
#     marketplace's plugins/<name>.
# Each step waits on a --trace line or a file, never on a sleep.
# Screenshots and logs go to $LOGDIR (default ./ci-logs), named
# e2e-discover-*. BIN=path skips the build.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
OUT="$LOGDIR/e2e-discover.stdout" ERR="$LOGDIR/e2e-discover.stderr"
rm -f "$LOGDIR"/e2e-discover-*.png

WIN="" PWIN=""
fail() {
	echo "xvfb-e2e-discover: FAIL: $*" >&2
	trap - ERR # what fail runs may fail (no panic to grep) without failing again
	[ -f "$ERR" ] && { grep -m 1 -B 3 -A 1 '^panic' "$ERR" || true; tail -n 30 "$ERR"; } >&2
	shot fail
	exit 1
}
# a command that fails under set -e names itself (else the script ends silently)
set -E
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR
# shot NAME: a screenshot of the plugin manager (or of the screen before
# it exists).
shot() { [ -n "${DISPLAY:-}" ] && import -window "${PWIN:-root}" "$LOGDIR/e2e-discover-$1.png" 2>/dev/null || true; }
# painted NAME: the screenshot once the window is drawn: a trace comes
# before Fyne paints the frame, so two grabs 0.1 s apart must agree (a busy
# dialog's bar moves: it never does).
painted() {
	settle "$PWIN" 100
	shot "$1"
}
for c in Xvfb xdotool import python3; do command -v "$c" >/dev/null || fail "$c is missing (make deps)"; done

build_bin

D="$(mktemp -d)"  # the data dir
WS="$(mktemp -d)" # the workspace
APP="" XVFB="" HTTP=""
cleanup() {
	stop_pids "$APP" "$XVFB" "$HTTP"
	rm -rf "$D" "$WS"
}
trap cleanup EXIT
T0=$SECONDS
step() { echo "xvfb-e2e-discover: $1 ok ($((SECONDS - T0)) s)"; T0=$SECONDS; }

# --- 1. A private market on loopback (a free port, written to $D/port) ---
python3 - "$PWD/internal/packages/market/testdata/market" "$D/port" >"$LOGDIR/e2e-discover-http.log" 2>&1 <<'PY' &
import functools, http.server, sys
root, portfile = sys.argv[1:]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
with open(portfile + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
PY
HTTP=$!
wait_for "the market's server" test -s "$D/port"
MARKET="http://127.0.0.1:$(cat "$D/port")/index.json"
step "a market served at $MARKET"

# This user answered the first start's "Connect a model" with Later (no
# model is installed: it would open over the plugin manager and take the
# typing).
printf '{"connectLater":true}\n' >"$D/desktop-state.json"
start_xvfb "$D" "$LOGDIR/e2e-discover-xvfb.log" || fail "Xvfb did not start"
(cd "$WS" && exec env REASONIX_DESKTOP_MARKET_URL="$MARKET" \
	"$BIN" gui --data-dir "$D" --trace --theme dark) >"$OUT" 2>"$ERR" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true

# --- 2. Discover from the palette ---
# Ctrl+K until the palette is traced: a key sent while the window is
# still being shown and focused is lost (seen under load).
opened=""
for _ in $(seq 30); do
	xdotool windowfocus --sync "$WIN" 2>/dev/null || true
	xdotool key ctrl+k
	for _ in $(seq 10); do traced 1 'palette' && opened=1 && break; sleep 0.1; done
	[ -n "$opened" ] && break
done
[ -n "$opened" ] || fail "the palette never opened (Ctrl+K)"
xdotool type --delay 5 'Discover plugins'
xdotool key Return
wait_for "Discover opened" traced 1 'discover'
wait_for "the market's 7 packages" traced 1 'discover results 7'
PWIN="$(window '^Plugins$')" || fail "the plugin manager never appeared"
xdotool windowfocus --sync "$PWIN" 2>/dev/null || true
painted all
step "Discover lists the market"

# --- 3. A search ---
xdotool type --delay 5 'claude hooks'
xdotool key Return
wait_for "hookify alone" traced 1 'discover results 1'
painted hookify
step "the search finds hookify, its pinned hash shown"

# --- 4. Install: the pinned hash checked, the preview with its report ---
eval "$(xdotool getwindowgeometry --shell "$PWIN")" # X Y WIDTH HEIGHT
# Install… is the first button above the details: right of the list
# (35 % of the split), under the market and search rows.
xdotool mousemove --window "$PWIN" "$((WIDTH * 35 / 100 + 60))" 190 click 1
wait_for "hookify's preview" traced 1 'discover preview hookify'
painted preview
xdotool key Return
wait_for "hookify installed" traced 1 'discover installed hookify'
python3 - "$D/plugin-packages.json" <<'PY' || fail "the store's record (above)"
import json, sys
recs = json.load(open(sys.argv[1]))
recs = recs.get("plugins", recs) if isinstance(recs, dict) else recs
items = recs.values() if isinstance(recs, dict) else recs
for r in items:
    if r.get("name") == "hookify" or r.get("Name") == "hookify":
        src = r.get("source") or r.get("Source")
        commit = r.get("commit") or r.get("Commit") or ""
        if src != "market:hookify@0.1.0" or not commit.startswith("sha256:"):
            sys.exit(f"hookify recorded as {src!r} at {commit!r}")
        print(f"xvfb-e2e-discover: recorded {src} at {commit}")
        sys.exit(0)
sys.exit("no record of hookify: " + json.dumps(recs)[:400])
PY
wait_for "the row marked installed" traced 2 'discover results 1'
painted installed
step "installed from the market"

# --- 5. The Plugins tab: hookify's compatibility report ---
xdotool mousemove --window "$PWIN" 37 21 click 1 # the Plugins tab
painted plugins-tab
xdotool mousemove --window "$PWIN" 100 107 click 1 # hookify's row (the only one)
painted manager
step "the plugin manager shows hookify's report"

# --- 6. A marketplace root: its plugins picked in Install… ---
xdotool mousemove --window "$PWIN" 52 62 click 1 # Install…
xdotool type --delay 2 "$PWD/internal/packages/plugin/testdata/pkgs/marketplace"
xdotool key Return
wait_for "the marketplace's 5 plugins" traced 1 'marketplace 5'
painted picker
xdotool mousemove --window "$PWIN" 129 229 click 1 # tick security-guidance
xdotool mousemove --window "$PWIN" 533 521 click 1 # Preview…
wait_for "security-guidance's preview" traced 1 'marketplace previews 1'
painted picked
xdotool key Return # Install
wait_for "security-guidance installed" traced 1 'marketplace installed security-guidance'
python3 - "$D/plugin-packages.json" <<'PY' || fail "the store's record of security-guidance (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
recs = doc.get("plugins", doc) if isinstance(doc, dict) else doc
items = recs.values() if isinstance(recs, dict) else recs
for r in items:
    if (r.get("name") or r.get("Name")) == "security-guidance":
        src = r.get("source") or r.get("Source") or ""
        if not src.rstrip("/").endswith("plugins/security-guidance"):
            sys.exit(f"security-guidance recorded from {src!r}, not the marketplace's plugins/security-guidance")
        print(f"xvfb-e2e-discover: recorded {src}")
        sys.exit(0)
sys.exit("no record of security-guidance")
PY
step "a marketplace root's plugin picked and installed"


quit_app || fail "the app did not quit within 30 s of SIGTERM"
echo "xvfb-e2e-discover: ok"
