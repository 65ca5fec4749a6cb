#!/usr/bin/env bash
# xvfb-composer-check.sh — the composer's real-window typing cost.
#
# Runs the real binary under Xvfb, types 100 keys into the empty composer,
# pastes $CHARS characters ($KIND: "line", one long line, or "log", lines of
# 33) through the X clipboard (held by python3-tk), waits until the app is
# idle again, types 100 more keys and prints the CPU each key added over the
# app's idle rate (cursor blink, software GL), from /proc. A screenshot of
# the window after the paste goes to $LOGDIR. It measures, it does not pass
# or fail (BenchmarkComposerPasteThenType is the widget-level figure).
# Usage: [BIN=path] [KIND=line|log] [CHARS=100000] scripts/xvfb-composer-check.sh
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
KIND="${KIND:-line}"
CHARS="${CHARS:-100000}"
fail() { echo "xvfb-composer-check: FAIL: $*" >&2; exit 1; }

if [ -z "${DISPLAY:-}" ]; then
	command -v xvfb-run >/dev/null || fail "xvfb-run is missing (run: make deps)"
	exec xvfb-run -a -s "-screen 0 1280x800x24 -noreset" "$0" "$@"
fi
for c in xdotool python3 bc; do command -v $c >/dev/null || fail "$c is missing"; done
python3 -c 'import tkinter' 2>/dev/null || fail "python3-tk is missing"
build_bin

D="$(mktemp -d)"
APP="" CLIP=""
trap '[ -n "$CLIP" ] && kill $CLIP 2>/dev/null; [ -n "$APP" ] && kill $APP 2>/dev/null; rm -rf "$D"' EXIT
"$BIN" gui --data-dir "$D" >"$LOGDIR/composer.stdout" 2>"$LOGDIR/composer.stderr" &
APP=$!
WID="$(window Reasonix)" || fail "no window"
sleep 3
xdotool windowactivate --sync "$WID" 2>/dev/null || true
xdotool windowfocus "$WID"

HZ="$(getconf CLK_TCK)"
cpu() { awk '{print $14+$15}' "/proc/$APP/stat"; }
now() { date +%s.%N; }
c0="$(cpu)"; t0="$(now)"; sleep 10
IDLE="$(echo "scale=4; ($(cpu)-$c0)/($(now)-$t0)" | bc)" # ticks/s
echo "idle: $(echo "scale=1; $IDLE*1000/$HZ" | bc) ms CPU/s"
keys() { # 100 keys, one every 100 ms: the ms of CPU each adds over idle
	local c0 t0
	c0="$(cpu)"; t0="$(now)"
	xdotool type --delay 100 "$(printf 'word %.0s' $(seq 20))"
	sleep 1
	echo "scale=2; (($(cpu)-$c0) - $IDLE*($(now)-$t0))*1000/$HZ/100" | bc
}
echo "typing, empty composer: $(keys) ms/key"

python3 - "$KIND" "$CHARS" <<'PY' &
import sys, tkinter
kind, n = sys.argv[1], int(sys.argv[2])
unit = "A pasted line of a long log file, with words to wrap. " if kind == "line" else "A pasted line of a long log file\n"
text = (unit * (n // len(unit) + 1))[:n]
r = tkinter.Tk(); r.withdraw()
r.clipboard_clear(); r.clipboard_append(text); r.update()
r.mainloop()
PY
CLIP=$!
sleep 2
c0="$(cpu)"; t0="$(now)"
xdotool key ctrl+v
prev="$(cpu)"
for _ in $(seq 240); do
	sleep 1; c="$(cpu)"
	[ "$(echo "$c-$prev <= $IDLE*1.5+1" | bc)" = 1 ] && break
	prev="$c"
done
echo "paste of $CHARS characters ($KIND): $(echo "scale=0; ($(cpu)-$c0)*1000/$HZ" | bc) ms CPU, idle again after $(echo "scale=1; ($(now)-$t0)/1" | bc) s"
echo "typing after the paste: $(keys) ms/key"
command -v import >/dev/null && import -window root "$LOGDIR/composer-$KIND-$CHARS.png" 2>/dev/null &&
	echo "xvfb-composer-check: screenshot $LOGDIR/composer-$KIND-$CHARS.png"
