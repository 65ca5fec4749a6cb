# xvfb-lib.sh — what the Xvfb scripts share, sourced from the repo root
# (`. scripts/xvfb-lib.sh`). The caller defines fail MESSAGE (its own prefix,
# log tail and screenshot: wait_for calls it) and sets OUT, the app's --trace
# output, before count, traced or wait_for on them run. Needs xdotool.

# use_logdir: LOGDIR (default ./ci-logs), made and absolute: the logs,
# screenshots and saved sessions go there.
use_logdir() {
	LOGDIR="${LOGDIR:-./ci-logs}"
	mkdir -p "$LOGDIR"
	LOGDIR="$(cd "$LOGDIR" && pwd)"
}

# build_bin: unless BIN names a binary, build bin/reasonix-desktop and the
# example sidecars (make examples); BIN is then that binary's absolute path.
build_bin() {
	if [ -z "${BIN:-}" ]; then
		mkdir -p bin
		CGO_ENABLED=1 go build -o bin/reasonix-desktop ./cmd/reasonix-desktop
		make --no-print-directory examples >/dev/null
		BIN=bin/reasonix-desktop
	fi
	BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
}

# start_xvfb DIR LOG: Xvfb on a free display it picks itself (-displayfd,
# written to DIR/display; it logs "server already running" for each
# display it finds taken on the way), logging to LOG; sets XVFB to its pid
# and exports DISPLAY once a client got in; returns 1 when that never
# happened in three starts.
# -noreset: by default Xvfb resets when its last client leaves, and the
# check below is a client; an app opening the display during that reset
# failed ("X11: Failed to open display", then a GLFW panic) in 2 of 30
# starts here, and CI lost runs to it; with -noreset 0 of 100.
start_xvfb() {
	local try n ok
	for try in 1 2 3; do
		rm -f "$1/display"
		Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$1/display" >"$2" 2>&1 &
		XVFB=$!
		for _ in $(seq 100); do [ -s "$1/display" ] && break; sleep 0.1; done
		[ -s "$1/display" ] || return 1
		n="$(head -n 1 "$1/display")"
		export DISPLAY=":$n"
		ok=""
		for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && ok=1 && break; sleep 0.1; done
		[ -n "$ok" ] && return 0
		echo "xvfb-lib: no client got into display :$n (start $try of 3: $(tr '\n' ' ' <"$2")); starting Xvfb again" >&2
		kill "$XVFB" 2>/dev/null
		wait "$XVFB" 2>/dev/null || true
	done
	return 1
}

# stop_pids PID...: kill each non-empty PID and reap it (the EXIT traps).
stop_pids() {
	local p
	for p in "$@"; do
		[ -n "$p" ] && kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true
	done
}

# window NAME: the id of the first mapped window whose name matches NAME,
# polled for 30 s (a search can fail to open the display just after Xvfb
# said it was ready: seen under load). Only a mapped one: a window found
# between its creation and its mapping cannot be grabbed or focused yet
# (import of the Notifications window failed so, and under pipefail ended
# xvfb-e2e-notices.sh without a word).
window() {
	local id
	for _ in $(seq 300); do
		id="$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1)" || true
		[ -n "$id" ] && { echo "$id"; return 0; }
		sleep 0.1
	done
	return 1
}

# wait_for WHAT CMD...: poll CMD every 0.1 s, WAIT_TRIES times (default
# 300: 30 s); when it never holds, the caller's fail names WHAT.
wait_for() {
	local what="$1"
	shift
	for _ in $(seq "${WAIT_TRIES:-300}"); do "$@" && return 0; sleep 0.1; done
	fail "timed out waiting for $what"
}

# count LINE: how many times $OUT holds the whole line "trace: LINE".
count() { grep -cxF -- "trace: $1" "$OUT" || true; }

# traced N LINE: the app traced LINE at least N times.
traced() { [ "$(count "$2")" -ge "$1" ]; }

# quit_app: SIGTERM to $APP, waited for; a SIGTERM left unanswered (seen
# once under two CPU hogs) must not hang the script: SIGKILL after 30 s.
# Clears APP; returns 1 when it took the SIGKILL.
quit_app() {
	local guard code=0
	kill -TERM "$APP"
	(sleep 30 && kill -KILL "$APP" 2>/dev/null) >/dev/null 2>&1 & # not holding the caller's output open
	guard=$!
	wait "$APP" || code=$?
	kill "$guard" 2>/dev/null || true
	APP=""
	[ "$code" -ne 137 ]
}

# settle [WINDOW] [TRIES]: wait until two grabs of WINDOW (default the
# root) 0.1 s apart agree, at most TRIES (default 50) times: a trace comes
# before Fyne paints its frame, so a screenshot taken at once can miss it.
settle() {
	local prev="" cur
	for _ in $(seq "${2:-50}"); do
		cur="$(import -window "${1:-root}" -depth 8 rgb:- 2>/dev/null | md5sum)" || cur=unreadable
		[ "$cur" = "$prev" ] && return 0
		prev="$cur"
		sleep 0.1
	done
	return 0
}
