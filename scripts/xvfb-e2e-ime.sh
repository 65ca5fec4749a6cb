#!/usr/bin/env bash
# xvfb-e2e-ime.sh — a real Chinese input method (fcitx5 with pinyin, over
# XIM) typing into the real window under Xvfb, driven with xdotool as a
# user (issue 38). GLFW on X11 hands the app the key presses the input
# method used, before the text it commits; this checks that none of them
# acts:
#  1. "ni" + Space commits 你; then "hao" is composing and Enter commits it
#     as letters: the Enter must not send what the composer already held.
#  2. "wo" is composing; two BackSpaces empty the preedit: they must not
#     delete the composer's text.
#  3. With the input method off, Enter sends: the one message is "你hao",
#     nothing lost, nothing sent twice (the session file).
#  4. A write_file approval waits; "ni" + Enter with the input method on
#     must not approve it (out.txt stays absent), Enter with it off does.
# Needs fcitx5, fcitx5-chinese-addons and dbus-x11 (make deps). Logs and
# screenshots in $LOGDIR (default ./ci-logs), named e2e-ime-*. BIN: a built
# binary to use instead of building one.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
use_logdir
MODEL=plugin/echo-provider/echo/echo-1

shot() { command -v import >/dev/null && [ -n "${DISPLAY:-}" ] && import -window root "$LOGDIR/e2e-ime-$1.png" 2>/dev/null || true; }
fail() {
	trap - ERR # what fail runs may fail without failing again
	echo "xvfb-e2e-ime: FAIL: $*" >&2
	shot fail
	[ -f "$LOGDIR/e2e-ime.stderr" ] && tail -n 30 "$LOGDIR/e2e-ime.stderr" >&2
	[ -f "$LOGDIR/e2e-ime-fcitx.log" ] && tail -n 10 "$LOGDIR/e2e-ime-fcitx.log" >&2
	exit 1
}
set -E
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR
for c in Xvfb xdotool import fcitx5 fcitx5-remote dbus-launch; do
	command -v "$c" >/dev/null || fail "$c is missing (make deps: fcitx5 fcitx5-chinese-addons dbus-x11)"
done

BIN="${BIN:-}"
build_bin

