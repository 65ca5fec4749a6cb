#!/usr/bin/env bash
# xvfb-e2e-zh.sh — the real window in Chinese under Xvfb (issue 38): the app
# started with LANG=zh_CN.UTF-8 and no language setting speaks Simplified
# Chinese (its --trace says the language); screenshots of the main window,
# an approval card (the echo model calls write_file), Settings and the
# plugin manager go to $LOGDIR/e2e-zh-*.png for a reader to check. Needs a
# CJK font (fc-list :lang=zh; Debian: fonts-noto-cjk or fonts-droid-fallback).
# BIN: a built binary to use instead of building one.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
use_logdir
MODEL=plugin/echo-provider/echo/echo-1

shot() { command -v import >/dev/null && [ -n "${DISPLAY:-}" ] && import -window "${2:-root}" "$LOGDIR/e2e-zh-$1.png" 2>/dev/null || true; }
# painted NAME [WINDOW]: the screenshot once two grabs 0.1 s apart agree.
painted() {
	settle "${2:-root}"
	shot "$@"
}
fail() {
	trap - ERR # what fail runs may fail without failing again
	echo "xvfb-e2e-zh: FAIL: $*" >&2
	shot fail
	[ -f "$LOGDIR/e2e-zh.stderr" ] && tail -n 30 "$LOGDIR/e2e-zh.stderr" >&2
	exit 1
}
set -E
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR
for c in Xvfb xdotool import fc-list; do command -v "$c" >/dev/null || fail "$c is missing"; done
[ -n "$(fc-list :lang=zh family 2>/dev/null)" ] || fail "no CJK font is installed (apt-get install fonts-noto-cjk)"

BIN="${BIN:-}"
build_bin

D="$(mktemp -d)"
WS="$(mktemp -d)"
APP="" XVFB=""
cleanup() {
	stop_pids "$APP" "$XVFB"
	rm -rf "$D" "$WS"
}
trap cleanup EXIT
for p in echo-provider hello-surfaces; do
	"$BIN" plugin install --yes --data-dir "$D" "examples/$p" >>"$LOGDIR/e2e-zh-install.log" 2>&1 || fail "installing $p"
done
printf '{"defaultModel":"%s"}\n' "$MODEL" >"$D/settings.json"

start_xvfb "$D" "$LOGDIR/e2e-zh-xvfb.log" || fail "Xvfb did not start"
OUT="$LOGDIR/e2e-zh.stdout"
(cd "$WS" && unset LANGUAGE LC_ALL LC_MESSAGES && LANG=zh_CN.UTF-8 exec "$BIN" gui --data-dir "$D" --trace) \
	>"$OUT" 2>"$LOGDIR/e2e-zh.stderr" &
APP=$!
WIN="$(window 'Reasonix')" || fail "the window never appeared"
wait_for "the echo model" traced 1 'models 2'
wait_for "the language" traced 1 'language zh-Hans'
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
painted main

xdotool type --delay 5 'call write_file {"path":"out.txt","content":"approved\n"}'
xdotool key Return
wait_for "the approval" traced 1 'approval write_file'
painted approval
xdotool key Escape # stops the turn: the approval is not answered
wait_for "the turn" traced 1 'turn done'

xdotool key ctrl+comma
SW="$(window '设置|Settings')" || fail "Settings never appeared"
wait_for "Settings' approvals" traced 1 'permissions 0'
painted settings "$SW"
xdotool windowfocus --sync "$SW" 2>/dev/null || true
xdotool key Escape

p="$(count palette)"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
xdotool key ctrl+k
wait_for "the palette" traced $((p + 1)) palette
xdotool type --delay 5 'Plugin manager'
xdotool key Return
PW="$(window '插件|Plugins')" || fail "the plugin manager never appeared"
painted plugins "$PW"
quit_app || fail "the app did not quit on SIGTERM"
echo "xvfb-e2e-zh: ok (LANG=zh_CN.UTF-8: the window in Simplified Chinese; screenshots in $LOGDIR/e2e-zh-{main,approval,settings,plugins}.png)"
