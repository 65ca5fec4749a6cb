#!/usr/bin/env bash
# xvfb-e2e-find.sh — find in a long chat and a sent paste folded, in the
# real window under Xvfb, driven with xdotool and xclip as a user:
#  1. a 5,000-message chat (scripts/gensession, every question naming a
#     zebra) opened; Ctrl+F opens the find bar, "zebra" is typed: the app
#     traces each search's time from the key to the current match's
#     highlight ("find 2143 of 2143 2ms"); the time to the first
#     highlight is printed (the target is <= 100 ms; reported, judged only
#     against 1 s, as the machine is shared); Enter and Shift+Enter move to
#     the next and previous match, Esc closes the bar (screenshots);
#  2. a 100,000-character paste (xclip, Ctrl+V) sent after typed text: the
#     sent message shows the typed text and a closed "Pasted text" tile
#     (the app traces the tile), found again with Ctrl+F (screenshot).
# The app's hidden --trace flag says what the window does, so each step
# waits for it instead of sleeping. Logs and screenshots go to $LOGDIR
# (default ./ci-logs), named e2e-find-*. BIN: a built binary to use
# instead of building one.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
MODEL=plugin/echo-provider/echo/echo-1
OUT="$LOGDIR/e2e-find.stdout" # the app's --trace lines (count, traced)
ERR="$LOGDIR/e2e-find.stderr"

shot() {
	command -v import >/dev/null && [ -n "${DISPLAY:-}" ] &&
		import -window "${2:-root}" "$LOGDIR/e2e-find-$1.png" 2>/dev/null || true
}
fail() {
	echo "xvfb-e2e-find: FAIL: $*" >&2
	shot fail
	[ -f "$ERR" ] && tail -n 30 "$ERR" >&2
	exit 1
}
for c in Xvfb xdotool xclip python3; do command -v "$c" >/dev/null || fail "$c is missing (make deps)"; done

BIN="${BIN:-}"
build_bin

D="$(mktemp -d)"
WS="$(mktemp -d)"
APP="" XVFB="" CLIP=""
cleanup() {
	stop_pids "$APP" "$CLIP" "$XVFB"
	rm -rf "$D" "$WS"
}
trap cleanup EXIT
"$BIN" plugin install --yes --data-dir "$D" examples/echo-provider >"$LOGDIR/e2e-find-install.log" 2>&1 ||
	fail "installing echo-provider"
printf '{"defaultModel":"%s"}\n' "$MODEL" >"$D/settings.json"
BIG="$(go run ./scripts/gensession -data-dir "$D" -messages 5000 -model "$MODEL" -workspace "$WS" \
	-question 'where does the zebra cross?')"

start_xvfb "$D" "$LOGDIR/e2e-find-xvfb.log" || fail "Xvfb did not start (see $LOGDIR/e2e-find-xvfb.log)"
(cd "$WS" && exec "$BIN" gui --data-dir "$D" --session "$BIG" --trace) >"$OUT" 2>"$ERR" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"
wait_for "the echo model" traced 1 'models 2'
wait_for "the big chat" traced 1 "session $BIG"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true

# findtrace: the last "find N of M Tms" line, as "N M T".
findtrace() { grep -E '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' "$OUT" | tail -n 1 | awk '{print $3, $5, $6}' | sed 's/ms$//'; }
finds() { grep -cE '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' "$OUT" || true; }

# --- 1. Ctrl+F in the 5,000-message chat ---
# The first key may be sent while the window is still being shown: Ctrl+F
# is pressed until the bar is traced.
for _ in $(seq 10); do
	xdotool key ctrl+f
	for _ in $(seq 20); do traced 1 'find open' && break 2; sleep 0.1; done # (wait_for would fail the script)
