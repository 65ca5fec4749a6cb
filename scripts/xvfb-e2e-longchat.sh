#!/usr/bin/env bash
# xvfb-e2e-longchat.sh — a long chat must not hold the app: the real binary
# under Xvfb, launched with a $MESSAGES-message chat (default 50,000,
# scripts/gensession, every question naming a zebra) as the chat last
# open, then with a 50-message one, each in its own data directory. For
# each launch it prints:
#   map     the window mapped (xdotool), from the start of the process;
#   screen  the transcript's first screen placed (the app's trace
#           "transcript on screen N rows");
#   idle    the app quiet: the start of the first second after that in
#           which the GUI process used under 30 ms of CPU (/proc/PID/stat);
#   rss     the GUI process's resident memory when idle, and its peak.
# In the long chat Ctrl+F "zebra" (from the end: the last match is the
# current one), Esc, PgUp and PgDn then run (their traces printed), and
# the window is screenshotted.
# It fails on a broken check: the window or the chat's content never on
# screen, too few rows, a key that does not move the view, find that does
# not find, a panic, the app not quitting. Timings are printed, never
# judged (the machine is shared), but for one gross regression guard: the
# long chat's idle RSS over 2.0x the short one's. Logs and screenshots go
# to $LOGDIR (default ./ci-logs), named e2e-longchat-*. BIN: a built binary
# to use instead of building one.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
MESSAGES="${MESSAGES:-50000}"
MODEL=plugin/echo-provider/echo/echo-1
ERR="$LOGDIR/e2e-longchat-long.stderr"

shot() {
	command -v import >/dev/null && [ -n "${DISPLAY:-}" ] &&
		import -window "${2:-root}" "$LOGDIR/e2e-longchat-$1.png" 2>/dev/null || true
}
fail() {
	echo "xvfb-e2e-longchat: FAIL: $*" >&2
	shot fail
	[ -f "$ERR" ] && tail -n 30 "$ERR" >&2
	exit 1
}
for c in Xvfb xdotool; do command -v "$c" >/dev/null || fail "$c is missing (make deps)"; done

BIN="${BIN:-}"
build_bin

TMP="$(mktemp -d)"
APP="" XVFB=""
cleanup() {
	stop_pids "$APP" "$XVFB"
	rm -rf "$TMP"
}
trap cleanup EXIT

# datadir NAME N: a data directory with the echo model and an N-message
# chat that was the last one open; prints the chat's id.
datadir() {
	local d="$TMP/$1" id
	mkdir -p "$d/data" "$d/ws"
	"$BIN" plugin install --yes --data-dir "$d/data" examples/echo-provider >"$LOGDIR/e2e-longchat-install-$1.log" 2>&1 ||
		fail "installing echo-provider"
	printf '{"defaultModel":"%s"}\n' "$MODEL" >"$d/data/settings.json"
	id="$(go run ./scripts/gensession -data-dir "$d/data" -messages "$2" -model "$MODEL" -workspace "$d/ws" \
		-question 'where does the zebra cross?')"
	printf '{"lastSession":"%s"}\n' "$id" >"$d/data/desktop-state.json"
	echo "$id"
}

LONG_ID="$(datadir long "$MESSAGES")"
datadir short 50 >/dev/null
echo "xvfb-e2e-longchat: chats of $MESSAGES and 50 messages ($(du -h "$TMP/long/data/sessions" | tail -n 1 | cut -f1) of sessions)"

start_xvfb "$TMP" "$LOGDIR/e2e-longchat-xvfb.log" || fail "Xvfb did not start (see $LOGDIR/e2e-longchat-xvfb.log)"

# ticks PID: the process's CPU time so far, in clock ticks (utime + stime).
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# kib PID FIELD: a /proc/PID/status figure in KiB (VmRSS, VmHWM).
kib() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
# ms FROM: milliseconds from FROM ($EPOCHREALTIME) to now.
ms() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN {printf "%d", (b - a) * 1000}'; }

# launch NAME: starts the app on the chat last open in NAME's data
# directory and measures it (sets MAP SCREEN IDLE RSS PEAK ROWS and WIN;
# APP stays running).
launch() {
	local d="$TMP/$1" t0 now quiet_from="" quiet_ticks=0 cpu
	OUT="$LOGDIR/e2e-longchat-$1.stdout"
	ERR="$LOGDIR/e2e-longchat-$1.stderr"
	MAP="" SCREEN="" IDLE="" ROWS="" WIN=""
	t0="$EPOCHREALTIME"
	(cd "$d/ws" && exec "$BIN" gui --data-dir "$d/data" --trace) >"$OUT" 2>"$ERR" &
	APP=$!
	# Polled every 50 ms: the window, the trace, the CPU; a cold page cache
	# can take the long chat half a minute.
	for _ in $(seq 1800); do
		kill -0 "$APP" 2>/dev/null || fail "the app exited while opening the $1 chat"
		now="$EPOCHREALTIME"
		if [ -z "$MAP" ] && WIN="$(xdotool search --onlyvisible --name 'Reasonix Desktop' 2>/dev/null | head -n 1)" && [ -n "$WIN" ]; then
			MAP="$(ms "$t0")"
		fi
		if [ -z "$SCREEN" ] && ROWS="$(grep -m 1 -oE '^trace: transcript on screen [0-9]+ rows$' "$OUT" | awk '{print $5}')" && [ -n "$ROWS" ]; then
			SCREEN="$(ms "$t0")"
		fi
		cpu="$(ticks "$APP")"
		if [ -n "$SCREEN" ] && [ -n "$MAP" ]; then
			# Quiet: under 3 ticks (30 ms) in the second since quiet_from.
			if [ -z "$quiet_from" ] || [ $((cpu - quiet_ticks)) -ge 3 ]; then
				quiet_from="$now" quiet_ticks="$cpu"
			elif [ "$(ms "$quiet_from")" -ge 1000 ]; then
				IDLE="$(awk -v a="$t0" -v b="$quiet_from" 'BEGIN {printf "%d", (b - a) * 1000}')"
				break
			fi
		fi
		sleep 0.05
	done
	[ -n "$MAP" ] || fail "the window never appeared ($1 chat)"
	[ -n "$SCREEN" ] || fail "the $1 chat's content never came on screen (no 'transcript on screen' trace)"
	RSS="$(kib "$APP" VmRSS)"
	PEAK="$(kib "$APP" VmHWM)"
	[ -n "$IDLE" ] || IDLE="never (90 s)"
	echo "xvfb-e2e-longchat: $1 chat ($ROWS rows): window mapped ${MAP} ms, first screen ${SCREEN} ms, idle ${IDLE} ms, RSS $((RSS / 1024)) MiB when idle (peak $((PEAK / 1024)) MiB)"
}

