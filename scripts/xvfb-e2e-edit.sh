#!/usr/bin/env bash
# xvfb-e2e-edit.sh — the file tools' diffs and rewind in the real window
# under Xvfb, driven with xdotool as a user: three messages each make the
# echo model call edit_file on one file of a temporary workspace; each
# approval card shows the diff of what approving writes (the first one is
# screenshotted with it) and is approved with Enter once the diff is laid
# out. Then the command palette's "Rewind to here" on the first message,
# Enter in the rewind dialog (code and conversation): the file is as it was
# before the first edit, the saved conversation no longer holds the
# messages, and the first message waits in the composer.
# The app's hidden --trace flag says what the window does, so each step
# waits for it instead of sleeping. Between the edits and the rewind, a
# todo_write call shows the model's list as the checklist (screenshotted). Logs and screenshots go to $LOGDIR
# (default ./ci-logs), named e2e-edit-*. BIN: a built binary to use instead
# of building one.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
MODEL=plugin/echo-provider/echo/echo-1

# shot NAME [WINDOW]: a screenshot of the screen or of one window.
shot() {
	command -v import >/dev/null && [ -n "${DISPLAY:-}" ] &&
		import -window "${2:-root}" "$LOGDIR/e2e-edit-$1.png" 2>/dev/null || true
}
fail() {
	echo "xvfb-e2e-edit: FAIL: $*" >&2
	shot fail
	[ -f "$LOGDIR/e2e-edit.stderr" ] && tail -n 30 "$LOGDIR/e2e-edit.stderr" >&2
	exit 1
}
for c in Xvfb xdotool; do command -v "$c" >/dev/null || fail "$c is missing (apt-get install xvfb xdotool)"; done

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
"$BIN" plugin install --yes --data-dir "$D" examples/echo-provider >"$LOGDIR/e2e-edit-install.log" 2>&1 ||
	fail "installing echo-provider"
printf '{"defaultModel":"%s"}\n' "$MODEL" >"$D/settings.json"
printf 'alpha\nbeta\ngamma\n' >"$WS/notes.txt"
cp "$WS/notes.txt" "$D/notes.before"

start_xvfb "$D" "$LOGDIR/e2e-edit-xvfb.log" || fail "Xvfb did not start (see $LOGDIR/e2e-edit-xvfb.log)"

OUT="$LOGDIR/e2e-edit.stdout" # the app's --trace lines (count, traced)
(cd "$WS" && exec "$BIN" gui --data-dir "$D" --trace) >"$OUT" 2>"$LOGDIR/e2e-edit.stderr" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"
wait_for "the echo model" traced 1 'models 2'
xdotool windowfocus --sync "$WIN" 2>/dev/null || true

# Three edits, each approved with Enter once its card shows the diff.
n=0
for w in alpha beta gamma; do
	n=$((n + 1))
	up="$(printf '%s' "$w" | tr '[:lower:]' '[:upper:]')"
	xdotool type --delay 5 "call edit_file {\"path\":\"notes.txt\",\"old_string\":\"$w\",\"new_string\":\"$up\"}"
	xdotool key Return
	wait_for "the diff of edit $n" traced "$n" 'approval diff edit_file 1'
	[ "$n" -eq 1 ] && shot approval-diff "$WIN"
	grep -q "$up" "$WS/notes.txt" && fail "edit $n was written before it was approved"
	xdotool key Return
	wait_for "the turn of edit $n" traced "$n" 'turn done'
	wait_for "edit $n written" grep -qx "$up" "$WS/notes.txt"
done
printf 'ALPHA\nBETA\nGAMMA\n' | cmp -s - "$WS/notes.txt" || fail "after three edits notes.txt holds: $(cat "$WS/notes.txt")"
shot edited "$WIN"

# The model's todo list (todo_write, read-only: no approval) shows as the
# checklist under the conversation.
xdotool type --delay 5 'call todo_write {"todos":[{"content":"Edit notes","status":"completed"},{"content":"Rewind the edits","status":"in_progress","activeForm":"Rewinding the edits"},{"content":"Check the file","status":"pending"}]}'
xdotool key Return
wait_for "the todo list" traced 1 'todos 3'
wait_for "the todo turn" traced 4 'turn done'
shot todos "$WIN"

# Rewind to the first message from the command palette: its entry is
# found by the first edit's word; Enter opens the dialog, and Enter there
# (once the plan is shown) rewinds code and conversation.
xdotool key ctrl+k
wait_for "the palette" traced 1 'palette'
xdotool type --delay 5 'rewind alpha'
xdotool key Return
wait_for "the rewind dialog" traced 1 'rewind dialog 0'
wait_for "the rewind plan" traced 1 'rewind plan 1'
shot rewind-dialog "$WIN"
xdotool key Return
wait_for "the rewind" traced 1 'rewound 0 1'
shot rewound "$WIN"
cmp -s "$D/notes.before" "$WS/notes.txt" || fail "after the rewind notes.txt holds: $(cat "$WS/notes.txt")"
session_has() { grep -qF -- "$1" "$D"/sessions/*.json 2>/dev/null; }
wait_for "the rewound conversation saved" sh -c "! grep -qF 'old_string' '$D'/sessions/*.json"
session_has 'GAMMA' && fail "the saved session still holds the third edit"

quit_app || fail "the app did not quit on SIGTERM"
echo "xvfb-e2e-edit: ok (three edits approved on their diffs, rewound to the first; screenshots in $LOGDIR/e2e-edit-*.png)"
