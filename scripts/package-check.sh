#!/usr/bin/env bash
# scripts/package-check.sh — installs bin/pkg/*.deb with dpkg (apt-get -f
# for its dependencies) and starts the installed /usr/bin/reasonix-desktop
# under Xvfb: the example plugins installed from
# /usr/share/reasonix-desktop/examples, --demo, a screenshot after 5 s
# ($LOGDIR/package-installed.png), a clean quit after 8 s. Fails when the
# package does not install, the .desktop entry or icon is missing, the app
# exits non-zero or leaves no screenshot. Then the .rpm, unpacked into a
# scratch root, runs a headless chat (see below); and Chinese renders
# through the packages' font recommendation (package-check-cjk.sh). Needs
# root (or sudo).
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
timeout 120 xvfb-run -a -s "-screen 0 1280x800x24 -noreset" reasonix-desktop gui --data-dir "$D" --demo \
	--screenshot "$SHOT" --screenshot-after 5s --exit-after 8s >>"$LOGDIR/package-run.log" 2>&1 ||
	fail "the installed app exited non-zero (see $LOGDIR/package-run.log)"
[ -s "$SHOT" ] || fail "no screenshot at $SHOT"
echo "package-check: $deb installed and started; screenshot $SHOT"

# The .rpm: this is a Debian machine, so it is not installed into the
# system's rpm database; its payload is unpacked into a scratch root
# (rpm2cpio | cpio, what rpm -i writes) and the binary it carries runs
# from there: the same files at the same paths, the examples installed
# from it, and a headless chat with the echo model.
rpm=$(ls bin/pkg/reasonix-desktop-*.x86_64.rpm 2>/dev/null | head -n 1)
[ -n "$rpm" ] || fail "no .rpm in bin/pkg (run make package)"
for t in rpm2cpio:rpm2cpio cpio:cpio; do
	command -v "${t%%:*}" >/dev/null ||
		DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${t#*:}" >>"$LOGDIR/package-dpkg.log" 2>&1 ||
		fail "cannot install ${t#*:} to check the .rpm"
done
# Its requirements are libraries' sonames, which every rpm distribution
# provides by its own package names (Debian's names match nothing there).
if command -v rpm >/dev/null; then
	bad=$(rpm -qp --requires "$rpm" 2>>"$LOGDIR/package-dpkg.log" | grep -vE '^(lib[A-Za-z0-9_.+-]+\.so\.[0-9]+\(\)\(64bit\)|rpmlib\(.*|/bin/sh)$' || true)
	[ -z "$bad" ] || fail "$rpm requires what no rpm distribution provides: $bad"
fi
R="$D/rpmroot"
mkdir -p "$R"
# Debian's rpm2cpio (4.18) exits 1 on nfpm's packages although it writes
# the whole payload; cpio checks the archive through to its trailer, and
# the files are checked below.
rpm2cpio "$rpm" >"$D/payload.cpio" 2>>"$LOGDIR/package-dpkg.log" || true
(cd "$R" && cpio -idm --no-absolute-filenames --quiet <"$D/payload.cpio") 2>>"$LOGDIR/package-dpkg.log" || fail "unpack $rpm"
for f in usr/bin/reasonix-desktop usr/share/applications/io.reasonix.desktop.desktop \
	usr/share/icons/hicolor/256x256/apps/io.reasonix.desktop.png \
	usr/share/reasonix-desktop/examples/echo-provider/bin/echo-provider; do
	[ -e "$R/$f" ] || fail "/$f not in $rpm"
done
RD="$D/rpmdata"
"$R/usr/bin/reasonix-desktop" plugin install --yes --data-dir "$RD" "$R/usr/share/reasonix-desktop/examples/echo-provider" >>"$LOGDIR/package-run.log" 2>&1 ||
	fail "plugin install echo-provider from the .rpm's files"
out=$(timeout 60 "$R/usr/bin/reasonix-desktop" chat --headless --data-dir "$RD" --model plugin/echo-provider/echo/echo-1 --prompt "hi from the rpm" 2>>"$LOGDIR/package-run.log") ||
	fail "a headless chat through the .rpm's binary"
case "$out" in
*"Echo: hi from the rpm"*) ;;
*) fail "the .rpm's binary answered: $out" ;;
esac
echo "package-check: $rpm unpacked; its binary installed a plugin and chatted"

# Chinese on a machine without CJK fonts: the packages recommend Noto CJK;
# the .deb installed by apt on a minimal Debian draws Chinese with it, and
# boxes without it (scripts/package-check-cjk.sh; screenshots
# $LOGDIR/package-cjk-*.png).
$SUDO env LOGDIR="$LOGDIR" bash scripts/package-check-cjk.sh "$deb" "$rpm" || fail "Chinese text (see $LOGDIR/package-cjk.log)"

# The Windows installer (NSIS, 64-bit): installed, used and uninstalled
# under wine, when make package built it (PKG_WINDOWS=1, the default).
setup=$(ls bin/pkg/reasonix-desktop-*-windows-amd64-setup.exe 2>/dev/null | head -n 1 || true) # none with PKG_WINDOWS=0
if [ -n "$setup" ]; then
	bash scripts/windows/installer-check.sh "$setup" "$LOGDIR" || fail "the Windows installer (see $LOGDIR/windows-installer.log)"
fi
