#!/bin/sh
# Installs the Debian 12 packages QuantLens needs to build, run and test, when they are missing.
# QL_EXTRA_PACKAGES adds packages (make deps-clang: clang for the fuzz and TSan builds).
# Uses sudo when not run as root. Safe to run again: it does nothing when everything is present.
set -eu

PACKAGES="
cmake ninja-build pkg-config ccache g++ make
qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6 qt6-qpa-plugins
libonnx-dev libprotobuf-dev protobuf-compiler libeigen3-dev libdnnl-dev ocl-icd-opencl-dev opencl-headers
libgraphviz-dev nlohmann-json3-dev libstb-dev libcli11-dev zlib1g-dev
libgtest-dev libgmock-dev libbenchmark-dev
xvfb xauth imagemagick
libonnx-testdata python3 python3-onnx python3-numpy
${QL_EXTRA_PACKAGES:-}
"

missing=""
for p in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done

[ -z "$missing" ] && exit 0

echo "Installing missing packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "error: these packages are missing and neither root nor sudo is available:$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $missing
