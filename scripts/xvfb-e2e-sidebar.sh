#!/usr/bin/env bash
# xvfb-e2e-sidebar.sh — the sidebar and the window's remembered choices in
# the real window under Xvfb, driven with xdotool as a user:
#  1. 200 saved chats; Ctrl+B to the sidebar's search, a phrase found only
#     in one chat's messages (its title is another), Enter opens that chat.
#     Ctrl+F opens the chat's find bar, Esc closes it.
#  2. A right-click on the chat's line opens its menu; Export as Markdown
#     and Export as JSON save it (Enter in the file dialog). The JSON,
#     imported into another data directory through the same core function
#     (session import), is saved as the exported JSON byte for byte and
#     exports back identical.
#  3. The window is resized to 1000x700; Ctrl+= twice zooms to 125 %;
#     after a restart the zoom and the size are the same.
# The app's --trace lines say what the window did; every step waits on
# them. Logs and screenshots go to $LOGDIR (default ./ci-logs), named
# e2e-sidebar-*. BIN: a built binary to use instead of building one.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir

# shot NAME [WINDOW]: a screenshot of the screen or of one window.
shot() {
	command -v import >/dev/null && [ -n "${DISPLAY:-}" ] &&
		import -window "${2:-root}" "$LOGDIR/e2e-sidebar-$1.png" 2>/dev/null || true
}
fail() {
	echo "xvfb-e2e-sidebar: FAIL: $*" >&2
	shot fail
	[ -f "$LOGDIR/e2e-sidebar.stderr" ] && tail -n 30 "$LOGDIR/e2e-sidebar.stderr" >&2
	exit 1
}
for c in Xvfb xdotool python3; do command -v "$c" >/dev/null || fail "$c is missing (apt-get install xvfb xdotool python3)"; done

BIN="${BIN:-}"
build_bin

D="$(mktemp -d)"
D2="$(mktemp -d)"
WS="$(mktemp -d)"
EXP="$(mktemp -d)" # the app's home: where the file dialog saves
APP=""
XVFB=""
cleanup() {
	stop_pids "$APP" "$XVFB"
	rm -rf "$D" "$D2" "$WS" "$EXP"
}
trap cleanup EXIT

# 200 chats of 20 messages in the workspace; one asks about parsing flags
# and is named otherwise, so only its messages hold the phrase.
go build -o "$D/gensession" ./scripts/gensession
for i in $(seq 199); do
	"$D/gensession" -data-dir "$D" -messages 20 -workspace "$WS" -question "how do I list the files, take $i?" >/dev/null
done
TARGET="$("$D/gensession" -data-dir "$D" -messages 20 -workspace "$WS" -question "how do I parse flags in Go?")"
python3 - "$D/sessions/$TARGET.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
s["name"] = "Command line options"
json.dump(s, open(p, "w"))
PY

# This user answered the first start's "Connect a model" with Later (no
# model is installed: it would open over the sidebar).
printf '{"connectLater":true}\n' >"$D/desktop-state.json"

start_xvfb "$D" "$LOGDIR/e2e-sidebar-xvfb.log" || fail "Xvfb did not start (see $LOGDIR/e2e-sidebar-xvfb.log)"

OUT="$LOGDIR/e2e-sidebar.stdout" # the app's --trace lines (count, traced)
: >"$OUT"
start_app() {
	(cd "$EXP" && HOME="$EXP" exec "$BIN" gui --data-dir "$D" --workspace "$WS" --trace) >>"$OUT" 2>>"$LOGDIR/e2e-sidebar.stderr" &
	APP=$!
	WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"
	xdotool windowfocus --sync "$WIN" 2>/dev/null || true
}
start_app

# 1. Search the text of 200 chats and open the hit. Ctrl+B hides the
# sidebar shown at start, and again shows it with its search focused; a key
# sent while the window is still being mapped can be lost, so it is pressed
# again until the window answers (as xvfb-e2e-discover.sh does).
wait_for "the first listing" traced 1 'sessions listed for '
sidebar_last() { grep -E '^trace: sidebar (hidden|shown)$' "$OUT" | tail -n 1; }
sidebar_count() { grep -cE '^trace: sidebar (hidden|shown)$' "$OUT" || true; }
for _ in $(seq 10); do
	[ "$(sidebar_last)" = "trace: sidebar shown" ] && break
	n="$(sidebar_count)"
	xdotool key ctrl+b
	for _ in $(seq 30); do [ "$(sidebar_count)" -gt "$n" ] && break; sleep 0.1; done # up to 3 s for an answer
