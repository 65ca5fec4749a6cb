#!/usr/bin/env bash
# scripts/package-check-cjk.sh DEB RPM — does the installed app render
# Chinese on a machine that had no CJK font? (issue 38; package-check.sh
# runs it with the .deb installed). Fyne bundles Latin fonts only and
# draws any other script with a font of the system; a minimal system has
# none, and every Chinese character is then the same replacement box.
#
#  1. The .deb recommends fonts-noto-cjk and the .rpm
#     google-noto-sans-cjk-fonts (apt and dnf install recommendations by
#     default).
#  2. The installed app runs in a mount namespace (bwrap) in which the
#     system's font folders are empty: a machine without CJK fonts. Then
#     again with /usr/share/fonts holding what fonts-noto-cjk installs
#     (the package fetched with apt-get download, unpacked): the machine
#     after apt installed the .deb with its recommendation.
#  3. Each time it opens a saved chat whose text is 32 Chinese characters,
#     and once more the same chat with 32 others (the same session file,
#     the characters replaced: same layout, same times). Without the font
#     the two screenshots are the same (boxes do not depend on the
#     character: this is the check seeing boxes; a few hundred pixels may
#     differ where the window is still settling, e.g. the context meter);
#     with it thousands of pixels differ (each character drawn as itself).
# Screenshots: $LOGDIR/package-cjk-{none,noto}-{1,2}.png. BIN and EXAMPLES
# default to the installed /usr/bin/reasonix-desktop and its examples.
# Needs root (or sudo) only to install bwrap, compare or xvfb-run if
# missing. Not a container: no container runtime runs here, so the
# system's fonts are hidden from the app rather than never installed.
set -euo pipefail

cd "$(dirname "$0")/.."
deb=${1:?usage: package-check-cjk.sh DEB RPM}
rpm=${2:?usage: package-check-cjk.sh DEB RPM}
LOGDIR="${LOGDIR:-./ci-logs}"
mkdir -p "$LOGDIR"
LOGDIR="$(cd "$LOGDIR" && pwd)"
BIN="${BIN:-/usr/bin/reasonix-desktop}"
EXAMPLES="${EXAMPLES:-/usr/share/reasonix-desktop/examples}"
LOG="$LOGDIR/package-cjk.log"
: >"$LOG"
fail() { echo "package-check-cjk: FAIL: $*" >&2; exit 1; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
need() { # command package
	command -v "$1" >/dev/null && return
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$2" >>"$LOG" 2>&1 ||
		fail "cannot install $2 (see $LOG)"
}
need bwrap bubblewrap
need compare imagemagick
need xvfb-run xvfb

# 1. The recommendations.
rec=$(dpkg-deb -f "$deb" Recommends)
case ", $rec," in *", fonts-noto-cjk,"*) ;; *) fail "$deb recommends '$rec', not fonts-noto-cjk" ;; esac
if command -v rpm >/dev/null; then
	rpm -qp --recommends "$rpm" 2>>"$LOG" | grep -qx 'google-noto-sans-cjk-fonts' ||
		fail "$rpm does not recommend google-noto-sans-cjk-fonts"
else # no rpm here: the name stands in the header's plain text
	grep -aq 'google-noto-sans-cjk-fonts' "$rpm" || fail "$rpm does not recommend google-noto-sans-cjk-fonts"
fi
echo "package-check-cjk: the .deb recommends fonts-noto-cjk, the .rpm google-noto-sans-cjk-fonts"

D="$(mktemp -d)"
trap 'rm -rf "$D"' EXIT

# 2. What fonts-noto-cjk installs, kept between runs (56 MB).
CACHE="${CJK_CACHE:-bin/pkg-cache}"
mkdir -p "$CACHE"
font_deb=$(ls "$CACHE"/fonts-noto-cjk_*_all.deb 2>/dev/null | head -n 1 || true)
if [ -z "$font_deb" ]; then
	(cd "$CACHE" && apt-get download fonts-noto-cjk) >>"$LOG" 2>&1 ||
		{ $SUDO apt-get update -qq >>"$LOG" 2>&1 && (cd "$CACHE" && apt-get download fonts-noto-cjk) >>"$LOG" 2>&1; } ||
		fail "apt-get download fonts-noto-cjk (see $LOG)"
	font_deb=$(ls "$CACHE"/fonts-noto-cjk_*_all.deb | head -n 1)
