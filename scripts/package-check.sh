#!/usr/bin/env bash
# scripts/package-check.sh — installs bin/pkg/*.deb with dpkg (apt-get -f
# for its dependencies) and starts the installed /usr/bin/reasonix-desktop
# under Xvfb: the example plugins installed from
# /usr/share/reasonix-desktop/examples, --demo, a screenshot after 5 s
# ($LOGDIR/package-installed.png), a clean quit after 8 s. Fails when the
# package does not install, the .desktop entry or icon is missing, the app
# exits non-zero or leaves no screenshot. Needs root (or sudo).
set -euo pipefail

cd "$(dirname "$0")/.."
LOGDIR="${LOGDIR:-./ci-logs}"
mkdir -p "$LOGDIR"
LOGDIR="$(cd "$LOGDIR" && pwd)"
fail() { echo "package-check: FAIL: $*" >&2; exit 1; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
deb=$(ls bin/pkg/reasonix-desktop_*_amd64.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || fail "no .deb in bin/pkg (run make package)"
$SUDO dpkg -i "$deb" >"$LOGDIR/package-dpkg.log" 2>&1 ||
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -f -y -qq >>"$LOGDIR/package-dpkg.log" 2>&1 ||
	fail "dpkg -i $deb (see $LOGDIR/package-dpkg.log)"
for f in /usr/bin/reasonix-desktop /usr/share/applications/io.reasonix.desktop.desktop \
	/usr/share/icons/hicolor/256x256/apps/io.reasonix.desktop.png \
	/usr/share/reasonix-desktop/examples/echo-provider/bin/echo-provider; do
	[ -e "$f" ] || fail "$f not installed"
done
D="$(mktemp -d)"
# The machine is left as it was: the package goes again, pass or fail.
trap 'rm -rf "$D"; $SUDO dpkg -r reasonix-desktop >>"$LOGDIR/package-dpkg.log" 2>&1 || true' EXIT
for x in echo-provider policy-guard; do
	reasonix-desktop plugin install --yes --data-dir "$D" "/usr/share/reasonix-desktop/examples/$x" >>"$LOGDIR/package-run.log" 2>&1 ||
		fail "plugin install $x from the package"
done
SHOT="$LOGDIR/package-installed.png"
rm -f "$SHOT"
timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" reasonix-desktop gui --data-dir "$D" --demo \
	--screenshot "$SHOT" --screenshot-after 5s --exit-after 8s >>"$LOGDIR/package-run.log" 2>&1 ||
	fail "the installed app exited non-zero (see $LOGDIR/package-run.log)"
[ -s "$SHOT" ] || fail "no screenshot at $SHOT"
echo "package-check: $deb installed and started; screenshot $SHOT"