done
[ "$(sidebar_last)" = "trace: sidebar shown" ] || fail "Ctrl+B never showed the sidebar"
started=$(date +%s%N)
xdotool type --delay 5 'parse flags'
wait_for "the search's list" traced 1 'sessions listed for parse flags'
echo "xvfb-e2e-sidebar: search across 200 chats listed in $((($(date +%s%N) - started) / 1000000)) ms (typing included)"
shot search "$WIN"
xdotool key Return
wait_for "the hit opened" grep -q "^trace: viewing $TARGET " "$OUT"
wait_for "the hit's row" grep -q "^trace: session row $TARGET " "$OUT"
shot opened "$WIN"
# Ctrl+F (the View menu's key, so it works in the composer) opens the
# chat's find bar; Esc closes it.
xdotool key ctrl+f
wait_for "the find bar" traced 1 'find open'
xdotool key Escape
wait_for "the find bar closed" traced 1 'find closed'

# 2. Export as Markdown, then as JSON, from the chat's menu (right-click).
# The menu takes the keys: Down steps over Rename and Pin to the exports.
export_as() { # DOWNS EXT
	local xy
	xy="$(grep "^trace: session row $TARGET " "$OUT" | tail -n 1 | awk '{print $5, $6}')"
	# shellcheck disable=SC2086
	xdotool mousemove --window "$WIN" $xy click 3
	wait_for "the chat's menu" traced "$3" "session menu $TARGET"
	for _ in $(seq "$1"); do xdotool key Down; done
	xdotool key Return
	wait_for "the file dialog" traced 1 "session export dialog $2" # its file name has the focus
	xdotool key Return
	wait_for "the .$2 export" sh -c "grep -q '^trace: session exported .*\\.$2\$' '$OUT'"
}
export_as 3 md 1
MD="$(grep '^trace: session exported .*\.md$' "$OUT" | tail -n 1 | sed 's/^trace: session exported //')"
grep -q 'parse flags' "$MD" || fail "the Markdown export lacks the messages: $(head -c 300 "$MD")"
export_as 4 json 2
JSON="$(grep '^trace: session exported .*\.json$' "$OUT" | tail -n 1 | sed 's/^trace: session exported //')"
shot exported "$WIN"
ID2="$("$BIN" session import --data-dir "$D2" "$JSON")" || fail "session import refused the export"
"$BIN" session export --data-dir "$D2" --format json -o "$D2/back.json" "$ID2" || fail "session export of the import"
cmp -s "$JSON" "$D2/back.json" || fail "the imported chat exports differently: $(diff <(python3 -m json.tool "$JSON") <(python3 -m json.tool "$D2/back.json") | head -n 20)"
cmp -s "$JSON" "$D2/sessions/$ID2.json" || fail "the imported session file is not the exported JSON byte for byte"

# 3. Resize, zoom in twice, restart: both kept. The keys reach the app
# after the resize's configure event (one X connection, in order), so once
# the second zoom is traced the window has its new size.
xdotool windowsize --sync "$WIN" 1000 700 2>/dev/null || xdotool windowsize "$WIN" 1000 700
xdotool key ctrl+equal
wait_for "zoom 110%" traced 1 'zoom 110%'
xdotool key ctrl+equal
wait_for "zoom 125%" traced 1 'zoom 125%'
shot zoomed "$WIN"
ready="$(grep -c '^trace: chat ready' "$OUT")"
quit_app || fail "the app did not quit on SIGTERM"
start_app
wait_for "the restart" traced 1 'window start zoom 125% size 1000x700'
# The last chat open again (drawn) before the screenshot.
wait_for "the last chat reopened" sh -c "[ \"\$(grep -c '^trace: chat ready' '$OUT')\" -gt $ready ]"
geo="$(xdotool getwindowgeometry "$WIN" | awk '/Geometry/ {print $2}')"
shot restarted "$WIN"
quit_app || fail "the app did not quit on SIGTERM"
echo "xvfb-e2e-sidebar: ok (searched 200 chats and opened the hit; exported Markdown and JSON, the JSON imported back identical, its session file the export byte for byte; zoom 125% and ${geo} kept over a restart; screenshots in $LOGDIR/e2e-sidebar-*.png)"