done
traced 1 'find open' || fail "Ctrl+F did not open the find bar"
xdotool type --delay 80 'zebra'
wait_for "zebra found (a search a key)" sh -c "[ \"\$(grep -cE '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' '$OUT')\" -ge 5 ]"
read -r CUR TOTAL MS <<<"$(findtrace)"
# gensession's 5,000 messages hold a question in about every second one.
[ "$TOTAL" -ge 2000 ] || fail "zebra: $TOTAL matches in the 5,000-message chat"
[ "$CUR" = "$TOTAL" ] || fail "the first match is $CUR of $TOTAL, not the nearest to the end"
# Every key searched all 5,000 messages; the slowest and the last, which
# highlighted the first match of the whole word.
SLOWEST="$(grep -E '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' "$OUT" | awk '{print $6}' | sed 's/ms$//' | sort -n | tail -n 1)"
echo "xvfb-e2e-find: zebra in a 5,000-message chat: $CUR of $TOTAL, first highlight ${MS} ms after the key (slowest key of five: ${SLOWEST} ms; target <= 100 ms)"
[ "$MS" -le 1000 ] || fail "the first highlight took $MS ms"
shot found "$WIN"
N="$(finds)"
xdotool key shift+Return
wait_for "Shift+Enter" sh -c "[ \"\$(grep -cE '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' '$OUT')\" -gt $N ]"
read -r CUR2 _ MS2 <<<"$(findtrace)"
[ "$CUR2" = "$((TOTAL - 1))" ] || fail "Shift+Enter went to match $CUR2 of $TOTAL"
N="$(finds)"
xdotool key Return
wait_for "Enter" sh -c "[ \"\$(grep -cE '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' '$OUT')\" -gt $N ]"
read -r CUR3 _ MS3 <<<"$(findtrace)"
[ "$CUR3" = "$TOTAL" ] || fail "Enter went to match $CUR3 of $TOTAL"
echo "xvfb-e2e-find: Shift+Enter to $CUR2 in $MS2 ms, Enter back to $CUR3 in $MS3 ms"
xdotool key Escape
wait_for "Esc closing the bar" traced 1 'find closed'
shot closed "$WIN"

# --- 2. A 100,000-character paste sent: a tile ---
python3 -c '
unit = "A pasted line of a long log file, with words to wrap. "
print((unit * (100000 // len(unit) + 1))[:100000], end="")' >"$D/paste.txt"
xclip -quiet -selection clipboard -i "$D/paste.txt" >/dev/null 2>&1 &
CLIP=$!
wait_for "the clipboard" sh -c "[ \"\$(xclip -selection clipboard -o 2>/dev/null | wc -c)\" = 100000 ]"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
xdotool type --delay 20 'look at this log'
xdotool key ctrl+v
wait_for "the paste in the composer" grep -qE '^trace: paste shown 100000 characters' "$OUT"
DONE="$(count 'turn done')"
xdotool key Return
wait_for "the paste's reply" traced "$((DONE + 1))" 'turn done'
wait_for "the sent paste as a closed tile" traced 1 'paste tile 100000 characters open false'
# The echo model repeats the whole paste (an answer is not folded): find
# the question's words and go back from the echo to the question.
xdotool key ctrl+f
wait_for "the find bar again" traced 2 'find open'
xdotool key ctrl+a
xdotool type --delay 20 'look at this log'
wait_for "the question found" sh -c "grep -qE '^trace: find 2 of 2 [0-9]+ms$' '$OUT'"
# Each key of the query searched again and traced; the bar starts at the
# match nearest the end (the echo, 2 of 2). Shift+Enter goes back to the
# question: the last trace must come to say 1 of 2 (a search of a late key
# traced after Shift+Enter would say 2 again and leave it there).
xdotool key shift+Return
wait_for "the question in view" sh -c "[ \"\$(grep -E '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' '$OUT' | tail -n 1 | awk '{print \$3}')\" = 1 ]"
read -r CUR4 _ _ <<<"$(findtrace)"
[ "$CUR4" = 1 ] || fail "Shift+Enter went to match $CUR4 of 2, not the question"
shot paste-tile "$WIN"
python3 - "$D/sessions/$BIG.json" "$D/paste.txt" <<'PY' || fail "the saved message is not the typed text and the whole paste"
import json, sys
s = json.load(open(sys.argv[1]))
paste = open(sys.argv[2]).read()
last = [m for m in s["messages"] if m.get("role") == "user"][-1]["content"]
if last != "look at this log\n\n" + paste:
    sys.exit(f"saved {len(last)} characters starting {last[:30]!r}")
PY
xdotool key Escape

quit_app || fail "the app did not quit on SIGTERM"
echo "xvfb-e2e-find: ok (find in a 5,000-message chat, a sent paste folded; screenshots in $LOGDIR/e2e-find-*.png)"
