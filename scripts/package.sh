#!/usr/bin/env bash
# scripts/package.sh — `make package`: installable packages in bin/pkg/:
#   reasonix-desktop_<v>_amd64.deb and reasonix-desktop-<v>-1.x86_64.rpm
#     (nfpm, run with `go run` at a pinned version; the .desktop entry, the
#     icon, and the example plugins under /usr/share/reasonix-desktop/examples),
#   reasonix-desktop-<v>-windows-amd64-setup.exe (NSIS, Debian's makensis),
#   reasonix-desktop-<v>-windows-amd64.zip (portable: unzip and run).
# The Windows GUI is cross-compiled with cgo through mingw-w64. PKG_WINDOWS=0
# skips the Windows packages. macOS (.app/.dmg) needs a Mac: see README.
set -euo pipefail

cd "$(dirname "$0")/.."
VERSION="${VERSION:-0.1.0}"
NFPM="github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2"
PKG_WINDOWS="${PKG_WINDOWS:-1}"
OUT=bin/pkg
rm -rf "$OUT"
mkdir -p "$OUT/linux/examples"

need() { # command package
	command -v "$1" >/dev/null && return
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$2"
}

# stage_examples GOOS DIR EXT: each example's manifest and its sidecar at
# bin/<name><EXT>, where ${REASONIX_PLUGIN_ROOT}/bin/<name> finds it; an xdev
# extension (no manifest) in xdev/.
stage_examples() {
	for e in examples/*/; do
		e=$(basename "$e")
		[ -f "examples/$e/main.go" ] || continue
		dst="$2/xdev/$e$3" # an xdev v1 extension: the executable alone
		if [ -f "examples/$e/reasonix-plugin.json" ]; then
			mkdir -p "$2/$e/bin"
			cp "examples/$e/reasonix-plugin.json" "$2/$e/"
			dst="$2/$e/bin/$e$3"
		fi
		GOOS="$1" GOARCH=amd64 CGO_ENABLED=0 nice go build -ldflags "-s -w" -o "$dst" "./examples/$e"
	done
}

echo "package: linux binary and examples"
CGO_ENABLED=1 nice go build -ldflags "-s -w -X main.version=$VERSION" -o "$OUT/linux/reasonix-desktop" ./cmd/reasonix-desktop
stage_examples linux "$OUT/linux/examples" ""
for p in deb rpm; do
	echo "package: .$p"
	VERSION="$VERSION" ARCH=amd64 go run "$NFPM" package --config packaging/linux/nfpm.yaml --packager "$p" --target "$OUT/"
done

if [ "$PKG_WINDOWS" = 1 ]; then
	need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
	need makensis nsis
	need zip zip
	W="$OUT/windows/Reasonix Desktop"
	mkdir -p "$W/examples"
	echo "package: windows GUI (cgo, mingw-w64)"
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc nice go build \
		-ldflags "-s -w -H=windowsgui -X main.version=$VERSION" -o "$W/reasonix-desktop.exe" ./cmd/reasonix-desktop
	# The console build for chat --headless and plugin commands in a terminal
	# (a windowsgui binary has no console to print to).
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 nice go build -tags nogui \
		-ldflags "-s -w -X main.version=$VERSION" -o "$W/reasonix-desktop-cli.exe" ./cmd/reasonix-desktop
	stage_examples windows "$W/examples" ".exe"
	cp LICENSE README.md assets/icon.png "$W/"
	echo "package: windows zip and installer"
	(cd "$OUT/windows" && zip -qr "../reasonix-desktop-$VERSION-windows-amd64.zip" "Reasonix Desktop")
	makensis -V2 -DVERSION="$VERSION" -DSRC="$(realpath "$W")" \
		-DOUT="$(realpath "$OUT")/reasonix-desktop-$VERSION-windows-amd64-setup.exe" packaging/windows/installer.nsi
fi
ls -l "$OUT"
