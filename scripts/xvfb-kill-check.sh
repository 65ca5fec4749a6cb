#!/usr/bin/env bash
# xvfb-kill-check.sh — the kill test through the real window (issue 39:
# "nothing lost even when the app is killed"). Under Xvfb, with the example
# plugins and the echo model streaming a word every $DELAY ms, a user types
# and sends messages with xdotool; the app is SIGKILLed $KILLS times
# (default 20) at random moments: just after Enter, before the first
# streamed byte, mid-reply, just after the reply ended, and a while after a
# draft was typed and not sent. Each kill is followed by a relaunch on the
# same data dir, and then the files are read (python3, from
# docs/session-file.md): every message the window started replying to is in
# its chat, a reply cut short is a failed note marked interrupted whose text
# is a prefix of the echo's reply and not much behind the stream, every file
# under sessions/ parses, no turn checkpoint outlives the relaunch, and a
# chat begun by the killed launch is there. 0 plugin processes of the killed
# app may live 2 s after the kill; a draft typed and not sent is in
# drafts.json and back in the composer after the relaunch (skipped, with a
# message, when this build keeps no drafts), and a message sent before the
# kill is not back in the composer as a draft.
# The app's hidden --trace flag says what the window does, so each step
# waits for it. Logs go to $LOGDIR (default ./ci-logs), named kill-*.
# KILLS, DELAY (ms), SEED change the run; NO_DRAFTS=1 leaves the draft
# kills out; BIN: a built binary to use.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
MODEL=plugin/echo-provider/echo/echo-1
KILLS="${KILLS:-20}"
DELAY="${DELAY:-30}"
SEED="${SEED:-$$}"
RANDOM="$SEED"

shot() {
	command -v import >/dev/null && [ -n "${DISPLAY:-}" ] &&
		import -window root "$LOGDIR/kill-$1.png" 2>/dev/null || true
}
fail() {
	echo "xvfb-kill-check: FAIL: $*" >&2
	shot fail
	# The data dir as the failure left it (the sessions, drafts.json).
	[ -n "${D:-}" ] && rm -rf "$LOGDIR/kill-data" && cp -r "$D" "$LOGDIR/kill-data" 2>/dev/null
	[ -n "${ERR:-}" ] && [ -f "$ERR" ] && tail -n 30 "$ERR" >&2
	exit 1
}
for c in Xvfb xdotool python3; do command -v "$c" >/dev/null || fail "$c is missing (apt-get install xvfb xdotool python3)"; done

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
for x in echo-provider hello-surfaces policy-guard; do
	"$BIN" plugin install --yes --data-dir "$D" "examples/$x" >"$LOGDIR/kill-install-$x.log" 2>&1 ||
		fail "installing $x"
