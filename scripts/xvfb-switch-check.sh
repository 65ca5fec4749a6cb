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
# switch (a new plugin generation) that the composer waits for. Not part of
# `make test`: it measures, it does not pass or fail on figures.
set -euo pipefail

cd "$(dirname "$0")/.."
LOGDIR="${LOGDIR:-./ci-logs}"
mkdir -p "$LOGDIR"
LOGDIR="$(cd "$LOGDIR" && pwd)"
PLUGINS="${PLUGINS:-4}"
MESSAGES="${MESSAGES:-5000}"
SWITCHES="${SWITCHES:-6}"
MODEL=plugin/echo-provider/echo/echo-1

# shellcheck source=scripts/xwindow.sh
. scripts/xwindow.sh # (the script runs from the repo root)
fail() { echo "xvfb-switch-check: FAIL: $*" >&2; exit 1; }
for c in Xvfb xdotool; do command -v "$c" >/dev/null || fail "$c is missing (apt-get install xvfb xdotool)"; done

mkdir -p bin
CGO_ENABLED=1 go build -o bin/reasonix-desktop ./cmd/reasonix-desktop
make --no-print-directory examples >/dev/null

D="$(mktemp -d)"
WS="$(mktemp -d)"
APP=""
XVFB=""
cleanup() {
	[ -n "$APP" ] && kill "$APP" 2>/dev/null && wait "$APP" 2>/dev/null || true
	[ -n "$XVFB" ] && kill "$XVFB" 2>/dev/null && wait "$XVFB" 2>/dev/null || true
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

Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$D/display" >"$LOGDIR/switch-xvfb.log" 2>&1 &
XVFB=$!
for _ in $(seq 100); do [ -s "$D/display" ] && break; sleep 0.1; done
[ -s "$D/display" ] || fail "Xvfb did not start"
export DISPLAY=":$(head -n 1 "$D/display")"
for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done

OUT="$LOGDIR/switch.stdout"
(cd "$WS" && exec "$OLDPWD/bin/reasonix-desktop" gui --data-dir "$D" --session "$SMALL" --trace) >"$OUT" 2>"$LOGDIR/switch.stderr" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"

wait_for() {
	local what="$1"
	shift
	for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done
	fail "timed out waiting for $what"
}
count() { grep -c -- "^trace: $1" "$OUT" || true; }
ready_count() { [ "$(count "chat ready $1")" -ge "$2" ]; }

wait_for "the small chat" ready_count "$SMALL" 1
wait_for "the model list" sh -c "grep -q '^trace: models' '$OUT'"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
echo "xvfb-switch-check: ${#INSTALL[@]} plugin(s), a $MESSAGES-message chat and a 40-message one, $SWITCHES switches"
for i in $(seq "$SWITCHES"); do
	if [ $((i % 2)) = 1 ]; then want="$BIG"; query='Question 1000:'; else want="$SMALL"; query=''; fi
	n=$(($(count "chat ready $want") + 1))
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
