#!/usr/bin/env bash
# xvfb-e2e-input.sh — what a user puts into the real window and takes out of
# it, with xdotool and xclip: keys that page a long chat, a key typed into
# Settings, a paste, a mouse copy, an attached image (scripts/xvfb-e2e.sh
# runs it after its own steps; it also runs alone):
#  1. a 5,000-message chat (scripts/gensession) opened in the window: PgUp
#     moves the transcript up a page twice, Ctrl+Home (the composer is
#     empty) shows row 0; after a click on the transcript, End shows the
#     latest and Home row 0 again;
#  2. Settings → "Providers and API keys…": an API key typed into
#     openai-provider's OPENAI_API_KEY field and saved (the plugin restarts)
#     reaches a local OpenAI-like server as "Authorization: Bearer <key>"
#     when a message is sent to the plugin's model; the key is in no log;
#  3. 100,000 characters pasted (xclip, Ctrl+V) into the composer show as
#     text (wrapped rows in a box above the entry), then a few typed: the
#     message sent and saved is the typed text and the whole paste; the
#     app's CPU a key is reported before and after the paste;
#  4. the last reply drag-selected with the mouse, copied (Ctrl+C), pasted
#     into the composer and sent: the server gets exactly the reply's text;
#  5. scripts/xvfb-e2e-attach.sh: an image attached to a vision model.
# Each step waits on a --trace line, the fake server's record or a saved
# file, never on a sleep. Screenshots and logs go to $LOGDIR (default
# ./ci-logs), named e2e-input-*. BIN=path skips the build.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
OUT="$LOGDIR/e2e-input.stdout" ERR="$LOGDIR/e2e-input.stderr"
rm -f "$LOGDIR"/e2e-input-*.png
ECHO=plugin/echo-provider/echo/echo-1
OPENAI=plugin/openai-provider/openai/gpt-fake-1

fail() {
	echo "xvfb-e2e-input: FAIL: $*" >&2
	[ -f "$ERR" ] && tail -n 30 "$ERR" >&2
	shot fail
	exit 1
}
# shot NAME [WINDOW]: a screenshot of the screen (without a window manager
# the windows overlap: the main window's steps take it alone).
shot() { command -v import >/dev/null && [ -n "${DISPLAY:-}" ] && import -window "${2:-root}" "$LOGDIR/e2e-input-$1.png" 2>/dev/null || true; }
for c in Xvfb xdotool xclip python3; do command -v "$c" >/dev/null || fail "$c is missing (make deps)"; done

build_bin

D="$(mktemp -d)"
WS="$(mktemp -d)"
APP="" XVFB="" FAKE="" CLIP=""
cleanup() {
	stop_pids "$APP" "$CLIP" "$FAKE" "$XVFB"
	rm -rf "$D" "$WS"
}
trap cleanup EXIT
T0=$SECONDS
step() { echo "xvfb-e2e-input: $1 ok ($((SECONDS - T0)) s)"; T0=$SECONDS; }

for x in echo-provider openai-provider; do
	"$BIN" plugin install --yes --data-dir "$D" "examples/$x" >"$LOGDIR/e2e-input-install-$x.log" 2>&1 || fail "installing $x"
done
printf '{"defaultModel":"%s"}\n' "$ECHO" >"$D/settings.json"
BIG="$(go run ./scripts/gensession -data-dir "$D" -messages 5000 -model "$ECHO" -workspace "$WS")"
SMALL="$(go run ./scripts/gensession -data-dir "$D" -messages 2 -model "$OPENAI" -workspace "$WS" -question 'openai-chat-here')"