done
printf '{"defaultModel":"%s"}\n' "$MODEL" >"$D/settings.json"
start_xvfb "$D" "$LOGDIR/kill-xvfb.log" || fail "Xvfb did not start (see $LOGDIR/kill-xvfb.log)"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
rand() { echo $((RANDOM % $1)); } # 0 ≤ n < $1
sleep_ms() { sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"; }

# poll_for WHAT CMD...: as wait_for, every 20 ms (the kill moments are
# measured from what it sees).
poll_for() {
	local what="$1"
	shift
	for _ in $(seq 1500); do "$@" && return 0; sleep 0.02; done
	fail "timed out waiting for $what"
}

# launch N [ID]: start the app (run N's output in kill-N.stdout) on the
# chat ID (as a click in the sidebar would; none: the app's own choice), wait
# for the window, the model list and, with ID, the chat ready. CHAT is ID.
launch() {
	local args=(gui --data-dir "$D" --trace)
	[ -n "${2:-}" ] && args+=(--session "$2")
	OUT="$LOGDIR/kill-$1.stdout"
	ERR="$LOGDIR/kill-$1.stderr"
	(cd "$WS" && ECHO_PROVIDER_DELAY_MS="$DELAY" exec "$BIN" "${args[@]}") >"$OUT" 2>"$ERR" &
	APP=$!
	WIN="$(window 'Reasonix Desktop')" || fail "launch $1: the window never appeared"
	wait_for "launch $1: the echo model" traced 1 'models 2'
	CHAT="${2:-}"
	if [ -n "$CHAT" ]; then
		wait_for "launch $1: chat $CHAT ready" ready_or_refused "$CHAT"
		if ! grep -q "^trace: chat ready $CHAT " "$OUT"; then
			# It could not open the chat (no file): a chat that replied
			# was lost. Counted, and the run goes on in another chat.
			LOST_CHATS=$((LOST_CHATS + 1))
			echo "xvfb-kill-check: launch $1: the chat that replied before the kill cannot be opened: $(grep -F "$CHAT" "$ERR" | tail -n 1)" >&2
			quit_app || true
			launch "$1-again"
			return
		fi
	else
		wait_for "launch $1: the sidebar" grep -q '^trace: sessions listed for ' "$OUT"
	fi
	xdotool windowfocus --sync "$WIN" 2>/dev/null || true
}

# count_prefix P: how many trace lines start with P; more_prefix P N: more
# than N do; last_replying: the chat of the last reply started.
count_prefix() { grep -c "^trace: $1" "$OUT" || true; }
more_prefix() { [ "$(count_prefix "$1")" -gt "$2" ]; }
# new_chat_shown N V: a chat became the one on screen (a session trace) or
# a new chat was shown (the pool's trace) since there were N and V.
new_chat_shown() { more_prefix 'session [0-9a-f]' "$1" || more_prefix 'viewing new-chat' "$2"; }
last_replying() { grep '^trace: replying ' "$OUT" | tail -n 1 | cut -d' ' -f3; }

# ready_or_refused ID: chat ID is ready, or the app said it cannot open it.
ready_or_refused() { grep -q "^trace: chat ready $1 " "$OUT" || grep -qF "session $1: no such session" "$ERR"; }

# wait_for_quiet CMD...: wait_for without the fail: 1 when CMD never held.
wait_for_quiet() {
	for _ in $(seq "${WAIT_TRIES:-300}"); do "$@" && return 0; sleep 0.1; done
	return 1
}

# plugin_token: the watchdog mark in the environment of the app's plugin
# processes (its children that name a plugin), "" when none carries one.
plugin_token() {
	local c
	for c in $(cat /proc/"$APP"/task/*/children 2>/dev/null); do
		{ tr '\0' '\n' <"/proc/$c/environ"; } 2>/dev/null | grep -q '^REASONIX_PLUGIN_NAME=' || continue
		{ tr '\0' '\n' <"/proc/$c/environ"; } 2>/dev/null | sed -n 's/^REASONIX_WATCHDOG_TOKEN=//p' | head -n 1
		return 0
	done
}

# marked TOKEN: the live processes carrying the mark (zombies left out).
marked() {
	local p
	for p in /proc/[0-9]*; do
		{ tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qxF "REASONIX_WATCHDOG_TOKEN=$1" || continue
		grep -q '^State:.*Z' "$p/status" 2>/dev/null && continue
		basename "$p"
	done
}

# kill_app N: SIGKILL the app, then fail unless every process of its
# plugins (its watchdog's mark) is gone within 2 s.
SURVIVORS=0
kill_app() {
	local token left t0
	token="$(plugin_token)"
	[ -n "$token" ] || echo "xvfb-kill-check: kill $1: no plugin process carries a watchdog mark" >&2
	t0="$(now_ms)"
	kill -KILL "$APP"
	wait "$APP" 2>/dev/null || true
	APP=""
	[ -n "$token" ] || return 0
	while :; do
		left="$(marked "$token")"
		[ -z "$left" ] && return 0
		[ $(($(now_ms) - t0)) -ge 2000 ] && break
		sleep 0.05
	done
	SURVIVORS=$((SURVIVORS + $(echo "$left" | wc -w)))
	for p in $left; do echo "xvfb-kill-check: kill $1: alive 2 s after: $p $({ tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null)" >&2; done
	# shellcheck disable=SC2086
	kill -KILL $left 2>/dev/null || true
}

# words N TAG: N distinct words.
words() {
	local i s=""
	for i in $(seq "$2"); do s="$s ${1}w$i"; done
	echo "${s# }"
}

REC="$D/sent.tsv" # kill, chat, phase, state, ms streamed before the kill, message
: >"$REC"
DRAFTS=0
LOST_CHATS=0
DRAFT_LOST=0
STALE_DRAFTS=0
DRAFT_SKIP=""
declare -A PHASES=()
launch 0
for k in $(seq "$KILLS"); do
	# An empty composer (a draft the relaunch restored is typed over
	# otherwise).
	xdotool key ctrl+a BackSpace
	# A new chat one time in three (and at the first kill), unless the chat
	# on screen is not known (the relaunch after a kill in a chat that
	# never replied: the app chose it, and may still be opening it). A
	# chat's id is known once it replies ('replying <id>').
	NEW=""
	if [ "$k" = 1 ] || { [ -n "$CHAT" ] && [ "$(rand 3)" = 0 ]; }; then
		n="$(count_prefix 'session [0-9a-f]')"
		v="$(count_prefix 'viewing new-chat')"
		xdotool key ctrl+n
		poll_for "kill $k: the new chat" new_chat_shown "$n" "$v"
		CHAT=""
		NEW=1
	fi
	# Sometimes a whole short turn first.
	if [ "$(rand 2)" = 0 ]; then
		MSG="$(words "k${k}a" 3)"
		n="$(count 'turn done')"
		r="$(count_prefix 'replying ')"
		xdotool type --delay 2 "$MSG"
		xdotool key Return
		wait_for "kill $k: the first turn" traced "$((n + 1))" 'turn done'
		more_prefix 'replying ' "$r" || fail "kill $k: the first turn did not trace its chat"
		CHAT="$(last_replying)"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$CHAT" whole done 0 "$MSG" >>"$REC"
	fi
	case "$(rand 10)" in
	0) PHASE=enter ;;
	1 | 2) PHASE=first-byte ;;
	3 | 4 | 5 | 6) PHASE=mid ;;
	7 | 8) PHASE=end ;;
	*) PHASE=draft ;;
	esac
	if [ "$PHASE" = draft ] && [ -n "${NO_DRAFTS:-}" ]; then PHASE=mid; fi
	PHASES[$PHASE]=$((${PHASES[$PHASE]:-0} + 1))
	N_WORDS=$((6 + $(rand 10)))
	[ "$(rand 4)" = 0 ] && N_WORDS=60 # past the checkpoint's second
	MSG="$(words "k${k}m" "$N_WORDS")"
	REPLYING="$(count_prefix 'replying ')"
	DONE="$(count 'turn done')"
	STATE=cut
	STREAMED=0 # ms from the reply's start (its trace) to the kill; 0: not known
	STARTED=""
	if [ "$PHASE" = draft ]; then
		# Typed, not sent: the draft is written within a second of the
		# last key; the kill comes 1.2–1.8 s after it.
		DRAFT="draft-k$k $(words "k${k}d" 4)"
		xdotool type --delay 2 "$DRAFT"
		poll_for "kill $k: the draft in the composer" traced 1 "composer $DRAFT"
		sleep_ms $((1200 + $(rand 600)))
		STATE=draft
		MSG="$DRAFT"
	else
		xdotool type --delay 2 "$MSG"
		xdotool key Return
		case "$PHASE" in
		enter) sleep_ms "$(rand 100)" ;;
		first-byte)
			poll_for "kill $k: the reply" more_prefix 'replying ' "$REPLYING"
			STARTED="$(now_ms)"
			sleep_ms "$(rand "$DELAY")"
			;;
		mid)
			poll_for "kill $k: the reply" more_prefix 'replying ' "$REPLYING"
			STARTED="$(now_ms)"
			# A tenth to nine tenths into the reply; the longest in its
			# last third (past the checkpoint's second).
			if [ "$N_WORDS" = 60 ]; then
				sleep_ms $(((N_WORDS * DELAY * (7 + $(rand 3))) / 10))
			else
				sleep_ms $(((N_WORDS * DELAY * (1 + $(rand 9))) / 10))
			fi
			;;
		end)
			poll_for "kill $k: the end of the reply" traced "$((DONE + 1))" 'turn done'
			STATE=done
			sleep_ms "$(rand 50)"
			;;
		esac
		if [ "$PHASE" != end ]; then
			if more_prefix 'replying ' "$REPLYING"; then
				[ -z "$STARTED" ] || STREAMED=$(($(now_ms) - STARTED))
				traced "$((DONE + 1))" 'turn done' && STATE=done
			else
				STATE=unsent # Enter may not have reached the window: not sent
			fi
		fi
	fi
	kill_app "$k"
	if [ "$STATE" = draft ] && [ -f "$D/drafts.json" ] && ! grep -qF "\"$DRAFT\"" "$D/drafts.json"; then
		DRAFT_LOST=$((DRAFT_LOST + 1))
		echo "xvfb-kill-check: kill $k: the draft is not in drafts.json at the kill: $(tr -d '\n' <"$D/drafts.json" | cut -c1-200)" >&2
	fi
	if more_prefix 'replying ' "$REPLYING"; then CHAT="$(last_replying)"; fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$CHAT" "$PHASE${NEW:+ (new chat)}" "$STATE" "$STREAMED" "$MSG" >>"$REC"
	# The relaunch opens the chat of the kill (it must exist: it replied);
	# one that never replied is not a chat yet, the app opens what it
	# chooses (and a draft typed there goes to it).
	launch "$k" "$CHAT"
	if [ "$STATE" = draft ]; then
		if [ ! -f "$D/drafts.json" ]; then
			DRAFT_SKIP="this build writes no drafts.json (issue 39's drafts not landed): the draft check is skipped"
		else
			DRAFTS=$((DRAFTS + 1))
			# Back in the composer of the chat it was typed in (the one the
			# relaunch opens: it was on screen), within 5 s.
			if ! WAIT_TRIES=50 wait_for_quiet traced 1 "composer $DRAFT"; then
				DRAFT_LOST=$((DRAFT_LOST + 1))
				echo "xvfb-kill-check: kill $k: the draft typed in ${CHAT:-a new chat} is not back in the composer after the relaunch" >&2
				shot "draft-lost-$k"
			fi
		fi
	elif [ "$STATE" != unsent ] && grep -q "^trace: composer k${k}[am]" "$OUT"; then
		# A message sent before the kill must not come back as a draft
		# (the composer's text written before Enter, its clearing not).
		STALE_DRAFTS=$((STALE_DRAFTS + 1))
		echo "xvfb-kill-check: kill $k: the relaunch put a message sent before the kill back in the composer: $(grep "^trace: composer k${k}[am]" "$OUT" | tail -n 1 | cut -c1-80)" >&2
		shot "stale-draft-$k"
	fi
	echo "xvfb-kill-check: kill $k: $PHASE${NEW:+ (new chat)}, $STATE, ${STREAMED} ms streamed"
done
shot last
quit_app || fail "the app did not quit within 30 s of SIGTERM"

[ -n "$DRAFT_SKIP" ] && echo "xvfb-kill-check: SKIP: $DRAFT_SKIP" >&2
cp "$REC" "$LOGDIR/kill-sent.tsv"
# The files, read raw: docs/session-file.md.
python3 - "$D" "$REC" "$DELAY" "$SURVIVORS" <<'PY' || CHECK=failed
import json, os, sys

data, rec, delay, survivors = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sessions_dir = os.path.join(data, "sessions")
failures, unreadable, checkpoints, sessions = [], [], [], {}
for root, dirs, files in os.walk(sessions_dir):
    for name in files:
        path = os.path.join(root, name)
        rel = os.path.relpath(path, sessions_dir)
        if name.startswith(".tmp-") or name.startswith(".import-"):
            continue  # an atomic write's temp file: never read
        if name.endswith(".turn.json") or os.path.dirname(rel) == ".turns":
            checkpoints.append(rel)
        try:
            text = open(path, encoding="utf-8").read()
            if name.endswith(".jsonl"):
                for line in text.rstrip("\n").split("\n")[:-1]:  # a torn last line is dropped
                    json.loads(line)
            elif name.endswith(".json"):
                doc = json.loads(text)
                if os.path.dirname(rel) == "" and not name.endswith(".turn.json"):
                    if doc.get("version") != 1 or doc.get("id") + ".json" != name:
                        raise ValueError("not a version-1 session file of its id")
                    sessions[doc["id"]] = doc
        except Exception as e:  # noqa: BLE001 - any failure is the finding
            unreadable.append(f"{rel}: {e}")

def user_index(s, text):
    for i, m in enumerate(s.get("messages") or []):
        if m.get("role") == "user" and text in (m.get("content") or ""):
            return i
    return -1

def interrupted(n):
    return n.get("kind") == "failed" and (n.get("end") or {}).get("outcome") == "interrupted"

def turn_notes(s, u):
    msgs = s.get("messages") or []
    nxt = next((i for i in range(u + 1, len(msgs)) if msgs[i].get("role") == "user"), len(msgs))
    return [n for n in s.get("notes") or [] if u < n.get("after", 0) <= nxt]

def reply_after(s, u):
    out = ""
    for m in (s.get("messages") or [])[u + 1:]:
        if m.get("role") == "user":
            break
        if m.get("role") == "assistant":
            out += m.get("content") or ""
    return out

lost = unmarked = stale = bad = incomplete = sent = cut = 0
try:
    json.load(open(os.path.join(data, "drafts.json"), encoding="utf-8"))
except FileNotFoundError:
    pass
except Exception as e:  # noqa: BLE001
    unreadable.append(f"drafts.json: {e}")

for line in open(rec, encoding="utf-8"):
    k, chat, phase, state, streamed, msg = line.rstrip("\n").split("\t", 5)
    what = f"kill {k} ({phase}, {state}, {streamed} ms streamed), chat {chat[:8]}, message {msg[:40]!r}"
    if state == "draft":
        continue  # checked at its kill: drafts.json changes with the next typing
    if state == "unsent":
        continue  # the window never started replying: it was not sent
    sent += 1
    s = sessions.get(chat)
    if s is None:
        lost += 1
        failures.append(f"{what}: lost: its chat has no session file")
        continue
    u = user_index(s, msg)
    note = None
    for n in s.get("notes") or []:
        if interrupted(n) and msg in (n.get("input") or ""):
            note = n
    if note is None and u >= 0:
        note = next((n for n in turn_notes(s, u) if interrupted(n)), None)
    if u < 0 and note is None:
        lost += 1
        failures.append(f"{what}: lost: neither a user message nor an interrupted note's input")
        continue
    full = "Echo: " + msg
    if state == "done":
        if u < 0 or reply_after(s, u) != full:
            incomplete += 1
            failures.append(f"{what}: the reply ended before the kill but is not saved whole")
        continue
    cut += 1
    if u >= 0 and reply_after(s, u) == full:
        continue  # complete and saved just before the kill
    if note is None:
        unmarked += 1
        kinds = [n.get("kind") + "/" + (n.get("end") or {}).get("outcome", "") for n in turn_notes(s, u)] if u >= 0 else []
        failures.append(f"{what}: no failed note marked interrupted (the turn's notes: {kinds})")
        continue
    text = note.get("text") or ""
    if not full.startswith(text):
        bad += 1
        failures.append(f"{what}: the interrupted text {text[:40]!r} is not a prefix of the reply")
        continue
    # The chunks that had surely streamed 1.5 s before the kill (a chunk
    # every DELAY ms, counted at 1.5× for a busy machine): the note holds them.
    chunks = int((int(streamed) - 1500) / (delay * 1.5))
    if chunks > 0:
        want = " ".join(["Echo:"] + msg.split()[: chunks - 1])
        if not text.startswith(want):
            stale += 1
            failures.append(f"{what}: the interrupted text ({len(text)} characters) lacks what streamed 1.5 s before the kill ({len(want)})")

for u in unreadable:
    failures.append(f"unreadable: {u}")
for c in checkpoints:
    failures.append(f"a checkpoint outlived the relaunch: {c}")
print(f"xvfb-kill-check: {sent} messages sent, {cut} replies cut: {lost} lost, {unmarked} not marked interrupted, "
      f"{bad} partial texts not the reply's prefix, {stale} too old, {incomplete} ended replies not saved, "
      f"{len(unreadable)} unreadable files, {len(checkpoints)} checkpoints left, {survivors} plugin processes alive 2 s after a kill")
for f in failures:
    print("xvfb-kill-check: " + f, file=sys.stderr)
sys.exit(1 if failures or survivors else 0)
PY
SUMMARY=""
for p in "${!PHASES[@]}"; do SUMMARY="$SUMMARY $p=${PHASES[$p]}"; done
echo "xvfb-kill-check: drafts: $DRAFTS checked, $DRAFT_LOST not back after the relaunch; $STALE_DRAFTS sent messages back in the composer"
[ -z "${CHECK:-}" ] || fail "the files after the kills (above)"
[ "$LOST_CHATS" = 0 ] || fail "$LOST_CHATS chats that replied could not be opened after a kill (above)"
[ "$DRAFT_LOST" = 0 ] || fail "$DRAFT_LOST drafts lost to a kill (above)"
[ "$STALE_DRAFTS" = 0 ] || fail "$STALE_DRAFTS sent messages came back as drafts (above)"
echo "xvfb-kill-check: ok ($KILLS kills:$SUMMARY; $DRAFTS drafts checked; seed $SEED)"