D="$(mktemp -d)"
WS="$(mktemp -d)"
APP="" XVFB="" DBUS=""
# ours: the fcitx5 daemons of this run (their HOME is the run's).
ours() {
	local p
	for p in $(pgrep -x fcitx5 || true); do
		{ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qx "HOME=$D/home" && echo "$p"
	done
	return 0
}
cleanup() {
	trap - ERR # a cleanup step that fails must not turn a passed run into a failed one
	stop_pids "$APP"
	[ -n "${DISPLAY:-}" ] && HOME="$D/home" fcitx5-remote -e >/dev/null 2>&1 || true
	# fcitx5 (a daemon: no pid of ours) writes into $D/home until it ends:
	# removing the folder under it failed once ('Directory not empty').
	local pids i
	pids="$(ours)"
	[ -n "$pids" ] && kill $pids 2>/dev/null
	for i in $(seq 50); do [ -z "$(ours)" ] && break; sleep 0.1; done
	stop_pids "$DBUS" "$XVFB"
	rm -rf "$D" "$WS" 2>/dev/null || true
}
trap cleanup EXIT
"$BIN" plugin install --yes --data-dir "$D" examples/echo-provider >"$LOGDIR/e2e-ime-install.log" 2>&1 ||
	fail "installing echo-provider"
printf '{"defaultModel":"%s"}\n' "$MODEL" >"$D/settings.json"

# fcitx5's profile: pinyin beside the US layout, active from the start.
mkdir -p "$D/home/.config/fcitx5"
printf '[Groups/0]\nName=Default\nDefault Layout=us\nDefaultIM=pinyin\n\n[Groups/0/Items/0]\nName=keyboard-us\nLayout=\n\n[Groups/0/Items/1]\nName=pinyin\nLayout=\n\n[GroupOrder]\n0=Default\n' \
	>"$D/home/.config/fcitx5/profile"
printf '[Behavior]\nActiveByDefault=True\nShareInputState=All\n' >"$D/home/.config/fcitx5/config"

start_xvfb "$D" "$LOGDIR/e2e-ime-xvfb.log" || fail "Xvfb did not start"
eval "$(dbus-launch --sh-syntax)"
DBUS="$DBUS_SESSION_BUS_PID"
export HOME="$D/home" XMODIFIERS=@im=fcitx LC_CTYPE=C.UTF-8
fcitx5 -d -r >"$LOGDIR/e2e-ime-fcitx.log" 2>&1 || fail "fcitx5 did not start"
# fcitx5-remote prints 1 (inactive) or 2 (active) once the daemon answers.
wait_for "fcitx5" sh -c 'case "$(fcitx5-remote 2>/dev/null)" in 1|2) exit 0;; *) exit 1;; esac'
ime() { # ime on|off
	if [ "$1" = on ]; then fcitx5-remote -o; else fcitx5-remote -c; fi
	wait_for "the input method $1" sh -c "[ \"\$(fcitx5-remote)\" = $([ "$1" = on ] && echo 2 || echo 1) ]"
}

OUT="$LOGDIR/e2e-ime.stdout"
(cd "$WS" && exec "$BIN" gui --data-dir "$D" --trace) >"$OUT" 2>"$LOGDIR/e2e-ime.stderr" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"
wait_for "the echo model" traced 1 'models 2'
xdotool windowfocus --sync "$WIN" 2>/dev/null || true

# barrier: X delivers key events in order, through the input method too; a
# palette opened after them has seen them handled. Esc closes it.
barrier() {
	local n
	n="$(count palette)"
	xdotool key ctrl+k
	wait_for "the palette ($1)" traced $((n + 1)) palette
	xdotool key Escape
}

# 1 and 2, with pinyin on.
ime on
xdotool type --delay 60 'ni'
xdotool key space # commits the first candidate, 你
xdotool type --delay 60 'hao'
shot composing
xdotool key Return # commits "hao" as letters
wait_for "the commit 你hao" grep -qx 'trace: composer 你hao' "$OUT"
barrier "after Enter"
[ "$(count 'turn done')" = 0 ] && ! grep -q '^trace: replying' "$OUT" ||
	fail "the Enter that committed the composition sent a message"
xdotool type --delay 60 'wo'
xdotool key BackSpace BackSpace # both edit the preedit, which ends empty
barrier "after BackSpace"
shot after-backspace

# 3. Off: Enter sends what the composer holds.
ime off
xdotool key Return
wait_for "the turn" traced 1 'turn done'
F="$(ls "$D"/sessions/*.json | head -n 1)"
grep -qF '"你hao"' "$F" || grep -qF '你hao' "$F" ||
	fail "the message sent is not 你hao: $(grep -o '"content": "[^"]*"' "$F" | head -n 3 | tr '\n' ' ')"
[ "$(grep -c 'Echo: ' "$F")" = 1 ] || fail "more than one reply in the session"
grep -qF 'Echo: 你hao' "$F" || fail "the composer's text was changed: $(grep -o 'Echo: [^"]*' "$F" | head -n 1)"

# 4. An approval waits; Enter with pinyin composing must not answer it.
xdotool type --delay 5 'call write_file {"path":"out.txt","content":"approved\n"}'
# With the input method running, each key goes through fcitx5 first: on a
# machine busy with other builds its characters arrived over a minute (a
# fresh-clone CI beside a stress run), so this one wait is longer.
WAIT_TRIES=1800 wait_for "the typed call" grep -qxF 'trace: composer call write_file {"path":"out.txt","content":"approved\n"}' "$OUT"
KEPT="$(count 'ime kept Return')"
xdotool key Return
# The guard's known cost (issue 38's note): with the input method running
# but off, a key's character may come a tick after the key on a loaded
# machine, and an Enter right after it is taken for a composing one and
# kept, once. The guard says so; the user (and this script) presses again.
for _ in $(seq 30); do
	traced 1 'approval write_file' && break
	if [ "$(count 'ime kept Return')" -gt "$KEPT" ]; then
		echo "xvfb-e2e-ime: the Enter after fast typing was kept once (a loaded machine); pressed again"
		xdotool key Return
		break
	fi
	sleep 0.1
done
wait_for "the approval" traced 1 'approval write_file'
ime on
xdotool type --delay 60 'ni'
xdotool key Return
wait_for "the commit ni" grep -qx 'trace: composer ni' "$OUT"
barrier "over the approval"
shot approval
[ -e "$WS/out.txt" ] && fail "the Enter that committed the composition approved write_file"
ime off
# The committed "ni" is in the composer (Enter would send it): empty it,
# then Enter answers the card: Approve once.
xdotool key BackSpace BackSpace
wait_for "the composer emptied" sh -c "tail -n 1 \"$OUT\" | grep -qx 'trace: composer '"
xdotool key Return
wait_for "the approved write" test -s "$WS/out.txt"
quit_app || fail "the app did not quit on SIGTERM"
echo "xvfb-e2e-ime: ok (fcitx5 pinyin: a composing Enter sent nothing and approved nothing, composing BackSpaces deleted nothing; screenshots in $LOGDIR/e2e-ime-*.png)"
