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
#
# Before apt-get runs, it waits for another apt or dpkg (fresh machines
# run unattended upgrades) to release the locks apt-get takes: dpkg's,
# apt's package lists (apt-get update) and its download cache; at most
# CFGFUZZ_APT_WAIT seconds (300 by default), then it fails naming them.
set -eu
# need: the packages to install, each once.
need=""
add() {
  case " $need " in
  *" $1 "*) ;;
  *) need="$need $1" ;;
  esac
}
# The validator and, for cgo, its header and library: one package.
command -v spirv-val >/dev/null 2>&1 || add spirv-tools
[ -f /usr/include/spirv-tools/libspirv.h ] || add spirv-tools
dpkg -s libvulkan-dev >/dev/null 2>&1 || add libvulkan-dev
# cgo: the in-process validator and the Vulkan executor (pkg-config vulkan).
command -v pkg-config >/dev/null 2>&1 || add pkg-config
command -v gcc >/dev/null 2>&1 || add gcc
# The example adapters (fuzz/examples): the C++ one is built with g++, the
# Rust one with rustc (any release since 1.63, bookworm's), the Python one
# run with python3.
command -v g++ >/dev/null 2>&1 || add g++
command -v rustc >/dev/null 2>&1 || add rustc
command -v python3 >/dev/null 2>&1 || add python3
# cmd/cfgfuzz's TestLintCompiledShaders compiles GLSL and HLSL with it.
command -v glslangValidator >/dev/null 2>&1 || add glslang-tools

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
wait_s=${CFGFUZZ_APT_WAIT:-300}
case "$wait_s" in
"" | *[!0-9]*) echo "deps.sh: CFGFUZZ_APT_WAIT=$wait_s: want a number of seconds" >&2; exit 2 ;;
esac
# apt-get's own wait for dpkg's lock, should another apt start after the
# wait below; it does not cover the package lists' lock.
apt() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$wait_s" "$@"; }
# Wait for another apt or dpkg to release its locks (fuser, from psmisc:
# without it there is no telling, and apt-get says so if one is held).
locks="/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock"
waited=0
# shellcheck disable=SC2086 # the locks are words
while command -v fuser >/dev/null 2>&1 && $sudo fuser $locks >/dev/null 2>&1; do
  if [ "$waited" -ge "$wait_s" ]; then
    echo "deps.sh: another apt or dpkg still holds one of $locks after ${wait_s}s; run make deps again once it is done (CFGFUZZ_APT_WAIT=SECONDS waits longer)" >&2
    exit 1
  fi
  [ "$waited" -eq 0 ] && echo "deps.sh: waiting up to ${wait_s}s for another apt or dpkg to release its lock ($locks)" >&2
  sleep 2
  waited=$((waited + 2))
done
if [ "$mesa" = backports ] && ! grep -rqs '^deb .* bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo 'deb http://deb.debian.org/debian bookworm-backports main' | $sudo tee /etc/apt/sources.list.d/cfgfuzz-bookworm-backports.list >/dev/null
fi
[ "$mesa" = system ] && add mesa-vulkan-drivers
shown=$need
[ "$mesa" = backports ] && shown="$shown mesa-vulkan-drivers (bookworm-backports)"
echo "installing:$shown" >&2
apt update -q
[ -n "$need" ] && apt install -y -q $need
if [ "$mesa" = backports ]; then
  apt install -y -q -t bookworm-backports mesa-vulkan-drivers
fi
