#!/bin/sh
# Installs the Debian 12 packages gpucc needs to build and test. Idempotent:
# when everything is installed already it changes nothing and needs no
# network. Run as root (or through sudo).
set -eu

PACKAGES="cmake ninja-build gcc libc6-dev pkg-config
libmlir-22-dev mlir-22-tools llvm-22-dev lld-22 clang-22 libclang-rt-22-dev
libarchive-dev libzstd-dev zlib1g-dev libffi-dev rocm-device-libs
libcurl4-openssl-dev nginx dpkg-dev file lintian
mesa-vulkan-drivers libvulkan1 libvulkan-dev spirv-tools vulkan-validationlayers"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  echo "setup: all packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    exec sudo "$0" "$@"
  fi
  echo "setup: need root to install:$missing" >&2
  exit 1
fi

echo "setup: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
