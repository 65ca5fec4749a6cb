#!/usr/bin/env bash
# xvfb-e2e.sh — drive the real window under Xvfb with xdotool, as a user:
# type a message that makes the echo model call a tool, press Enter, wait
# for the approval card and approve it with Enter, run hello-surfaces' "ask"
# action from the composer and answer its prompt with Enter, then send a
# two-line message typed with Shift+Enter. Then the app around the chat: a
# write that a seeded "always" rule allows runs without asking; the rule is
# revoked in Settings (Ctrl+, → Space on its Revoke → Esc) and the next
# write asks again; a new chat, then the sessions sidebar (Ctrl+B twice:
# hide, show and search) reopens the first session by searching its text.
# A second chat streams a long reply; the first is opened while it streams
# (at once: each chat has its own plugins), and the reply is saved in its
# own chat. The echo providers are killed; the next message restarts the
# chat's provider and is answered, the chat saying so; a stopped reply and
# a denied write come back when the chat is opened again.
# Quit and check the saved session on disk (the messages, the tool call and
# its result, the model's answers). Then a broken settings.json: the app
# opens with the error shown, chats on the defaults, and resets the file
# from Settings keeping a backup. Last, scripts/xvfb-e2e-input.sh: PgUp and
# Home in a 5,000-message chat, an API key set in Settings reaching the
# provider plugin, a 100,000-character paste then typing, a reply copied
# with the mouse, an image attached.
# The app's hidden --trace flag prints what the window does, so each step
# waits for the window instead of guessing with sleeps. Logs and the saved
# session go to $LOGDIR (default ./ci-logs).
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
MODEL=plugin/echo-provider/echo/echo-1

fail() {
	echo "xvfb-e2e: FAIL: $*" >&2
	[ -f "$LOGDIR/e2e.stderr" ] && tail -n 30 "$LOGDIR/e2e.stderr" >&2
	exit 1
}
for c in Xvfb xdotool; do command -v "$c" >/dev/null || fail "$c is missing (apt-get install xvfb xdotool)"; done

BIN="" # always a fresh build
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
for x in echo-provider hello-surfaces; do
	bin/reasonix-desktop plugin install --yes --data-dir "$D" "examples/$x" >"$LOGDIR/e2e-install-$x.log" 2>&1 ||
		fail "installing $x"
done
printf '{"defaultModel":"%s","rules":[{"tool":"write_file","workspace":"%s"}]}\n' "$MODEL" "$WS" >"$D/settings.json"

# Xvfb picks a free display itself (-displayfd) and says which.
start_xvfb "$D" "$LOGDIR/e2e-xvfb.log" || fail "Xvfb did not start (see $LOGDIR/e2e-xvfb.log)"

OUT="$LOGDIR/e2e.stdout" # the app's --trace lines (count, traced)
# The echo model streams a word every 30 ms: a long reply streams for
# seconds (the switching step), short ones stay quick.
(cd "$WS" && ECHO_PROVIDER_DELAY_MS="${ECHO_PROVIDER_DELAY_MS:-30}" exec "$OLDPWD/bin/reasonix-desktop" gui --data-dir "$D" --trace) >"$OUT" 2>"$LOGDIR/e2e.stderr" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"

