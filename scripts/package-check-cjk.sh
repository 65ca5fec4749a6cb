#!/usr/bin/env bash
# scripts/package-check-cjk.sh DEB RPM — does the .deb, installed on a
# machine without CJK fonts, render Chinese? (issue 38; package-check.sh
# runs it). Fyne bundles Latin fonts only and draws any other script with
# a font of the system; a minimal system has none, and every Chinese
# character is then the same replacement box.
#
#  1. The .deb recommends fonts-noto-cjk and the .rpm Fedora's Noto Sans
#     CJK (the variable-font package or the static one).
#  2. Two minimal Debian systems of the host's release (mmdebstrap
#     --variant=apt: no font at all), run as roots with bwrap. In one, the
#     .deb is installed the way a user installs it (apt-get install
#     ./….deb: with its recommendations); in the other with
#     --no-install-recommends, the machine that stays without CJK fonts.
#  3. In each, the app opens a saved chat whose text is 32 Chinese
#     characters, and once more the same chat with 32 others (the same
#     session file, the characters replaced: same layout, same times), on
#     the host's Xvfb. Without the font the two screenshots are the same
#     (a box does not depend on the character: this is the check seeing
#     boxes; a few hundred pixels may differ where the window is still
#     settling, such as the context meter); with it thousands of pixels
#     differ (each character drawn as itself).
# Screenshots: $LOGDIR/package-cjk-{none,noto}-{1,2}.png; log
# $LOGDIR/package-cjk.log. Needs root (bwrap runs the roots as root, apt
# installs in them) and the Debian mirror; about 2 minutes.
set -euo pipefail

cd "$(dirname "$0")/.."
deb=${1:?usage: package-check-cjk.sh DEB RPM}
rpm=${2:?usage: package-check-cjk.sh DEB RPM}
deb="$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
LOGDIR="${LOGDIR:-./ci-logs}"
mkdir -p "$LOGDIR"
LOGDIR="$(cd "$LOGDIR" && pwd)"
LOG="$LOGDIR/package-cjk.log"
: >"$LOG"
fail() {
	echo "package-check-cjk: FAIL: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || fail "needs root: apt installs into the scratch systems and bwrap runs them as root"
need() { # command package
	command -v "$1" >/dev/null && return
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >>"$LOG" 2>&1 ||
		fail "cannot install $2 (see $LOG)"
}
need bwrap bubblewrap
need mmdebstrap mmdebstrap
need compare imagemagick
need Xvfb xvfb
need xdotool xdotool

# 1. The recommendations.
rec=$(dpkg-deb -f "$deb" Recommends)
case ", $rec," in *", fonts-noto-cjk,"*) ;; *) fail "$deb recommends '$rec', not fonts-noto-cjk" ;; esac
want='(google-noto-sans-cjk-vf-fonts or google-noto-sans-cjk-fonts)'
if command -v rpm >/dev/null; then
	rpm -qp --recommends "$rpm" 2>>"$LOG" | grep -qxF "$want" || fail "$rpm does not recommend $want"
else # no rpm here: the names stand in the header's plain text
	grep -aqF "$want" "$rpm" || fail "$rpm does not recommend $want"
fi
echo "package-check-cjk: the .deb recommends fonts-noto-cjk, the .rpm $want"

D="$(mktemp -d)"
XVFB=""
. scripts/xvfb-lib.sh
trap 'stop_pids "$XVFB"; rm -rf "$D"' EXIT

# inside ROOT CMD...: CMD run as root inside the scratch system ROOT, with the
# .deb at /pkg and the host's X display.
inside() {
	local root=$1
	shift
	bwrap --bind "$root" / --dev-bind /dev /dev --proc /proc --ro-bind "$(dirname "$deb")" /pkg \
		--bind /tmp/.X11-unix /tmp/.X11-unix --clearenv --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin \
		--setenv HOME /root --setenv DEBIAN_FRONTEND noninteractive --setenv DISPLAY "${DISPLAY:-}" \
		--setenv LANG C.UTF-8 "$@"
}

# 2. Two systems without fonts; the .deb installed with and without its
# recommendations.
. /etc/os-release
SUITE="${CJK_SUITE:-$VERSION_CODENAME}"
MIRROR="${CJK_MIRROR:-http://deb.debian.org/debian}"
mmdebstrap --variant=apt "$SUITE" "$D/base" "$MIRROR" >>"$LOG" 2>&1 || fail "mmdebstrap $SUITE (see $LOG)"
[ -z "$(find "$D/base/usr/share" -path '*/fonts/*' -type f -print -quit 2>/dev/null)" ] ||
	fail "the minimal $SUITE system already holds fonts"
