#!/usr/bin/env bash
# xvfb-e2e-notices.sh — notices and secondary windows in the real window
# under Xvfb, driven with xdotool as a user.
#  1. Toasts over an approval (1280×800 screen): the echo model calls
#     write_file, whose approval card waits; three hello-surfaces actions
#     from the command palette each make a toast, which with the approval's
#     own toast stacks four. Screenshot (notices-toasts), then Enter
#     approves: the card was still there to answer, and the file is written.
#  2. Settings on a 900×600 screen: Ctrl+, opens it; its window must lie
#     wholly on the screen (xdotool's geometry; screenshot notices-settings);
#     Esc closes it. The plugin manager, the protocol inspector and the
#     Notifications window, opened from the command palette, fit too and
#     close with Ctrl+W or Esc.
# The app's hidden --trace flag says what the window does, so each step
# waits for it instead of sleeping. Logs and screenshots go to $LOGDIR
# (default ./ci-logs), named e2e-notices-*. BIN: a built binary to use
# instead of building one.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
MODEL=plugin/echo-provider/echo/echo-1

shot() {
	command -v import >/dev/null && [ -n "${DISPLAY:-}" ] &&
		import -window "${2:-root}" "$LOGDIR/e2e-notices-$1.png" 2>/dev/null || true
}
# painted NAME [WINDOW]: the screenshot once the screen is drawn: a trace
# comes before Fyne paints the frame, so two grabs 0.1 s apart must agree.
painted() {
	settle "${2:-root}"
	shot "$@"
}
fail() {
	trap - ERR # what fail runs may fail without failing again
	echo "xvfb-e2e-notices: FAIL: $*" >&2
	shot fail
	[ -f "$LOGDIR/e2e-notices.stderr" ] && tail -n 30 "$LOGDIR/e2e-notices.stderr" >&2
	exit 1
}
# a command that fails under set -e names itself (else the script ends silently)
set -E
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR
for c in Xvfb xdotool import; do command -v "$c" >/dev/null || fail "$c is missing (apt-get install xvfb xdotool)"; done

BIN="${BIN:-}"
build_bin

D="$(mktemp -d)"
WS="$(mktemp -d)"
APP=""
XVFB=""
cleanup() {
	stop_pids "$APP" "$XVFB"
	rm -rf "$D" "$WS"
}
trap cleanup EXIT
for p in echo-provider hello-surfaces; do
	"$BIN" plugin install --yes --data-dir "$D" "examples/$p" >>"$LOGDIR/e2e-notices-install.log" 2>&1 ||
		fail "installing $p"
done
printf '{"defaultModel":"%s"}\n' "$MODEL" >"$D/settings.json"

# start_screen W H LOG: Xvfb of W×H on a free display (as xvfb-lib's
# start_xvfb, whose screen is 1280×800); sets XVFB and DISPLAY.
start_screen() {
	rm -f "$D/display"
	Xvfb -displayfd 3 -screen 0 "$1x$2x24" -nolisten tcp -noreset 3>"$D/display" >"$3" 2>&1 &
	XVFB=$!
	for _ in $(seq 100); do [ -s "$D/display" ] && break; sleep 0.1; done
	[ -s "$D/display" ] || return 1
	export DISPLAY=":$(head -n 1 "$D/display")"
	for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && return 0; sleep 0.1; done
	return 1
}

OUT="$LOGDIR/e2e-notices.stdout" # the app's --trace lines (count, traced)
start_app() {
	(cd "$WS" && exec "$BIN" gui --data-dir "$D" --trace) >"$OUT" 2>"$LOGDIR/e2e-notices.stderr" &
	APP=$!
	WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"
	wait_for "the echo model" traced 1 'models 2'
	xdotool windowfocus --sync "$WIN" 2>/dev/null || true
}

