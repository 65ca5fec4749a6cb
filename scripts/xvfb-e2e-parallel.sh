#!/usr/bin/env bash
# xvfb-e2e-parallel.sh — chats that live side by side, in the real window
# under Xvfb (issue 39). With 8 example plugins (the four example sidecars
# and four packages) and the echo model streaming a word every $DELAY ms:
#
#   1. two saved chats, A and B, each opened once (its plugins start);
#   2. $SWITCHES switches between them the way a user does (Ctrl+B twice,
#      the sidebar's search, Enter), each followed at once by a message: the
#      switch must not wait for plugins ("Sending waits for the chat" is a
#      failure), and the app's plugin processes (pgrep -P) must be the same
#      after the switches as before: nothing restarted;
#   3. a long message in A, then at once one in B: both replies stream at
#      the same time (B starts replying before A ends) and each lands whole
#      in its own session file;
#   4. a relaunch with liveChats 8: the app's RSS (VmRSS of it and all its
#      descendants) with 1, 4 and 8 live chats.
#
# The figures (the app's own "chat shown <id> (N ms)" per switch, the time
# from a switch's frame to the reply starting, the RSS) are printed, never
# judged: the script fails only on a failed check. The app's hidden
# --trace flag says what the window does, so each step waits for it. Logs
# and screenshots go to $LOGDIR (default ./ci-logs), named parallel-*.
# SWITCHES (default 10), DELAY (ms, default 40) change the run; BIN: a
# built binary to use.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
MODEL=plugin/echo-provider/echo/echo-1
SWITCHES="${SWITCHES:-10}"
DELAY="${DELAY:-40}"

shot() {
	command -v import >/dev/null && [ -n "${DISPLAY:-}" ] &&
		import -window root "$LOGDIR/parallel-$1.png" 2>/dev/null || true
}
fail() {
	echo "xvfb-e2e-parallel: FAIL: $*" >&2
	shot fail
	[ -n "${OUT:-}" ] && [ -f "$OUT" ] && tail -n 30 "$OUT" >&2
	exit 1
}
for c in Xvfb xdotool python3 pgrep; do command -v "$c" >/dev/null || fail "$c is missing (apt-get install xvfb xdotool python3 procps)"; done

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
PLUGINS=(examples/echo-provider examples/hello-surfaces examples/policy-guard examples/openai-provider
	cmd/reasonix-desktop/testdata/packages/team-kit cmd/reasonix-desktop/testdata/packages/writing-kit
	cmd/reasonix-desktop/testdata/packages/guard-hooks cmd/reasonix-desktop/testdata/packages/claude-notes)
for p in "${PLUGINS[@]}"; do
	"$BIN" plugin install --yes --data-dir "$D" "$p" >>"$LOGDIR/parallel-install.log" 2>&1 || fail "installing $p"
done
printf '{"defaultModel":"%s","liveChats":8}\n' "$MODEL" >"$D/settings.json"
# Each chat's questions carry a word of its own: the sidebar's search finds
# it by that word.
gen() { go run ./scripts/gensession -data-dir "$D" -messages 40 -model "$MODEL" -workspace "$WS" -question "$1"; }
A="$(gen alphachat)"
B="$(gen betachat)"
RSS_CHATS=()
for i in 1 2 3 4 5 6 7; do RSS_CHATS+=("$(gen "rsschat$i")"); done

start_xvfb "$D" "$LOGDIR/parallel-xvfb.log" || fail "Xvfb did not start (see $LOGDIR/parallel-xvfb.log)"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
# lines PATTERN: how many lines of $OUT match the extended regex.
lines() { grep -cE -- "$1" "$OUT" || true; }
# more PATTERN N: $OUT has more than N lines matching PATTERN.
more() { [ "$(lines "$1")" -gt "$2" ]; }
# poll_for WHAT CMD...: as wait_for, every 10 ms (times are measured from
# what it sees), for 60 s.
poll_for() {
	local what="$1"
	shift
	for _ in $(seq 6000); do "$@" && return 0; sleep 0.01; done
	fail "timed out waiting for $what"
}

