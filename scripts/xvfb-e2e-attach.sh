#!/usr/bin/env bash
# xvfb-e2e-attach.sh — the attachment check in the real window, as a
# user with xdotool (scripts/xvfb-e2e-input.sh runs it after its own steps; it
# also runs alone):
#  1. a fresh data dir and workspace; the toolbar's model menu picks Echo
#     vision; Attach opens Fyne's file dialog (in $HOME, a folder holding
#     only an 8×8 PNG), the picture is clicked, then Open: a chip; a
#     question and Enter: echo-vision answers "Images: 1 (image/png N
#     bytes)" and the saved user message keeps the picture as a data URL;
#  2. a new chat on plain Echo (the model menu again), the same picture and
#     a question: refused (the notice names the file and the model: see the
#     screenshot; its wording is the widget test's), nothing is sent or
#     saved, and the chip comes back; the model menu picks Echo vision and
#     Enter sends what the composer still held: the typed text and the
#     picture reach the model and are saved.
# Each step waits on a --trace line, a saved file or the screen (the file
# dialog draws inside the window and traces nothing: its picture and its
# Open button are waited for by their brightness), never on a sleep.
# Screenshots and logs go to $LOGDIR (default ./ci-logs), named
# e2e-attach-*. BIN=path skips the build.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
OUT="$LOGDIR/e2e-attach.stdout" ERR="$LOGDIR/e2e-attach.stderr"
rm -f "$LOGDIR"/e2e-attach-*.png "$LOGDIR"/e2e-attach-session-*.json
PLAIN=plugin/echo-provider/echo/echo-1
VISION=plugin/echo-provider/echo/echo-vision

WIN=""
fail() {
	echo "xvfb-e2e-attach: FAIL: $*" >&2
	# a panic's first lines (its reason) and the end of the log
	[ -f "$ERR" ] && { grep -m 1 -B 3 -A 1 '^panic' "$ERR"; tail -n 30 "$ERR"; } >&2
	shot fail
	exit 1
}
# shot NAME: a screenshot of the main window (the file dialog and the
# model menu draw inside it), or of the screen before it exists.
shot() { [ -n "${DISPLAY:-}" ] && import -window "${WIN:-root}" "$LOGDIR/e2e-attach-$1.png" 2>/dev/null || true; }
for c in Xvfb xdotool import convert python3; do command -v "$c" >/dev/null || fail "$c is missing (make deps)"; done

build_bin

D="$(mktemp -d)"  # the data dir
WS="$(mktemp -d)" # the workspace
H="$(mktemp -d)"  # the app's $HOME: where the file dialog opens, holding only the picture
APP="" XVFB=""
cleanup() {
	stop_pids "$APP" "$XVFB"
	rm -rf "$D" "$WS" "$H"
}
trap cleanup EXIT
T0=$SECONDS
step() { echo "xvfb-e2e-attach: $1 ok ($((SECONDS - T0)) s)"; T0=$SECONDS; }

"$BIN" plugin install --yes --data-dir "$D" examples/echo-provider >"$LOGDIR/e2e-attach-install.log" 2>&1 ||
	fail "installing echo-provider"
printf '{"defaultModel":"%s"}\n' "$PLAIN" >"$D/settings.json"
# An 8×8 red PNG, written by hand (zlib and the chunk CRCs: no image library).
python3 - "$H/pic.png" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
rows = b"".join(b"\x00" + b"\xff\x00\x00" * 8 for _ in range(8))
with open(sys.argv[1], "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY
SIZE="$(stat -c %s "$H/pic.png")"

start_xvfb "$D" "$LOGDIR/e2e-attach-xvfb.log" || fail "Xvfb did not start"

# $HOME is $H (the file dialog opens there; Fyne keeps its preferences
# under it), the dark theme pins the brightness the dialog waits read.
(cd "$WS" && exec env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u XDG_CACHE_HOME HOME="$H" \
	"$BIN" gui --data-dir "$D" --trace --theme dark) >"$OUT" 2>"$ERR" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"
# The clicks below are placed for the default window (1200×760, the
# dialog centred in it); without a window manager it stays so.
eval "$(xdotool getwindowgeometry --shell "$WIN")" # X Y WIDTH HEIGHT
[ "${WIDTH}x${HEIGHT}" = 1200x760 ] || fail "the window is ${WIDTH}x${HEIGHT}, the clicks are placed for 1200x760"
# bright X Y W H MIN: the mean grey of that part of the window is over MIN
# (0 black, 1 white).
bright() {
	local m
	m="$(import -window root -crop "$3x$4+$((X + $1))+$((Y + $2))" +repage png:- 2>/dev/null |
		convert png:- -colorspace gray -format '%[fx:mean]' info: 2>/dev/null)" || return 1
	python3 -c "import sys; sys.exit(0 if float('$m') > $5 else 1)" 2>/dev/null
}
click() { xdotool mousemove --window "$WIN" "$1" "$2" click 1; }
default_model() { python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('defaultModel',''))" "$D/settings.json" 2>/dev/null; }
model_is() { [ "$(default_model)" = "$1" ]; }

