#!/usr/bin/env bash
# scripts/windows/installer-check.sh SETUP LOGDIR — run by package-check.sh
# when `make package` built the Windows installer: under wine (the lane's
# 64-bit prefix, with its ProcessPrng shim: scripts/windows/lane.sh makes
# it), installs SETUP silently (/S) for the current user, checks the files
# and the uninstall entry, installs echo-provider from the installed
# examples with the installed console build and chats with it, then runs
# the uninstaller silently and checks that nothing is left.
set -euo pipefail

SETUP="$(realpath "$1")"
LOGDIR="$2"
LOG="$LOGDIR/windows-installer.log"
: >"$LOG"
WINE_LANE_DIR="${WINE_LANE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reasonix-wine-lane}"
export WINEPREFIX="$WINE_LANE_DIR/prefix" WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
fail() {
	echo "installer-check: FAIL: $*" | tee -a "$LOG" >&2
	exit 1
}
[ -d "$WINEPREFIX" ] || fail "no wine prefix at $WINEPREFIX (make test-windows makes it)"
# The per-user default, %LOCALAPPDATA%\Programs\Reasonix Desktop (wine's
# user folder is named after the Unix user).
WUSER="$(id -un)"
APPDATA_UNIX="$WINEPREFIX/drive_c/users/$WUSER/AppData/Local/Programs/Reasonix Desktop"
INST='C:\users\'"$WUSER"'\AppData\Local\Programs\Reasonix Desktop'
D="$(mktemp -d)"
trap 'rm -rf "$D"' EXIT
cd "$D"

timeout 180 wine "$SETUP" /S >>"$LOG" 2>&1 || fail "the silent install exited non-zero"
wineserver -w
for f in reasonix-desktop.exe reasonix-desktop-cli.exe uninstall.exe examples/echo-provider/bin/echo-provider.exe \
	examples/echo-provider/reasonix-plugin.json; do
	[ -e "$APPDATA_UNIX/$f" ] || fail "$f not installed in $APPDATA_UNIX"
done
wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\ReasonixDesktop' >>"$LOG" 2>&1 ||
	fail "no uninstall entry in the registry"

DATA="Z:$(echo "$D/data" | tr / '\\')"
CLI="$INST\\reasonix-desktop-cli.exe"
timeout 180 wine "$CLI" plugin install --yes --data-dir "$DATA" "$INST\\examples\\echo-provider" >>"$LOG" 2>&1 ||
	fail "plugin install from the installed examples"
out=$(timeout 180 wine "$CLI" chat --headless --data-dir "$DATA" --model plugin/echo-provider/echo/echo-1 \
	--prompt "hi from the installer" 2>>"$LOG") || fail "a headless chat through the installed console build"
echo "$out" >>"$LOG"
case "$out" in
*"Echo: hi from the installer"*) ;;
*) fail "the installed app answered: $out" ;;
esac

timeout 120 wine "$INST\\uninstall.exe" /S >>"$LOG" 2>&1 || fail "the silent uninstall exited non-zero"
wineserver -w # the uninstaller runs a copy of itself from the temp folder
[ ! -e "$APPDATA_UNIX" ] || fail "the uninstaller left $APPDATA_UNIX"
if wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\ReasonixDesktop' >/dev/null 2>&1; then
	fail "the uninstall entry is still in the registry"
fi
echo "installer-check: $(basename "$SETUP") installed, chatted and uninstalled under wine" | tee -a "$LOG"