# launch N [ARGS...]: start the app (its output in parallel-N.stdout) and
# wait for its window and the first sidebar list.
launch() {
	local n="$1"
	shift
	OUT="$LOGDIR/parallel-$n.stdout"
	(cd "$WS" && ECHO_PROVIDER_DELAY_MS="$DELAY" exec "$BIN" gui --data-dir "$D" --trace "$@") >"$OUT" 2>"$LOGDIR/parallel-$n.stderr" &
	APP=$!
	WIN="$(window 'Reasonix Desktop')" || fail "launch $n: the window never appeared"
	xdotool windowfocus --sync "$WIN" 2>/dev/null || true
	poll_for "launch $n: the sidebar" more '^trace: sessions listed for ' 0
}

# open_by WORD ID: open chat ID through the sidebar's search for WORD and
# wait until it is on screen ("chat shown ID").
open_by() {
	local n
	n="$(lines "^trace: chat shown $2 ")"
	xdotool key ctrl+b
	xdotool key ctrl+b
	xdotool key ctrl+a BackSpace
	xdotool type --delay 5 "$1"
	xdotool key Return
	poll_for "chat $2 on screen" more "^trace: chat shown $2 " "$n"
}

# ready ID: chat ID has its own plugins (the pool opened it).
ready() { more "^trace: chat ready $1 " 0; }

# send TEXT ID: type TEXT in the composer, Enter, and wait until chat ID
# replies; prints the ms from the first key to the reply starting.
send() {
	local n t0
	n="$(lines "^trace: replying $2\$")"
	t0="$(now_ms)"
	xdotool type --delay 3 "$1"
	xdotool key Return
	poll_for "a reply in $2" more "^trace: replying $2\$" "$n"
	echo $(($(now_ms) - t0))
}

# replies_done: every reply that started has ended.
replies_done() { [ "$(lines '^trace: replying ')" = "$(lines '^trace: reply done ')" ]; }

# tree_pids PID: PID and all its descendants.
tree_pids() {
	local p
	echo "$1"
	for p in $(pgrep -P "$1" || true); do tree_pids "$p"; done
}
# rss_mib: the app's RSS and its descendants', MiB.
rss_mib() {
	local kb=0 p v
	for p in $(tree_pids "$APP"); do
		v="$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || true)"
		kb=$((kb + ${v:-0}))
	done
	echo $((kb / 1024))
}
# pss_mib: as rss_mib, counting each shared page once across the tree
# (smaps_rollup's Pss): every plugin runs under a reaper that is this
# binary again, whose pages RSS counts once per process.
pss_mib() {
	local kb=0 p v
	for p in $(tree_pids "$APP"); do
		v="$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || true)"
		kb=$((kb + ${v:-0}))
	done
	echo $((kb / 1024))
}
# app_mib: the app process's own RSS, MiB (its plugins' is rss_mib less it).
app_mib() { echo $(($(awk '/^VmRSS:/ {print $2}' "/proc/$APP/status" 2>/dev/null || echo 0) / 1024)); }
# children: the app's child processes (its chats' plugins), sorted.
children() { pgrep -P "$APP" | sort -n | tr '\n' ' '; }
# steady: the app's process tree has not changed for 1 s (plugins started).
steady() {
	local a b
	a="$(tree_pids "$APP" | sort | tr '\n' ' ')"
	sleep 1
	b="$(tree_pids "$APP" | sort | tr '\n' ' ')"
	[ "$a" = "$b" ]
}

echo "xvfb-e2e-parallel: ${#PLUGINS[@]} plugins, echo model at a word every $DELAY ms, $SWITCHES switches"

# 1. A and B, each opened once.
launch 1 --session "$A"
poll_for "chat A ready" ready "$A"
open_by betachat "$B"
poll_for "chat B ready" ready "$B"
open_by alphachat "$A"
poll_for "the plugins started" steady
BEFORE="$(children)"
[ -n "$BEFORE" ] || fail "the app has no plugin processes"

# 2. Live switches, a message sent at once after each.
SHOWN=()
SENDS=()
for i in $(seq "$SWITCHES"); do
	if [ $((i % 2)) = 1 ]; then id="$B" word=betachat; else id="$A" word=alphachat; fi
	poll_for "the reply before switch $i to end" replies_done
	waits="$(lines 'waits for the chat')"
	open_by "$word" "$id"
	SHOWN+=("$(grep "^trace: chat shown $id " "$OUT" | tail -n 1 | sed -E 's/.*\(([0-9]+) ms\)$/\1/')")
	SENDS+=("$(send "ping $i" "$id")")
	[ "$(lines 'waits for the chat')" = "$waits" ] || fail "switch $i: the message waited for the chat's plugins"
	more "^trace: chat opened $id\$" 1 && fail "switch $i: chat $id was opened again (its plugins restarted)"