# The fake OpenAI server: answers a streamed chat completion as OpenAI does
# and records, per request, whether the Authorization header was
# "Bearer $KEY" and how long the last user message was (never the key:
# the record is copied to $LOGDIR).
KEY="e2e-input-typed-in-settings-$RANDOM$RANDOM-Qw7Er"
KEY="$KEY" python3 - "$D/fake" <<'PY' >"$LOGDIR/e2e-input-fake.log" 2>&1 &
import json, os, sys, http.server
out = sys.argv[1]
want = "Bearer " + os.environ["KEY"]
def ev(delta, finish=None):
    return "data: " + json.dumps({"id": "chatcmpl-e2e-input", "object": "chat.completion.chunk", "created": 1741870000,
        "model": "gpt-fake-1", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + "\n\n"
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        last = users[-1]["content"] if users else ""
        auth = self.headers.get("Authorization")
        rec = {"path": self.path, "auth": "ok" if auth == want else ("none" if auth is None else "other"),
               "last_user_chars": len(last) if isinstance(last, str) else -1, "last_user_head": str(last)[:24]}
        with open(out + ".records", "a") as f:
            f.write(json.dumps(rec) + "\n")
        data = (ev({"role": "assistant", "content": ""}) + ev({"content": "Hello from the fake model."}) +
                ev({}, "stop") + "data: [DONE]\n\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *a):
        pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(out + ".port.tmp", "w") as f:
    f.write(str(s.server_address[1]))
os.rename(out + ".port.tmp", out + ".port")
s.serve_forever()
PY
FAKE=$!
for _ in $(seq 100); do [ -s "$D/fake.port" ] && break; sleep 0.1; done
[ -s "$D/fake.port" ] || fail "the fake OpenAI server did not start (see $LOGDIR/e2e-input-fake.log)"

start_xvfb "$D" "$LOGDIR/e2e-input-xvfb.log" || fail "Xvfb did not start"

# The app reads the base URL and the model list from its environment; the
# key only from what Settings saves (the file store: Xvfb has no keyring).
(cd "$WS" && exec env -u OPENAI_API_KEY -u OPENAI_API_KEY_FILE REASONIX_CREDENTIALS_STORE=file \
	OPENAI_BASE_URL="http://127.0.0.1:$(cat "$D/fake.port")/v1" OPENAI_MODELS=gpt-fake-1 \
	"$BIN" gui --data-dir "$D" --session "$BIG" --trace) >"$OUT" 2>"$ERR" &
APP=$!
WIN="$(window 'Reasonix Desktop')" || fail "the window never appeared"
# rowtrace N: the Nth "transcript row R of M" line, as "R M".
rowtrace() { grep '^trace: transcript row ' "$OUT" | sed -n "$1p" | awk '{print $4, $6}'; }
rowtraced() { [ -n "$(rowtrace "$1")" ]; }

# --- 1. PgUp and Home in a 5,000-message chat ---
wait_for "the models (echo-1, echo-vision, gpt-fake-1)" traced 1 'models 3'
wait_for "the big chat" traced 1 "session $BIG"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
xdotool key Prior
wait_for "the first PgUp" rowtraced 1
read -r R1 N1 <<<"$(rowtrace 1)"
[ "$N1" -ge 2000 ] || fail "the 5,000-message chat shows $N1 rows"
[ "$R1" -lt "$((N1 - 1))" ] || fail "PgUp left the view at row $R1 of $N1"
xdotool key Prior
wait_for "the second PgUp" rowtraced 2
read -r R2 _ <<<"$(rowtrace 2)"
[ "$R2" -lt "$R1" ] || fail "the second PgUp went from row $R1 to $R2"
shot pgup "$WIN"
xdotool key ctrl+Home
wait_for "Ctrl+Home" rowtraced 3
read -r R3 _ <<<"$(rowtrace 3)"
[ "$R3" = 0 ] || fail "Home showed row $R3, not the first"
shot home "$WIN"
# A click on the first message's "You" header takes the focus from the
# composer: plain End and Home are then the transcript's.
xdotool mousemove --window "$WIN" 284 107 click 1
xdotool key End
wait_for "End" rowtraced 4
read -r R4 N4 <<<"$(rowtrace 4)"
[ "$R4" -gt "$R1" ] || fail "End showed row $R4 of $N4 (the first PgUp was at $R1)"
xdotool key Home
wait_for "Home" rowtraced 5
read -r R5 _ <<<"$(rowtrace 5)"
[ "$R5" = 0 ] || fail "Home showed row $R5, not the first"
xdotool mousemove --window "$WIN" 500 665 click 1 # the composer again
echo "xvfb-e2e-input: rows at the top: end-PgUp $R1, PgUp $R2, Ctrl+Home $R3, End $R4, Home $R5 (of $N4)"
step "PgUp/Home in a 5,000-message chat"

# --- 2. An API key set in Settings reaches the provider plugin ---
# Settings opens with nothing focused (no rules): Shift+Tab focuses its last
# button, "Providers and API keys…", and Space presses it. Its first field
# is openai-provider's OPENAI_API_KEY (echo-provider declares none): Tab,
# type, Shift+Tab wraps to the last button, "Save and restart
# openai-provider".
xdotool key ctrl+comma
SET="$(window '^Settings$')" || fail "Settings never opened"
wait_for "Settings' permissions" traced 1 'permissions 0'
xdotool windowfocus --sync "$SET" 2>/dev/null || true
xdotool key shift+Tab space
PROV="$(window '^Providers and API keys$')" || fail "the Providers window never opened"
wait_for "the providers' fields" traced 1 'done read the provider plugins'
xdotool windowfocus --sync "$PROV" 2>/dev/null || true
xdotool key Tab
xdotool type --delay 5 "$KEY"
shot providers
xdotool key shift+Tab space
wait_for "the save and restart" traced 1 'done save openai-provider'
wait_for "the key saved" grep -qF OPENAI_API_KEY "$D/credentials.json"
wait_for "the fields read again" traced 2 'done read the provider plugins'
shot providers-saved
[ "$(stat -c %a "$D/credentials.json")" = 600 ] || fail "credentials.json has mode $(stat -c %a "$D/credentials.json")"
grep -qF "$KEY" "$D/settings.json" && fail "the key is in settings.json"

# The chat whose model is openai-provider's, from the sidebar's search
# (the main window raised over Settings: no window manager does it).
xdotool windowraise "$WIN"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
xdotool key ctrl+b ctrl+b
xdotool type --delay 5 'openai-chat-here'
wait_for "the search's list" traced 1 'sessions listed for openai-chat-here'
xdotool key Return
wait_for "the openai chat" sh -c "grep '^trace: session [0-9a-f]\{8\}-' '$OUT' | tail -n 1 | grep -q '$SMALL'"
DONE="$(count 'turn done')"
xdotool type --delay 5 'key-check'
xdotool key Return
wait_for "the reply from the fake server" traced "$((DONE + 1))" 'turn done'
REC="$(grep -F '"last_user_head": "key-check"' "$D/fake.records" | tail -n 1)"
echo "$REC" | grep -qF '"auth": "ok"' || fail "the server did not get Bearer <the key typed in Settings>: $REC"
wait_for "the reply saved" grep -qF 'Hello from the fake model.' "$D/sessions/$SMALL.json"
shot key-reply "$WIN"
step "API key set in Settings reached the plugin"

# --- 3. A 100,000-character paste, then typing ---
python3 -c '
unit = "A pasted line of a long log file, with words to wrap. "
print((unit * (100000 // len(unit) + 1))[:100000], end="")' >"$D/paste.txt"
xclip -quiet -selection clipboard -i "$D/paste.txt" >/dev/null 2>&1 &
CLIP=$!
wait_for "the clipboard" sh -c "[ \"\$(xclip -selection clipboard -o 2>/dev/null | wc -c)\" = 100000 ]"
xdotool windowfocus --sync "$WIN" 2>/dev/null || true
# The app's CPU (all its threads, the painting included) over keys typed
# 20 ms apart, per key: 33 in the empty composer (the baseline; then
# deleted), then after the paste 11 (they may share the CPU with the
# paste's own first frames) and 33 more. Reported, not judged (a shared
# machine's figures).
appcpu() { cat /proc/"$APP"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%.0f\n", s}'; }
ms() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN {printf "%.2f", (b - a) / n / 1e6}'; } # ms A B N: (B-A) ns / N, in ms
TAIL=' then thirty-three more keys, ok.' # 33 keys
CPU0="$(appcpu)"
xdotool type --delay 20 'a baseline of thirty-three keys..'
CPU1="$(appcpu)"
BASE="$(ms "$CPU0" "$CPU1" 33)"
xdotool key ctrl+a BackSpace
CPU0="$(appcpu)"
xdotool key ctrl+v
# The paste shows as text above the entry: its box traces how many wrapped
# rows are in view and how many the text has (it wraps on its first layout).
wait_for "the paste shown as text" grep -qE '^trace: paste shown 100000 characters rows [0-9]+ of [0-9]+$' "$OUT"
read -r SHOWN ROWS <<<"$(grep -E '^trace: paste shown 100000 ' "$OUT" | tail -n 1 | awk '{print $7, $9}')"
[ "$SHOWN" -ge 4 ] && [ "$ROWS" -ge 500 ] || fail "the paste shows $SHOWN rows of $ROWS"
CPU1="$(appcpu)"
echo "xvfb-e2e-input: the paste shows $SHOWN of its $ROWS wrapped rows ($(ms "$CPU0" "$CPU1" 1) ms of the app's CPU from Ctrl+V)"
xdotool type --delay 20 'typed after'
CPU2="$(appcpu)"
xdotool type --delay 20 "$TAIL"
CPU3="$(appcpu)"
echo "xvfb-e2e-input: the app's CPU a key: $BASE ms in the empty composer; after the paste $(ms "$CPU1" "$CPU2" 11) ms, then $(ms "$CPU2" "$CPU3" 33) ms"
shot paste "$WIN"
DONE="$(count 'turn done')"
xdotool key Return
wait_for "the pasted message's reply" traced "$((DONE + 1))" 'turn done'
wait_for "the pasted message saved" grep -qF "typed after$TAIL" "$D/sessions/$SMALL.json"
python3 - "$D/sessions/$SMALL.json" "$D/paste.txt" "typed after$TAIL" <<'PY' || fail "the saved message is not the typed text and the whole paste"
import json, sys
s = json.load(open(sys.argv[1]))
paste = open(sys.argv[2]).read()
last = [m for m in s["messages"] if m.get("role") == "user"][-1]["content"]
want = sys.argv[3] + "\n\n" + paste
if last != want:
    sys.exit(f"saved {len(last)} characters starting {last[:30]!r}; want {len(want)}")
print(f"xvfb-e2e-input: saved user message: {len(last)} characters (typed text + 100,000 pasted)")
PY
grep -F '"last_user_head": "typed after' "$D/fake.records" | grep -qF "\"last_user_chars\": $((100000 + 2 + 11 + ${#TAIL}))" ||
	fail "the server did not get the whole paste: $(tail -n 1 "$D/fake.records")"
step "100,000-character paste and typing"

# --- 4. The reply drag-selected, copied and pasted as the next message ---
# Ctrl+End (the composer is empty after a send) shows the end and traces
# where the last reply, "Hello from the fake model.", is drawn; the mouse
# drags across it, from a little before it to a little past it (as a hand
# does), Ctrl+C copies it, and it is pasted into the composer and sent.
xdotool key ctrl+End
wait_for "where the reply is drawn" grep -q '^trace: last reply text ' "$OUT"
read -r X1 Y1 X2 Y2 <<<"$(grep '^trace: last reply text ' "$OUT" | tail -n 1 | awk '{print $5, $6, $7, $8}')"
xdotool mousemove --window "$WIN" "$((X1 - 3))" "$Y1" mousedown 1
xdotool mousemove --window "$WIN" "$(((X1 + X2) / 2))" "$Y1"
xdotool mousemove --window "$WIN" "$((X2 + 4))" "$Y2"
xdotool mouseup 1
REPLY="Hello from the fake model."
xdotool key ctrl+c
wait_for "the copy" traced 1 "copied selection ${#REPLY} characters"
shot selection "$WIN" # the highlight, and "Copied 26 characters" at the transcript's foot
wait_for "the clipboard to hold the reply" sh -c "[ \"\$(xclip -selection clipboard -o 2>/dev/null)\" = '$REPLY' ]"
xdotool mousemove --window "$WIN" 500 665 click 1 # the composer
xdotool key ctrl+v
DONE="$(count 'turn done')"
xdotool key Return
wait_for "the pasted reply's answer" traced "$((DONE + 1))" 'turn done'
grep -F "\"last_user_head\": \"${REPLY:0:24}\"" "$D/fake.records" | grep -qF "\"last_user_chars\": ${#REPLY}" ||
	fail "the server did not get the selected reply as the message: $(tail -n 1 "$D/fake.records")"
echo "xvfb-e2e-input: dragged from ($X1,$Y1) to ($X2,$Y2): copied and sent '$REPLY'"
step "drag-select a reply, copy and paste it"

cp "$D/fake.records" "$LOGDIR/e2e-input-fake-records.jsonl"
LOGDIR="$LOGDIR" BIN="$BIN" bash scripts/xvfb-e2e-attach.sh || fail "the attachment steps (scripts/xvfb-e2e-attach.sh, logs e2e-attach-*)"

# Quit; a SIGTERM left unanswered (seen once under two CPU hogs) must not
# hang the script: SIGKILL after 30 s, and say so.
quit_app || fail "the app did not quit within 30 s of SIGTERM"
for f in "$OUT" "$ERR" "$LOGDIR"/e2e-input-*.log "$LOGDIR/e2e-input-fake-records.jsonl"; do
	grep -qF "$KEY" "$f" && fail "the API key is in $(basename "$f")"
done
echo "xvfb-e2e-input: ok"