# pick_model ID KEY: the toolbar's model button opens the menu (an
# echo-provider header, Echo, Echo vision) on the current model; KEY (Down
# or Up) moves to the other one and Return picks it. The core saves the
# pick as the default model: settings.json says when the chat is on it.
pick_model() {
	click 950 49
	xdotool key "$2" Return
	wait_for "the model $1 picked" model_is "$1"
}
# attach_picture: Attach, the picture in the dialog (in $HOME), Open; the
# chip is traced.
attach_picture() {
	local n
	n="$(count 'chip pic.png')"
	click 836 689                                                       # Attach
	wait_for "the file dialog showing pic.png" bright 619 295 40 50 0.6 # its white file icon
	click 639 330
	wait_for "the dialog's Open enabled" bright 790 532 60 30 0.4 # grey → the primary blue
	click 820 547                                                 # Open
	wait_for "the chip" traced "$((n + 1))" 'chip pic.png'
}
# saved_turn ID QUESTION: the session ID holds QUESTION as a user message
# with the picture (the data URL of its bytes) and echo-vision's answer
# about it.
saved_turn() {
	python3 - "$D/sessions/$1.json" "$2" "$H/pic.png" "$VISION" <<'PY'
import base64, json, sys
path, question, pic, vision = sys.argv[1:]
s = json.load(open(path))
data = open(pic, "rb").read()
url = "data:image/png;base64," + base64.b64encode(data).decode()
msgs = s["messages"]
users = [i for i, m in enumerate(msgs) if m.get("role") == "user"]
if s.get("model") != vision:
    sys.exit(f"the session's model is {s.get('model')!r}, not {vision}")
if len(users) != 1:
    sys.exit(f"{len(users)} user messages, want 1: {[msgs[i].get('content') for i in users]}")
u = msgs[users[0]]
if u.get("content") != question or u.get("images") != [url]:
    sys.exit(f"the user message is {u.get('content')!r} with {len(u.get('images') or [])} images "
             f"({str(u.get('images'))[:60]}...); want {question!r} and the picture")
want = f"Images: 1 (image/png {len(data)} bytes)"
reply = [m.get("content", "") for m in msgs[users[0] + 1:] if m.get("role") == "assistant"]
if not reply or want not in reply[-1]:
    sys.exit(f"the reply is {reply!r}; want {want!r}")
print(f"xvfb-e2e-attach: saved: {question!r} + {len(url)}-character data URL; reply {reply[-1]!r}")
PY
}

# --- 1. A picture to Echo vision ---
wait_for "the echo models" traced 1 'models 2'
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
pick_model "$VISION" Down # from Echo, the default
attach_picture
shot chip
Q1='what is in this picture?'
xdotool type --delay 5 "$Q1"
xdotool key Return
wait_for "the vision reply" traced 1 'turn done'
FIRST="$(grep '^trace: replying ' "$OUT" | tail -n 1 | cut -d' ' -f3)"
[ -n "$FIRST" ] || fail "no 'replying' trace names the chat"
wait_for "the reply saved" grep -qF "Images: 1 (image/png $SIZE bytes)" "$D/sessions/$FIRST.json"
saved_turn "$FIRST" "$Q1" || fail "the vision chat as saved (above)"
shot vision-reply
cp "$D/sessions/$FIRST.json" "$LOGDIR/e2e-attach-session-vision.json"
step "a picture attached and described by echo-vision"

# --- 2. Refused by Echo (no vision); nothing typed is lost ---
S="$(grep -c '^trace: session [0-9a-f]\{8\}-' "$OUT" || true)"
xdotool key ctrl+n
wait_for "the new chat" sh -c "[ \$(grep -c '^trace: session [0-9a-f]\{8\}-' '$OUT') -gt $S ]"
SECOND="$(grep '^trace: session [0-9a-f]\{8\}-' "$OUT" | tail -n 1 | cut -d' ' -f3)"
[ "$SECOND" != "$FIRST" ] || fail "Ctrl+N stayed in the first chat"
# The core switched, then asks the catalog again: once it is traced after
# the switch, the new chat is ready for a pick.
AT="$(grep -n "^trace: session $SECOND\$" "$OUT" | tail -n 1 | cut -d: -f1)"
wait_for "the new chat ready" sh -c "tail -n +$AT '$OUT' | grep -q '^trace: models '"
pick_model "$PLAIN" Up # the new chat has the model of the chat it left
attach_picture
Q2='describe this picture please'
xdotool type --delay 5 "$Q2"
BEFORE="$(grep -cE '^trace: (replying|turn done|turn failed)' "$OUT" || true)"
xdotool key Return
# Refused before anything is sent: the chip comes back (traced again).
wait_for "the refusal giving the chip back" traced 3 'chip pic.png'
shot refused
AFTER="$(grep -cE '^trace: (replying|turn done|turn failed)' "$OUT" || true)"
[ "$AFTER" = "$BEFORE" ] || fail "a turn ran for a picture Echo cannot see: $(grep -E '^trace: (replying|turn)' "$OUT" | tail -n 3)"
! grep -qF "$Q2" "$D"/sessions/*.json 2>/dev/null || fail "the refused message was saved"
# What the composer still holds (the text, the chip) goes to Echo vision.
pick_model "$VISION" Down
click 500 650 # the composer (the menu took the focus)
DONE="$(count 'turn done')"
xdotool key Return
wait_for "the resent message's reply" traced "$((DONE + 1))" 'turn done'
wait_for "the resent message saved" grep -qF "Images: 1 (image/png $SIZE bytes)" "$D/sessions/$SECOND.json"
saved_turn "$SECOND" "$Q2" || fail "the resent chat as saved (above): the text or the picture was lost"
shot resent
cp "$D/sessions/$SECOND.json" "$LOGDIR/e2e-attach-session-resent.json"
step "refused by echo-1, text and chip kept, resent to echo-vision"

quit_app || fail "the app did not quit within 30 s of SIGTERM"
echo "xvfb-e2e-attach: ok"
