#!/bin/sh
# Installs the Debian packages cfgfuzz's tests need, when missing:
# spirv-tools (spirv-val, libSPIRV-Tools.a and headers), lavapipe with the
# Vulkan loader (mesa-vulkan-drivers, libvulkan-dev) for the driver check,
# and pkg-config and a C/C++ compiler for cgo.
set -eu
need=""
command -v spirv-val >/dev/null 2>&1 || need="$need spirv-tools"
[ -f /usr/include/spirv-tools/libspirv.h ] || need="$need spirv-tools"
dpkg -s mesa-vulkan-drivers >/dev/null 2>&1 || need="$need mesa-vulkan-drivers"
dpkg -s libvulkan-dev >/dev/null 2>&1 || need="$need libvulkan-dev"
# cgo: the in-process validator and the Vulkan executor (pkg-config vulkan).
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v gcc >/dev/null 2>&1 || need="$need gcc g++"
[ -z "$need" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# Wait for another apt/dpkg to finish (fresh machines run unattended upgrades).
for _ in $(seq 1 120); do
  if ! fuser /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock >/dev/null 2>&1; then break; fi
  sleep 2
done
echo "installing:$need" >&2
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need