cp -a "$D/base" "$D/none"
mv "$D/base" "$D/noto"
pkg="/pkg/$(basename "$deb")"
inside "$D/noto" sh -c "apt-get update -qq && apt-get install -y -q $pkg" >>"$LOG" 2>&1 ||
	fail "apt-get install ./$(basename "$deb") (see $LOG)"
inside "$D/none" sh -c "apt-get update -qq && apt-get install -y -q --no-install-recommends $pkg" >>"$LOG" 2>&1 ||
	fail "apt-get install --no-install-recommends ./$(basename "$deb") (see $LOG)"
inside "$D/noto" dpkg -s fonts-noto-cjk >/dev/null 2>&1 || fail "apt did not install fonts-noto-cjk with the .deb"
[ -z "$(find "$D/none/usr/share" -ipath '*fonts*cjk*' -print -quit)" ] || fail "a CJK font came without the recommendations"
echo "package-check-cjk: the .deb installed on minimal $SUITE systems: apt brought fonts-noto-cjk with it; without recommendations no CJK font"

# 3. A saved chat in Chinese, and its twin with other characters.
T1="天地玄黄宇宙洪荒天地玄黄宇宙洪荒天地玄黄宇宙洪荒天地玄黄宇宙洪荒"
T2="日月盈昃辰宿列张日月盈昃辰宿列张日月盈昃辰宿列张日月盈昃辰宿列张" # as many characters, as many bytes
mkdir -p "$D/x"
start_xvfb "$D/x" "$D/xvfb.log" || fail "Xvfb did not start: $(tail -n 3 "$D/xvfb.log")"
for sys in none noto; do
	root="$D/$sys"
	inside "$root" reasonix-desktop plugin install --yes --data-dir /root/data /usr/share/reasonix-desktop/examples/echo-provider >>"$LOG" 2>&1 ||
		fail "plugin install echo-provider on the $sys system (see $LOG)"
	out=$(inside "$root" timeout 60 reasonix-desktop chat --headless --data-dir /root/data --model plugin/echo-provider/echo/echo-1 --prompt "$T1" 2>>"$LOG") ||
		fail "the headless chat in Chinese on the $sys system (see $LOG)"
	case "$out" in *"Echo: $T1"*) ;; *) fail "the echo model answered: $out" ;; esac
	session=$(basename "$(grep -l "$T1" "$root"/root/data/sessions/*.json | head -n 1)" .json)
	[ -n "$session" ] || fail "no saved session holds the chat"
	for n in 1 2; do
		png="package-cjk-$sys-$n.png"
		rm -rf "$root/root/run" "$LOGDIR/$png"
		cp -a "$root/root/data" "$root/root/run"
		[ "$n" = 1 ] || sed -i "s/$T1/$T2/g" "$root"/root/run/sessions/*.json
		inside "$root" timeout 120 reasonix-desktop gui --data-dir /root/run --session "$session" --theme light \
			--screenshot "/root/$png" --screenshot-after 5s --exit-after 8s >>"$LOG" 2>&1 ||
			fail "the app on the $sys system exited non-zero (see $LOG)"
		[ -s "$root/root/$png" ] || fail "no screenshot $png"
		mv "$root/root/$png" "$LOGDIR/$png"
	done
done

# differ A B: how many pixels differ (compare exits 1 when some do).
differ() { compare -metric AE "$1" "$2" null: 2>&1 >/dev/null | cut -d' ' -f1 || true; }
s="$LOGDIR/package-cjk"
none=$(differ "$s-none-1.png" "$s-none-2.png")
noto=$(differ "$s-noto-1.png" "$s-noto-2.png")
fixed=$(differ "$s-none-1.png" "$s-noto-1.png")
echo "package-check-cjk: pixels that differ: two texts without CJK fonts $none, with fonts-noto-cjk $noto; one text without and with $fixed" | tee -a "$LOG"
[ "$noto" -ge 5000 ] && [ "$fixed" -ge 5000 ] || fail "with fonts-noto-cjk installed the Chinese text still draws as boxes"
[ $((none * 10)) -lt "$noto" ] || fail "without CJK fonts two Chinese texts drew differently ($none pixels): the check cannot tell boxes from text"
echo "package-check-cjk: without CJK fonts every character is the same box; installed with its recommendation the .deb renders Chinese ($s-noto-1.png)"