done
poll_for "the last reply" replies_done
AFTER="$(children)"
[ "$BEFORE" = "$AFTER" ] || fail "plugin processes changed across the switches: before [$BEFORE] after [$AFTER]"
shot switches

# 3. Two replies at once: A's long (a word every DELAY ms), B's sent while
# it streams.
LONG_A="alpha$(printf ' w%.0s' $(seq 100))"
done_a="$(lines "^trace: reply done $A\$")"
send "$LONG_A" "$A" >/dev/null
open_by betachat "$B"
send "beta at once" "$B" >/dev/null
more "^trace: reply done $A\$" "$done_a" && fail "A's reply ended before B's began: they did not stream at the same time (raise DELAY)"
shot both-streaming
poll_for "A's reply" more "^trace: reply done $A\$" "$done_a"
poll_for "B's reply" more "^trace: reply done $B\$" 0
# Each chat's last exchange is its own message (xdotool may drop a key of
# it) and the whole echo of it.
python3 - "$D" "$A" alpha "$B" beta <<'PY' || fail "a reply is not whole in its own chat"
import json, os, sys
data = sys.argv[1]
for sid, word in ((sys.argv[2], sys.argv[3]), (sys.argv[4], sys.argv[5])):
    with open(os.path.join(data, "sessions", sid + ".json")) as f:
        msgs = [m for m in json.load(f).get("messages", []) if m.get("role") in ("user", "assistant")]
    if len(msgs) < 2 or msgs[-2]["role"] != "user" or msgs[-1]["role"] != "assistant":
        print(f"chat {sid}: no last exchange", file=sys.stderr)
        sys.exit(1)
    q, a = msgs[-2].get("content", ""), msgs[-1].get("content", "")
    if not q.startswith(word) or a != "Echo: " + q:
        print(f"chat {sid}: asked {q[:40]!r}, replied {a[:60]!r} ({len(a)} chars)", file=sys.stderr)
        sys.exit(1)
PY
quit_app || fail "the app did not quit on SIGTERM"

# 4. RSS with 1, 4 and 8 live chats: a start with no chat to reopen (one
# live chat, a new one), then the saved ones opened one after the other.
rm -f "$D/desktop-state.json"
launch 2
poll_for "the first chat's plugins" steady
RSS1="$(rss_mib)" APP1="$(app_mib)" PSS1="$(pss_mib)"
for i in 1 2 3 4 5 6 7; do
	id="${RSS_CHATS[$((i - 1))]}"
	open_by "rsschat$i" "$id"
	poll_for "chat rsschat$i ready" ready "$id"
	if [ "$i" = 3 ]; then
		poll_for "4 chats' plugins" steady
		RSS4="$(rss_mib)" APP4="$(app_mib)" PSS4="$(pss_mib)"
	fi
done
poll_for "8 chats' plugins" steady
RSS8="$(rss_mib)" APP8="$(app_mib)" PSS8="$(pss_mib)"
PROCS8="$(tree_pids "$APP" | wc -l)"
quit_app || fail "the app did not quit on SIGTERM"

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "xvfb-e2e-parallel: switch to a live chat, click to frame (ms): ${SHOWN[*]} (median $(median "${SHOWN[@]}"))"
echo "xvfb-e2e-parallel: send after the switch's frame, key to reply started (ms): ${SENDS[*]} (median $(median "${SENDS[@]}"))"
echo "xvfb-e2e-parallel: plugin processes unchanged over $SWITCHES switches: $(echo "$BEFORE" | wc -w)"
echo "xvfb-e2e-parallel: two chats streamed at once, each reply whole in its own session file"
echo "xvfb-e2e-parallel: RSS of the app and its plugins: 1 live chat $RSS1 MiB, 4 live $RSS4 MiB, 8 live $RSS8 MiB ($PROCS8 processes)"
echo "xvfb-e2e-parallel: of which the app process itself: $APP1, $APP4, $APP8 MiB"
echo "xvfb-e2e-parallel: the whole tree with shared pages counted once (PSS): $PSS1, $PSS4, $PSS8 MiB"
