#!/usr/bin/env bash
# xvfb-e2e-connect.sh — "Connect a model" in the real window, in Chinese
# (issue 38): the app started with LANG=zh_CN.UTF-8 on a fresh data folder;
# Settings → 连接模型… opens the dialog (or the first start already did);
# DeepSeek is the preset offered, its address is replaced by a local fake
# DeepSeek (python3: GET /models, 401 for a wrong key), a wrong key's Test
# says it was refused, the right key's Test finds the two models, Save
# stores the address and key in the data folder's credentials file (never
# in settings.json) and the model menu gains the server's models (the
# provider restarted). Screenshots: $LOGDIR/e2e-connect-{dialog,refused,found,saved}.png.
# BIN: a built binary to use instead of building one.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
use_logdir

shot() { command -v import >/dev/null && [ -n "${DISPLAY:-}" ] && import -window "${2:-root}" "$LOGDIR/e2e-connect-$1.png" 2>/dev/null || true; }
# painted NAME [WINDOW]: the screenshot once two grabs 0.1 s apart agree.
painted() {
	settle "${2:-root}"
	shot "$@"
}
fail() {
	echo "xvfb-e2e-connect: FAIL: $*" >&2
	shot fail
	[ -f "$LOGDIR/e2e-connect.stderr" ] && tail -n 30 "$LOGDIR/e2e-connect.stderr" >&2
	exit 1
}
set -E
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR
for c in Xvfb xdotool import python3; do command -v "$c" >/dev/null || fail "$c is missing"; done

BIN="${BIN:-}"
build_bin

D="$(mktemp -d)"
WS="$(mktemp -d)"
APP="" XVFB="" SRV=""
cleanup() {
	stop_pids "$APP" "$XVFB" "$SRV"
	rm -rf "$D" "$WS"
}
trap cleanup EXIT

# The fake DeepSeek: its port goes to $D/port once it listens.
python3 - "$D/port" >"$LOGDIR/e2e-connect-server.log" 2>&1 <<'PY' &
import http.server, json, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.rstrip("/") != "/models":
            self.send_response(404); self.end_headers(); return
        if self.headers.get("Authorization") != "Bearer sk-e2e-good":
            body = b'{"error":{"message":"Authentication Fails","type":"authentication_error"}}'
            self.send_response(401)
        else:
            body = json.dumps({"object": "list", "data": [{"id": "deepseek-chat", "object": "model"},
                                                          {"id": "deepseek-reasoner", "object": "model"}]}).encode()
            self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
srv.serve_forever()
PY
SRV=$!
for _ in $(seq 100); do [ -s "$D/port" ] && break; sleep 0.1; done
[ -s "$D/port" ] || fail "the fake DeepSeek did not start"
URL="http://127.0.0.1:$(cat "$D/port")"

"$BIN" plugin install --yes --data-dir "$D" examples/echo-provider >>"$LOGDIR/e2e-connect-install.log" 2>&1 || fail "installing echo-provider"

start_xvfb "$D" "$LOGDIR/e2e-connect-xvfb.log" || fail "Xvfb did not start"
OUT="$LOGDIR/e2e-connect.stdout"
(cd "$WS" && unset LANGUAGE LC_ALL LC_MESSAGES && LANG=zh_CN.UTF-8 REASONIX_CREDENTIALS_STORE=file exec "$BIN" gui --data-dir "$D" --trace) \
	>"$OUT" 2>"$LOGDIR/e2e-connect.stderr" &
APP=$!
WIN="$(window 'Reasonix')" || fail "the window never appeared"
wait_for "the language" traced 1 'language zh-Hans'

# The first start may open the dialog by itself; else Settings' button.
CW=""
for _ in $(seq 30); do
	CW="$(xdotool search --onlyvisible --name '连接模型' 2>/dev/null | head -n 1)" || CW=""
	[ -n "$CW" ] && break
	sleep 0.1
done
if [ -z "$CW" ]; then
	xdotool windowfocus --sync "$WIN" 2>/dev/null || true
	xdotool key ctrl+comma
	SW="$(window '设置')" || fail "Settings never appeared"
	wait_for "Settings' approvals" traced 1 'permissions 0'
	xdotool windowfocus --sync "$SW" 2>/dev/null || true
	# 连接模型… leads Settings, under the Models heading.
	xdotool mousemove --window "$SW" 60 66 click 1
	CW="$(window '连接模型')" || fail "Connect a model never appeared"
fi
wait_for "the presets" grep -q '^trace: connect presets' "$OUT"
xdotool windowfocus --sync "$CW" 2>/dev/null || true
painted dialog "$CW"

# The key field has the focus; Shift+Tab reaches the address.
xdotool key shift+Tab ctrl+a
xdotool type --delay 5 "$URL"
xdotool key Tab
xdotool type --delay 5 'sk-e2e-wrong'
xdotool key Return
wait_for "the refused key" traced 1 'connect test failed'
painted refused "$CW"

xdotool key ctrl+a
xdotool type --delay 5 'sk-e2e-good'
xdotool key Return
wait_for "the models found" traced 1 'connect test 2'
painted found "$CW"

# Save is the bottom-right button.
eval "$(xdotool getwindowgeometry --shell "$CW")"
xdotool mousemove --window "$CW" $((WIDTH - 45)) $((HEIGHT - 22)) click 1
wait_for "the save" traced 1 'connect saved deepseek'
painted saved "$CW"

grep -q 'sk-e2e-good' "$D/credentials.json" || fail "the key is not in the credentials file"
grep -q "$URL" "$D/credentials.json" || fail "the address is not in the credentials file"
if grep -q 'sk-e2e' "$D/settings.json" 2>/dev/null; then fail "the key went to settings.json"; fi
wait_for "the server's models in the menu" grep -q '^trace: models [3-9]' "$OUT"
quit_app || fail "the app did not quit on SIGTERM"
echo "xvfb-e2e-connect: ok (Connect a model in Chinese against a fake DeepSeek at $URL: refused key said, 2 models found, saved, the menu lists them; screenshots in $LOGDIR/e2e-connect-{dialog,refused,found,saved}.png)"
