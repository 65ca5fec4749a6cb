#!/usr/bin/env bash
# scripts/windows/gui.sh GUI_EXE PREBUILT LOGDIR — run by lane.sh with its
# wine prefix in the environment: the real window (the cgo build made with
# mingw-w64) under wine + Xvfb, echo-provider and policy-guard installed,
# --demo (two messages sent), the app's own screenshot after 8 s saved to
# LOGDIR/windows-gui.png, a clean quit after 15 s. Fails when the app exits
# non-zero, the screenshot is missing, or stderr shows a panic.
set -euo pipefail

GUI="$1"
PRE="$2"
LOGDIR="$3"
cd "$(dirname "$0")/../.."
LOG="$LOGDIR/windows-gui.log"
SHOT="$LOGDIR/windows-gui.png"
winpath() { echo "Z:$(echo "$1" | tr / '\\')"; }
fail() {
	echo "gui (wine): FAIL: $*" >&2
	tail -n 30 "$LOG" >&2 || true
	exit 1
}
command -v xvfb-run >/dev/null || fail "xvfb-run is missing (apt-get install xvfb)"

W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
DATA="$(winpath "$W/data")"
: >"$LOG"
for x in echo-provider policy-guard; do
	mkdir -p "$W/src/$x/bin"
	cp "examples/$x/reasonix-plugin.json" "$W/src/$x/"
	cp "$PRE/examples_$x.exe" "$W/src/$x/bin/$x.exe"
	wine "$PRE/cmd_reasonix-desktop.exe" plugin install --yes --data-dir "$DATA" "$(winpath "$W/src/$x")" >>"$LOG" 2>&1 ||
		fail "plugin install $x"
done
rm -f "$SHOT"
# The installs above ran wine with no display. Its wineserver (and the
# desktop process it started) lives on for a few seconds, and a GUI that
# joins it cannot create a window ("Failed to create helper window:
# Resource data not found"): end it, so the window starts a server of its
# own under Xvfb's display.
wineserver -k 2>/dev/null || true
wineserver -w 2>/dev/null || true
set +e
timeout -k 10 240 xvfb-run -a -s "-screen 0 1280x800x24 -noreset" \
	wine "$GUI" gui --data-dir "$DATA" --demo \
	--screenshot "$(winpath "$SHOT")" --screenshot-after 8s --exit-after 15s >>"$LOG" 2>&1
code=$?
set -e
[ "$code" = 0 ] || fail "the app exited with code $code"
[ -s "$SHOT" ] || fail "no screenshot at $SHOT"
! grep -q "^panic:" "$LOG" || fail "panic in the log"
echo "GUI under wine: started, screenshot $SHOT ($(stat -c %s "$SHOT") bytes)"