fi
dpkg-deb -x "$font_deb" "$D/fonts-noto-cjk"
mv "$D/fonts-noto-cjk/usr/share/fonts" "$D/noto"
[ -n "$(find "$D/noto" -name 'NotoSansCJK*' -print -quit)" ] || fail "$font_deb holds no Noto Sans CJK"
mkdir -p "$D/none"

# 3. A saved chat in Chinese, and its twin with other characters.
T1="天地玄黄宇宙洪荒天地玄黄宇宙洪荒天地玄黄宇宙洪荒天地玄黄宇宙洪荒"
T2="日月盈昃辰宿列张日月盈昃辰宿列张日月盈昃辰宿列张日月盈昃辰宿列张" # as many characters, as many bytes
"$BIN" plugin install --yes --data-dir "$D/data" "$EXAMPLES/echo-provider" >>"$LOG" 2>&1 ||
	fail "plugin install echo-provider (see $LOG)"
out=$(timeout 60 "$BIN" chat --headless --data-dir "$D/data" --model plugin/echo-provider/echo/echo-1 --prompt "$T1" 2>>"$LOG") ||
	fail "the headless chat in Chinese (see $LOG)"
case "$out" in *"Echo: $T1"*) ;; *) fail "the echo model answered: $out" ;; esac
session=$(basename "$(grep -l "$T1" "$D"/data/sessions/*.json | head -n 1)" .json)
[ -n "$session" ] || fail "no saved session holds the chat"

# shot FONTS N: the window of the saved chat (text N) with FONTS as the
# system's fonts, in a fresh home (Fyne caches its font index there).
shot() {
	local fonts=$1 n=$2 run="$D/run-$1-$2" png="$LOGDIR/package-cjk-$1-$2.png"
	cp -a "$D/data" "$run"
	[ "$n" = 1 ] || sed -i "s/$T1/$T2/g" "$run"/sessions/*.json
	mkdir -p "$run/home"
	rm -f "$png"
	timeout 120 xvfb-run -a -s "-screen 0 1280x800x24 -noreset" \
		bwrap --bind / / --dev-bind /dev /dev --proc /proc \
		--ro-bind "$D/$fonts" /usr/share/fonts --tmpfs /usr/local/share/fonts \
		--setenv HOME "$run/home" --setenv XDG_CACHE_HOME "$run/home/.cache" \
		--setenv XDG_DATA_HOME "$run/home/.local/share" --setenv XDG_CONFIG_HOME "$run/home/.config" \
		"$BIN" gui --data-dir "$run" --session "$session" --theme light \
		--screenshot "$png" --screenshot-after 5s --exit-after 8s >>"$LOG" 2>&1 ||
		fail "the app with fonts '$fonts' exited non-zero (see $LOG)"
	[ -s "$png" ] || fail "no screenshot at $png"
}
for f in none noto; do
	shot "$f" 1
	shot "$f" 2
done
# differ A B: how many pixels differ (compare exits 1 when some do).
differ() { compare -metric AE "$1" "$2" null: 2>&1 >/dev/null | cut -d' ' -f1 || true; }
s="$LOGDIR/package-cjk"
none=$(differ "$s-none-1.png" "$s-none-2.png")
noto=$(differ "$s-noto-1.png" "$s-noto-2.png")
fixed=$(differ "$s-none-1.png" "$s-noto-1.png")
echo "package-check-cjk: pixels that differ: two texts without CJK fonts $none, with Noto CJK $noto; one text without and with $fixed" | tee -a "$LOG"
[ "$noto" -ge 5000 ] && [ "$fixed" -ge 5000 ] || fail "with fonts-noto-cjk's fonts the Chinese text still draws as boxes"
[ $((none * 10)) -lt "$noto" ] || fail "without CJK fonts two Chinese texts drew differently ($none pixels): the check cannot tell boxes from text (a system font left visible?)"
echo "package-check-cjk: without CJK fonts every character is the same box; with fonts-noto-cjk Chinese renders ($s-noto-1.png)"
