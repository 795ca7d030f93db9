#!/bin/sh
# Installs the Debian packages cfgfuzz's tests need, when missing:
# spirv-tools (spirv-val, libSPIRV-Tools.a and headers), lavapipe with the
# Vulkan loader (mesa-vulkan-drivers, libvulkan-dev) for the driver check,
# pkg-config and a C/C++ compiler for cgo, rustc and python3 for the
# Rust and Python example adapters, and glslang-tools (glslangValidator)
# for the lint test on compiled shaders.
#
# Lavapipe comes from the release's Mesa (22.3 on bookworm): with emit's
# lane guard every module of the gpu tests runs right on it, and it runs the
# exact modules under test (oracle/gpu/README.md). CFGFUZZ_MESA=backports
# takes Mesa 25.0 from Debian's bookworm-backports instead: the gpu tests
# pass on it too (modules bounded, since it does not cut runaway loops), but
# it compiles 5-7x slower and runs one known shape wrong.
set -eu
need=""
command -v spirv-val >/dev/null 2>&1 || need="$need spirv-tools"
[ -f /usr/include/spirv-tools/libspirv.h ] || need="$need spirv-tools"
dpkg -s libvulkan-dev >/dev/null 2>&1 || need="$need libvulkan-dev"
# cgo: the in-process validator and the Vulkan executor (pkg-config vulkan).
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
# The example adapters (fuzz/examples): the C++ one is built with g++, the
# Rust one with rustc (any release since 1.63, bookworm's), the Python one
# run with python3.
command -v g++ >/dev/null 2>&1 || need="$need g++"
command -v rustc >/dev/null 2>&1 || need="$need rustc"
command -v python3 >/dev/null 2>&1 || need="$need python3"
# cmd/cfgfuzz's TestLintCompiledShaders compiles GLSL and HLSL with it.
command -v glslangValidator >/dev/null 2>&1 || need="$need glslang-tools"

# mesa: "" (installed, recent enough), "system" or "backports".
mesa=""
mesa_version=$(dpkg-query -W -f '${Version}' mesa-vulkan-drivers 2>/dev/null || true)
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
case "$mesa_version" in
"" | 2[0-2].*)
  if [ "$codename" = bookworm ] && [ "${CFGFUZZ_MESA:-}" = backports ]; then
    mesa=backports
  elif [ -z "$mesa_version" ]; then
    mesa=system
  fi
  ;;
esac
[ -z "$need" ] && [ -z "$mesa" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }
# Wait for another apt/dpkg to finish (fresh machines run unattended upgrades).
for _ in $(seq 1 120); do
  if ! fuser /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock >/dev/null 2>&1; then break; fi
  sleep 2
done
if [ "$mesa" = backports ] && ! grep -rqs '^deb .* bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo 'deb http://deb.debian.org/debian bookworm-backports main' | $sudo tee /etc/apt/sources.list.d/cfgfuzz-bookworm-backports.list >/dev/null
fi
[ "$mesa" = system ] && need="$need mesa-vulkan-drivers"
echo "installing:$need${mesa:+ mesa-vulkan-drivers ($mesa)}" >&2
apt update -q
[ -n "$need" ] && apt install -y -q $need
if [ "$mesa" = backports ]; then
  apt install -y -q -t bookworm-backports mesa-vulkan-drivers
fi