session_has() { grep -qF -- "$1" "$D"/sessions/*.json 2>/dev/null; }

# The plugins start and the model list arrives (echo-1 and echo-vision); the composer has the focus
# and Enter sends.
wait_for "the echo model" traced 1 'models 2'
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
xdotool type --delay 5 'call run_command {"command":"echo e2e-ok"}'
xdotool key Return
# The approval card: Enter approves once (the composer is empty).
wait_for "the approval" traced 1 'approval run_command'
xdotool key Return
wait_for "the turn" traced 1 'turn done'
wait_for "the saved turn" session_has 'Tool result: e2e-ok'

# A plugin prompt: run hello-surfaces' ask action, answer Yes with Enter.
xdotool type --delay 5 '/hello-surfaces:ask'
xdotool key Return
wait_for "the prompt" traced 1 'prompt hello-surfaces'
xdotool key Return
wait_for "the answer" traced 1 'action /hello-surfaces:ask: answered yes'

# Shift+Enter adds a line, Enter sends both lines as one message.
xdotool type --delay 5 'line one'
xdotool key shift+Return
xdotool type --delay 5 'line two'
xdotool key Return
wait_for "the second turn" traced 2 'turn done'
wait_for "the two-line message saved" session_has 'line one\nline two'

# An "always" rule (seeded above for this workspace) lets a write run
# without asking.
xdotool type --delay 5 'call write_file {"path":"a.txt","content":"by-rule"}'
xdotool key Return
wait_for "the ruled write" traced 3 'turn done'
[ -f "$WS/a.txt" ] || fail "the write the rule allows did not run"
! traced 1 'approval write_file' || fail "a write the rule allows asked for approval"

# Revoke it in Settings: the first Revoke has the focus, Space presses it.
xdotool key ctrl+comma
SET="$(window '^Settings$')" || fail "Settings never opened"
wait_for "the permissions" traced 1 'permissions 1'
xdotool windowfocus --sync "$SET" 2>/dev/null || true
xdotool key space
wait_for "the revoke" traced 1 'permissions 0'
grep -q '"rules"' "$D/settings.json" && fail "settings.json still holds the rule: $(cat "$D/settings.json")"
xdotool key Escape
xdotool windowfocus --sync "$WIN" 2>/dev/null || true

# The next write asks again; Enter approves it once.
xdotool type --delay 5 'call write_file {"path":"b.txt","content":"asked"}'
xdotool key Return
wait_for "the approval of the write" traced 1 'approval write_file'
xdotool key Return
wait_for "the approved write" traced 4 'turn done'
[ -f "$WS/b.txt" ] || fail "the approved write did not run"

# A new chat, then back to the first one from the sidebar: Ctrl+B hides it,
# Ctrl+B shows it with the search focused; Enter opens the first match.
FIRST="$(basename "$(grep -lF 'e2e-ok' "$D"/sessions/*.json | head -n 1)" .json)"
xdotool key ctrl+n
wait_for "the new chat" sh -c "grep '^trace: session [0-9a-f]\{8\}-' '$LOGDIR/e2e.stdout' | tail -n 1 | grep -qv '$FIRST'"
xdotool key ctrl+b
xdotool key ctrl+b
xdotool type --delay 5 'e2e-ok'
wait_for "the search's list" traced 1 'sessions listed for e2e-ok'
xdotool key Return
wait_for "the first session reopened" sh -c "grep '^trace: session [0-9a-f]\{8\}-' '$LOGDIR/e2e.stdout' | tail -n 1 | grep -q '$FIRST'"

# Switching while a reply streams: a second chat gets a long message (the
# echo model streams it a word every $ECHO_PROVIDER_DELAY_MS ms); while it
# streams, the sidebar's search opens the first chat at once (the core
# cannot switch before the turn ends: the load waits for it, traced "chat
# waiting"), then the second chat again. The reply goes on and is saved in
# its own chat only.
xdotool key ctrl+n
wait_for "the second chat" sh -c "grep '^trace: session [0-9a-f]\{8\}-' '$LOGDIR/e2e.stdout' | tail -n 1 | grep -qv '$FIRST'"
SECOND="$(grep '^trace: session [0-9a-f]\{8\}-' "$LOGDIR/e2e.stdout" | tail -n 1 | cut -d' ' -f3)"
LONG="long-reply $(printf 'slowly %.0s' $(seq 150))landed-here"
xdotool type --delay 2 "$LONG"
xdotool key Return
wait_for "the long reply to start" traced 1 "replying $SECOND"
DONE="$(count 'turn done')"
xdotool key ctrl+b
xdotool key ctrl+b
xdotool key ctrl+a
xdotool type --delay 5 'e2e-ok'
xdotool key Return
wait_for "the first chat on screen" sh -c "grep -q '^trace: viewing $FIRST ' '$LOGDIR/e2e.stdout'"
wait_for "the long reply to end" traced "$((DONE + 1))" 'turn done'
VIEWED_AT="$(grep -n "^trace: viewing $FIRST " "$LOGDIR/e2e.stdout" | tail -n 1 | cut -d: -f1)"
ENDED_AT="$(grep -nxF 'trace: turn done' "$LOGDIR/e2e.stdout" | sed -n "$((DONE + 1))p" | cut -d: -f1)"
[ "$VIEWED_AT" -lt "$ENDED_AT" ] ||
	fail "the reply ended before the first chat was shown: nothing was tested (raise ECHO_PROVIDER_DELAY_MS)"
wait_for "the first chat loaded once the reply ended" sh -c "grep '^trace: session [0-9a-f]\{8\}-' '$LOGDIR/e2e.stdout' | tail -n 1 | grep -q '$FIRST'"
wait_for "the long reply saved" grep -qF 'Echo: long-reply slowly' "$D/sessions/$SECOND.json"
grep -qF 'landed-here' "$D/sessions/$FIRST.json" && fail "the long reply landed in the first chat"
xdotool key ctrl+b
xdotool key ctrl+b
xdotool key ctrl+a
xdotool type --delay 5 'landed-here'
wait_for "the search for the second chat" traced 1 'sessions listed for landed-here'
xdotool key Return
wait_for "the second chat on screen" sh -c "grep -q '^trace: viewing $SECOND ' '$LOGDIR/e2e.stdout'"
wait_for "the second chat loaded" sh -c "grep '^trace: session [0-9a-f]\{8\}-' '$LOGDIR/e2e.stdout' | tail -n 1 | grep -q '$SECOND'"
grep -E '^trace: (viewing|chat ready) ' "$LOGDIR/e2e.stdout" | sed 's/^trace: /xvfb-e2e: switch: /'

# A crashed provider comes back: every echo-provider of the app is killed
# (each live chat has its own), and the next message in the second chat
# restarts that chat's provider (the seed's idle-time restart, for that
# plugin and chat only) and is answered; the chat says the plugin was
# restarted, and the message is saved once, with its reply.
# reopen_second: open the first chat, then the second again, from the
# sidebar's search (both are live: nothing restarts).
reopen_second() {
	local q id n
	for q in e2e-ok landed-here; do
		xdotool key ctrl+b
		xdotool key ctrl+b
		xdotool key ctrl+a
		n="$(count "sessions listed for $q")"
		xdotool type --delay 5 "$q"
		wait_for "the search for $q" traced "$((n + 1))" "sessions listed for $q"
		xdotool key Return
		[ "$q" = e2e-ok ] && id="$FIRST" || id="$SECOND"
		wait_for "the chat of $q loaded" sh -c "grep '^trace: session [0-9a-f]\{8\}-' '$LOGDIR/e2e.stdout' | tail -n 1 | grep -q '$id'"
	done
}
pid_of() {
	for p in /proc/[0-9]*; do
		{ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF -- "$1" && basename "$p"
	done
	return 0
}
EPS="$(pid_of "$D/plugins/echo-provider/bin/echo-provider")"
[ -n "$EPS" ] || fail "no echo-provider process to kill"
# shellcheck disable=SC2086 # one pid a word
kill -9 $EPS
DONE="$(count 'turn done')"
xdotool type --delay 5 'keep-this-message'
xdotool key Return
wait_for "the turn after the crash" traced "$((DONE + 1))" 'turn done'
wait_for "the reply after the crash saved" grep -qF 'Echo: keep-this-message' "$D/sessions/$SECOND.json"
grep -qF 'echo-provider had stopped; it was restarted for this chat' "$D/sessions/$SECOND.json" ||
	fail "the chat does not say its provider was restarted"
[ "$(grep -oF '"content": "keep-this-message"' "$D/sessions/$SECOND.json" | wc -l)" = 1 ] ||
	fail "the message is not in the chat exactly once: $(grep -c keep-this-message "$D/sessions/$SECOND.json")"
reopen_second

# History is faithful: a reply stopped with Esc and a write denied with Esc
# are saved as the chat's notes, for when it is read again.
FAILED="$(count 'turn failed')"
REPLYING="$(count "replying $SECOND")"
xdotool type --delay 2 "stop-me $(printf 'slowly %.0s' $(seq 150))never-here"
xdotool key Return
wait_for "the reply that will be stopped" traced "$((REPLYING + 1))" "replying $SECOND"
xdotool key Escape
wait_for "the stopped turn" traced "$((FAILED + 1))" 'turn failed'
ASKED="$(count 'approval write_file')"
DONE="$(count 'turn done')"
xdotool type --delay 5 'call write_file {"path":"denied.txt","content":"no"}'
xdotool key Return
wait_for "the write's approval" traced "$((ASKED + 1))" 'approval write_file'
xdotool key Escape
wait_for "the denied turn" traced "$((DONE + 1))" 'turn done'
[ -f "$WS/denied.txt" ] && fail "a denied write ran"
reopen_second
# The chat is live (its transcript kept): what comes back when it is read
# again is its file's notes.
for kind in notice stopped denied; do
	grep -q "\"kind\": \"$kind\"" "$D/sessions/$SECOND.json" || fail "the saved chat lacks its $kind note"
done

kill -TERM "$APP"
wait "$APP" || true
APP=""
F="$D/sessions/$FIRST.json" # the first chat (the new chat after it is empty: never saved)
cp "$F" "$LOGDIR/e2e-session.json"
for want in '"content": "call run_command' '"name": "run_command"' 'e2e-ok' 'Tool result: e2e-ok'; do
	grep -qF -- "$want" "$F" || fail "the saved session lacks $want"
done
# --- A broken settings.json (self-contained step) ---
# Garbage in settings.json: the app still opens, the banner over the chat
# names the file and the place, the echo model chats on the defaults (the
# broken file is not overwritten), and Settings' Reset (focused: Space)
# keeps the broken file as settings.json.broken-<time> and writes the
# defaults.
broken_settings_step() {
	# OUT, local, is this run's output for traced (and wait_for's) in here.
	local OUT="$LOGDIR/e2e-settings.stdout" err="$LOGDIR/e2e-settings.stderr" garbage='garbage {not json'
	printf '%s\n' "$garbage" >"$D/settings.json"
	(cd "$WS" && exec "$OLDPWD/bin/reasonix-desktop" gui --data-dir "$D" --trace --send 'sent despite broken settings' \
		--screenshot "$LOGDIR/e2e-settings-banner.png" --screenshot-after 4s) >"$OUT" 2>"$err" &
	APP=$!
	local win
	win="$(window 'Reasonix Desktop')" || fail "the window never appeared with a broken settings.json"
	wait_for "the settings banner" traced 1 'settings broken line 1, column 1'
	grep -qF "error: settings $D/settings.json: line 1, column 1: invalid JSON" "$err" ||
		fail "the broken settings.json is not reported on stderr: $(cat "$err")"
	wait_for "the echo model (broken settings)" traced 1 'models 2'
	wait_for "the --send turn (broken settings)" traced 1 'turn done'
	timeout 10 xdotool windowfocus --sync "$win" 2>/dev/null || true
	xdotool type --delay 5 'typed despite broken settings'
	xdotool key Return
	wait_for "the typed turn (broken settings)" traced 2 'turn done'
	wait_for "the typed turn saved" session_has 'Echo: typed despite broken settings'
	[ "$(cat "$D/settings.json")" = "$garbage" ] || fail "the broken settings.json was overwritten: $(cat "$D/settings.json")"
	xdotool key ctrl+comma
	local set
	set="$(window '^Settings$')" || fail "Settings never opened (broken settings)"
	# Shown, its permissions read (Reset keeps the focus) and the file
	# checked again: then Space presses Reset.
	wait_for "Settings showing the broken file" traced 2 'settings file broken'
	wait_for "Settings' permissions (broken settings)" traced 1 'permissions 0'
	timeout 10 xdotool windowfocus --sync "$set" 2>/dev/null || true
	xdotool key space
	wait_for "the reset" sh -c "grep -q '^trace: settings reset settings.json.broken-' '$OUT'"
	local backup
	backup="$(ls "$D"/settings.json.broken-* 2>/dev/null | head -n 1)"
	[ -n "$backup" ] || fail "no backup of the broken settings.json"
	[ "$(cat "$backup")" = "$garbage" ] || fail "the backup holds $(cat "$backup")"
	bin/reasonix-desktop settings check --data-dir "$D" >/dev/null || fail "settings.json after the reset: $(cat "$D/settings.json")"
	xdotool key Escape
	quit_app || fail "the app did not quit within 30 s of SIGTERM (broken settings)"
	echo "xvfb-e2e: broken settings.json: banner, chat and reset ok (backup $(basename "$backup"))"
}
broken_settings_step

# The input checks (a 5,000-message chat's PgUp/Home, an API key set in
# Settings, a 100,000-character paste, a mouse copy, an attachment): their
# own app, server and display.
LOGDIR="$LOGDIR" BIN=bin/reasonix-desktop bash scripts/xvfb-e2e-input.sh

echo "xvfb-e2e: ok (session $F checked)"