# 1. Four toasts while an approval waits.
start_xvfb "$D" "$LOGDIR/e2e-notices-xvfb.log" || fail "Xvfb did not start (see $LOGDIR/e2e-notices-xvfb.log)"
start_app
xdotool type --delay 5 'call write_file {"path":"out.txt","content":"approved\n"}'
xdotool key Return
wait_for "the approval" traced 1 'approval write_file'
for n in 1 2 3; do
	xdotool key ctrl+k
	wait_for "palette $n" traced "$n" 'palette'
	xdotool type --delay 5 'hello-surfaces:refresh'
	xdotool key Return
	wait_for "action $n" grep -q "^trace: action /hello-surfaces:refresh: refreshed $n time" "$OUT"
done
painted toasts "$WIN"
[ -e "$WS/out.txt" ] && fail "out.txt was written before it was approved"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
xdotool key Return # the approval card's default: Approve once
wait_for "the approved write" test -s "$WS/out.txt"
wait_for "the turn" traced 1 'turn done'
quit_app || fail "the app did not quit on SIGTERM"
stop_pids "$XVFB"
XVFB=""

# 2. Settings on a 900×600 screen.
start_screen 900 600 "$LOGDIR/e2e-notices-xvfb-small.log" || fail "the 900×600 Xvfb did not start"
: >"$OUT"
start_app
xdotool key ctrl+comma
SW="$(window '^Settings$')" || fail "Settings never appeared"
wait_for "Settings' approvals" traced 1 'permissions 0'
painted settings
eval "$(xdotool getwindowgeometry --shell "$SW")" # X Y WIDTH HEIGHT
echo "xvfb-e2e-notices: Settings at ${X},${Y} size ${WIDTH}x${HEIGHT} on 900x600"
[ "$X" -ge 0 ] && [ "$Y" -ge 0 ] && [ $((X + WIDTH)) -le 900 ] && [ $((Y + HEIGHT)) -le 600 ] ||
	fail "Settings (${X},${Y} ${WIDTH}x${HEIGHT}) is not wholly on the 900x600 screen"
xdotool windowfocus --sync "$SW" 2>/dev/null || true
xdotool key Escape
wait_for "Settings to close on Esc" sh -c "! xdotool search --name '^Settings\$' >/dev/null 2>&1"

# fits ENTRY TITLE KEY: the palette's ENTRY opens the window TITLE, which
# lies wholly on the screen and closes with KEY.
fits() {
	local w p
	p="$(count 'palette')"
	xdotool windowfocus --sync "$WIN" 2>/dev/null || true
	xdotool key ctrl+k
	wait_for "the palette for $2" traced $((p + 1)) 'palette'
	xdotool type --delay 5 "$1"
	xdotool key Return
	w="$(window "^$2\$")" || fail "$2 never appeared"
	painted "$(printf '%s' "$2" | tr ' [:upper:]' '-[:lower:]')" "$w"
	eval "$(xdotool getwindowgeometry --shell "$w")"
	echo "xvfb-e2e-notices: $2 at ${X},${Y} size ${WIDTH}x${HEIGHT} on 900x600"
	[ "$X" -ge 0 ] && [ "$Y" -ge 0 ] && [ $((X + WIDTH)) -le 900 ] && [ $((Y + HEIGHT)) -le 600 ] ||
		fail "$2 (${X},${Y} ${WIDTH}x${HEIGHT}) is not wholly on the 900x600 screen"
	xdotool windowfocus --sync "$w" 2>/dev/null || true
	xdotool key "$3"
	wait_for "$2 to close on $3" sh -c "! xdotool search --name '^$2\$' >/dev/null 2>&1"
}
fits 'Plugin manager' Plugins ctrl+w
fits 'Protocol inspector' 'Protocol inspector' Escape
fits 'Notifications' Notifications ctrl+w
quit_app || fail "the app did not quit on SIGTERM"
echo "xvfb-e2e-notices: ok (four toasts over a waiting approval, approved; Settings, Plugins, the inspector and Notifications on 900x600 whole and closed by Esc or Ctrl+W; screenshots in $LOGDIR/e2e-notices-*.png)"
