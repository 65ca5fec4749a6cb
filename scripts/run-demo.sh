#!/usr/bin/env bash
# make run: a demo data dir with the bundled example plugins and the offline
# echo model selected, then the app. Without a display it says so and runs
# a headless chat instead.
set -euo pipefail
cd "$(dirname "$0")/.."
DEMO="${1:-.demo}"
BIN=bin/reasonix-desktop
mkdir -p "$DEMO"
for plugin in echo-provider policy-guard hello-surfaces; do
	# --link runs the freshly built example in place; --replace keeps reruns idempotent.
	"$BIN" plugin install --yes --link --replace --data-dir "$DEMO" "examples/$plugin" >/dev/null
done
if [ ! -f "$DEMO/settings.json" ]; then
	printf '{\n  "defaultModel": "plugin/echo-provider/echo/echo-1"\n}\n' >"$DEMO/settings.json"
fi
echo "demo data dir: $DEMO (plugins: echo-provider, policy-guard, hello-surfaces; model: echo-1, offline)"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && "$BIN" help 2>&1 | grep -q '^  gui'; then
	exec "$BIN" gui --data-dir "$DEMO" --workspace "$PWD"
fi
echo "no display (or no window front end in this build): starting the headless host instead"
"$BIN" models --data-dir "$DEMO"
exec "$BIN" chat --headless --data-dir "$DEMO" --workspace "$PWD" --prompt "Hello from make run"
