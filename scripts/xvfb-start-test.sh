#!/usr/bin/env bash
# xvfb-start-test.sh — CI start test of the real desktop binary.
#
# Builds bin/reasonix-desktop (cgo) and the example sidecars, installs
# echo-provider, policy-guard and hello-surfaces into a fresh data dir, and
# runs the window under Xvfb with --demo, a screenshot after 5 s and a clean
# quit after 10 s. It fails when the app exits non-zero or before
# --exit-after, when the screenshot is missing, or when stderr shows a Fyne
# threading error or a panic. Logs and the screenshot go to $LOGDIR
# (default ./ci-logs), with one screenshot of each theme (light, dark).
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh # (the script runs from the repo root)
use_logdir
EXIT_AFTER=10
SHOT="$LOGDIR/reasonix-desktop.png"
ERR="$LOGDIR/reasonix-desktop.stderr"
OUT="$LOGDIR/reasonix-desktop.stdout"

fail() { echo "xvfb-start-test: FAIL: $*" >&2; exit 1; }

command -v xvfb-run >/dev/null || fail "xvfb-run is missing (run: make deps)"

echo "xvfb-start-test: building bin/reasonix-desktop and the examples"
BIN="" # always a fresh build
build_bin

D="$(mktemp -d)"
trap 'rm -rf "$D"' EXIT
for x in echo-provider policy-guard hello-surfaces; do
	bin/reasonix-desktop plugin install --yes --data-dir "$D" "examples/$x" >"$LOGDIR/install-$x.log" 2>&1 ||
		{ cat "$LOGDIR/install-$x.log" >&2; fail "installing $x"; }
done

rm -f "$SHOT"
echo "xvfb-start-test: running the window for ${EXIT_AFTER}s"
start=$(date +%s)
set +e
timeout 120 xvfb-run -a -s "-screen 0 1280x800x24 -noreset" \
	bin/reasonix-desktop gui --data-dir "$D" --demo \
	--screenshot "$SHOT" --screenshot-after 5s --exit-after "${EXIT_AFTER}s" >"$OUT" 2>"$ERR"
code=$?
set -e
elapsed=$(( $(date +%s) - start ))

status=0
if [ "$code" -ne 0 ]; then
	echo "xvfb-start-test: the app exited with code $code" >&2
	status=1
fi
if [ "$elapsed" -lt "$EXIT_AFTER" ]; then
	echo "xvfb-start-test: the app exited after ${elapsed}s, before --exit-after ${EXIT_AFTER}s" >&2
	status=1
fi
if [ ! -s "$SHOT" ]; then
	echo "xvfb-start-test: no screenshot at $SHOT" >&2
	status=1
fi
if grep -q "Error in Fyne call thread" "$ERR"; then
	echo "xvfb-start-test: Fyne threading error on stderr" >&2
	status=1
fi
if grep -q "panic:" "$ERR"; then
	echo "xvfb-start-test: panic on stderr" >&2
	status=1
fi
if [ "$status" -ne 0 ]; then
	echo "--- stderr ($ERR) ---" >&2
	tail -n 60 "$ERR" >&2
	fail "see $LOGDIR"
fi
# The light and the dark theme, each pinned for one short run (not saved).
for th in light dark; do
	TSHOT="$LOGDIR/reasonix-desktop-$th.png"
	rm -f "$TSHOT"
	timeout 120 xvfb-run -a -s "-screen 0 1280x800x24 -noreset" \
		bin/reasonix-desktop gui --data-dir "$D" --theme "$th" \
		--screenshot "$TSHOT" --screenshot-after 4s --exit-after 6s >"$LOGDIR/theme-$th.stdout" 2>"$LOGDIR/theme-$th.stderr" ||
		fail "the $th theme run failed (see $LOGDIR/theme-$th.stderr)"
	[ -s "$TSHOT" ] || fail "no $th screenshot at $TSHOT"
	! grep -q "panic:\|Error in Fyne call thread" "$LOGDIR/theme-$th.stderr" || fail "the $th run logged a panic or a threading error"
done
echo "xvfb-start-test: ok (exit $code after ${elapsed}s; screenshots $SHOT, reasonix-desktop-light.png, reasonix-desktop-dark.png)"