# finish NAME: quits the app and fails on a panic it printed.
finish() {
	quit_app || fail "the app did not quit on SIGTERM ($1 chat)"
	! grep -q '^panic:' "$ERR" || fail "the app panicked ($1 chat, see $ERR)"
}

# --- the long chat ---
launch long
LONG_RSS="$RSS"
[ "$ROWS" -ge $((MESSAGES / 3)) ] || fail "the long chat shows $ROWS rows for $MESSAGES messages"
# The rows say it is the long chat; any trace naming it says it is that one.
grep -qE "^trace: (session|viewing|chat ready|chat shown) $LONG_ID( |\$)" "$OUT" ||
	fail "the long chat was not the one reopened (see $OUT)"
settle "$WIN"
shot long "$WIN"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true

for _ in $(seq 10); do
	xdotool key ctrl+f
	for _ in $(seq 20); do traced 1 'find open' && break 2; sleep 0.1; done # (wait_for would fail the script)
done
traced 1 'find open' || fail "Ctrl+F did not open the find bar"
xdotool type --delay 80 'zebra'
wait_for "zebra found" sh -c "[ \"\$(grep -cE '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' '$OUT')\" -ge 5 ]"
read -r CUR TOTAL FMS <<<"$(grep -E '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' "$OUT" | tail -n 1 | awk '{print $3, $5, $6}' | sed 's/ms$//')"
# gensession asks a question in 3 of every 7 messages: every one counts.
[ "$TOTAL" -ge $((MESSAGES * 2 / 5)) ] || fail "zebra: $TOTAL matches in $MESSAGES messages"
[ "$CUR" = "$TOTAL" ] || fail "the first match is $CUR of $TOTAL, not the nearest to the end"
SLOWEST="$(grep -E '^trace: find [0-9]+ of [0-9]+ [0-9]+ms$' "$OUT" | awk '{print $6}' | sed 's/ms$//' | sort -n | tail -n 1)"
echo "xvfb-e2e-longchat: Ctrl+F zebra: $CUR of $TOTAL, ${FMS} ms for the last key (slowest of five ${SLOWEST} ms)"
shot long-find "$WIN"
xdotool key Escape
wait_for "Esc closing the find bar" traced 1 'find closed'

# rowtrace: the last "transcript row R of N" (a key that moves the view).
rowtrace() { grep -E '^trace: transcript row [0-9]+ of [0-9]+$' "$OUT" | tail -n 1 | awk '{print $4}'; }
rowkeys() { grep -cE '^trace: transcript row [0-9]+ of [0-9]+$' "$OUT" || true; }
N="$(rowkeys)"
t="$EPOCHREALTIME"
xdotool key Prior Prior
wait_for "PgUp" sh -c "[ \"\$(grep -cE '^trace: transcript row [0-9]+ of [0-9]+$' '$OUT')\" -ge $((N + 2)) ]"
UP="$(rowtrace)"
[ "$UP" -lt $((ROWS - 1)) ] || fail "PgUp left the view at row $UP of $ROWS"
xdotool key Next
wait_for "PgDn" sh -c "[ \"\$(grep -cE '^trace: transcript row [0-9]+ of [0-9]+$' '$OUT')\" -ge $((N + 3)) ]"
DOWN="$(rowtrace)"
[ "$DOWN" -gt "$UP" ] || fail "PgDn went from row $UP to $DOWN"
echo "xvfb-e2e-longchat: PgUp twice to row $UP, PgDn to row $DOWN of $ROWS ($(ms "$t") ms for the three keys)"

finish long

# --- the short chat ---
launch short
SHORT_RSS="$RSS"
[ "$ROWS" -ge 10 ] || fail "the short chat shows $ROWS rows"
settle "$WIN"
shot short "$WIN"
finish short

RATIO="$(awk -v a="$LONG_RSS" -v b="$SHORT_RSS" 'BEGIN {printf "%.2f", a / b}')"
echo "xvfb-e2e-longchat: idle RSS $((LONG_RSS / 1024)) MiB with $MESSAGES messages vs $((SHORT_RSS / 1024)) MiB with 50: ${RATIO}x (target <= 1.5x)"
awk -v r="$RATIO" 'BEGIN {exit !(r <= 2.0)}' || fail "the long chat's RSS is ${RATIO}x the short one's (guard: 2.0x)"
echo "xvfb-e2e-longchat: ok (screenshots in $LOGDIR/e2e-longchat-*.png)"
