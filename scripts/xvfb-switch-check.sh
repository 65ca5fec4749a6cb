#!/usr/bin/env bash
# xvfb-switch-check.sh — chat switching in the real window under Xvfb.
#
# Installs $PLUGINS plugins (4: echo-provider, hello-surfaces, policy-guard,
# openai-provider; 1: echo-provider alone), writes a chat of $MESSAGES
# messages (default 5,000) and a small one, opens the small one, then
# switches between them $SWITCHES times (default 6) the way a user does:
# Ctrl+B twice (the sidebar's search), the search, Enter. For each switch it
# prints the window's own figures from its hidden --trace flag:
# "viewing <id> (N ms)" is click → the chat on screen, read from its file
# while the plugins start for it; "chat ready <id> (N ms)" is the core's
# switch (a new plugin generation) that the composer waits for. `make test`
# runs it: it fails when the window does not come up or a switch is not
# ready within 60 s; the figures it prints are not judged. BIN=path skips
# the build (make test passes the binary xvfb-start-test built).
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
PLUGINS="${PLUGINS:-4}"
MESSAGES="${MESSAGES:-5000}"
SWITCHES="${SWITCHES:-6}"
MODEL=plugin/echo-provider/echo/echo-1

fail() { echo "xvfb-switch-check: FAIL: $*" >&2; exit 1; }
for c in Xvfb xdotool; do command -v "$c" >/dev/null || fail "$c is missing (apt-get install xvfb xdotool)"; done

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
INSTALL=(echo-provider)
[ "$PLUGINS" -ge 4 ] && INSTALL+=(hello-surfaces policy-guard openai-provider)
for p in "${INSTALL[@]}"; do
	bin/reasonix-desktop plugin install --yes --data-dir "$D" "examples/$p" >>"$LOGDIR/switch-install.log" 2>&1 ||
		fail "installing $p"
done
# The big chat first: the small one is the newest, the first of an empty
# search. The big one's questions go past 1,000; the small one's do not.
BIG="$(go run ./scripts/gensession -data-dir "$D" -messages "$MESSAGES" -model "$MODEL" -workspace "$WS")"
SMALL="$(go run ./scripts/gensession -data-dir "$D" -messages 40 -model "$MODEL" -workspace "$WS")"

start_xvfb "$D" "$LOGDIR/switch-xvfb.log" || fail "Xvfb did not start"

OUT="$LOGDIR/switch.stdout"
(cd "$WS" && exec "$OLDPWD/bin/reasonix-desktop" gui --data-dir "$D" --session "$SMALL" --trace) >"$OUT" 2>"$LOGDIR/switch.stderr" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"

WAIT_TRIES=600 # wait_for: 60 s (a switch to the big chat)
# ready_n ID: how many "chat ready ID (N ms)" lines the app traced.
ready_n() { grep -c -- "^trace: chat ready $1" "$OUT" || true; }
# ready_count ID N: chat ID was ready at least N times.
ready_count() { [ "$(ready_n "$1")" -ge "$2" ]; }

wait_for "the small chat" ready_count "$SMALL" 1
wait_for "the model list" sh -c "grep -q '^trace: models' '$OUT'"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
echo "xvfb-switch-check: ${#INSTALL[@]} plugin(s), a $MESSAGES-message chat and a 40-message one, $SWITCHES switches"
for i in $(seq "$SWITCHES"); do
	if [ $((i % 2)) = 1 ]; then want="$BIG"; query='Question 1000:'; else want="$SMALL"; query=''; fi
	n=$(($(ready_n "$want") + 1))
	xdotool key ctrl+b
	xdotool key ctrl+b
	xdotool key ctrl+a BackSpace
	[ -n "$query" ] && xdotool type --delay 5 "$query"
	xdotool key Return
	wait_for "switch $i" ready_count "$want" "$n"
done
kill -TERM "$APP"
wait "$APP" || true
APP=""
grep -E '^trace: (viewing|chat ready) ' "$OUT" | tail -n $((SWITCHES * 2)) |
	sed -e "s/$BIG/big/" -e "s/$SMALL/small/" -e 's/^trace: /xvfb-switch-check: /'
