#!/bin/sh
# Installs a QuantLens .deb into a clean Debian 12 root made by debootstrap and runs what a user runs first:
# `quantlens-cli --version`, a lint of the bundled sample, and `quantlens --screenshot` (offscreen). Needs root and
# Debian's package mirror; takes a few minutes. Usage: packaging/check_package.sh build/quantlens_*.deb [ROOT]
set -eu
deb=$(readlink -f "$1")
root=${2:-$(mktemp -d /tmp/quantlens-root.XXXXXX)}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ -f "$deb" ] || { echo "check_package: no package at $1" >&2; exit 2; }
[ -x "$root/usr/bin/apt-get" ] || debootstrap --variant=minbase bookworm "$root" "$mirror"
cp "$deb" "$root/tmp/quantlens.deb"
mount -t proc proc "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" sh -ec '
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq /tmp/quantlens.deb >/dev/null
  quantlens-cli --version
  test -x /usr/libexec/quantlens/quantlens-onnx-check
  quantlens-cli lint /usr/share/quantlens/samples/digits_cnn.onnx
  if quantlens-cli inspect /usr/share/quantlens/samples/digits_cnn.onnx 2>&1 | grep quantlens-onnx-check; then exit 1; fi
  QT_QPA_PLATFORM=offscreen quantlens --screenshot /tmp/window.png /usr/share/quantlens/samples/digits_cnn.onnx
  test -s /tmp/window.png
  test -f /usr/share/icons/hicolor/256x256/apps/quantlens.png
  test -f /usr/share/metainfo/io.github.quantlens.QuantLens.metainfo.xml
  test -f /usr/share/man/man1/quantlens-cli.1
  echo "check_package: the package installs and runs in a clean Debian 12"
'
cp "$root/tmp/window.png" "${SCREENSHOT:-/tmp/quantlens-package-window.png}"
