#!/bin/sh
# `make build`'s first step: where cgo is on and a C header or library the
# build compiles against is missing, says what to do instead of go build's
# raw cgo error, and exits 2; so where cgo is off only because go found no
# C compiler (CGO_ENABLED not set, go env CC not on PATH), which would
# quietly build without what cgo brings. Silent (exit 0) where the build
# has what it needs, where cgo is off by CGO_ENABLED (the environment's or
# go env -w's), or when cross-compiling.
#
#   sh .ci/buildcheck.sh GO [GOFLAGS...]
#
# GO is the go command (make's $(GO)), GOFLAGS its flags (make's
# $(GOFLAGS)), of which only -tags is read. The headers are looked for as
# cgo looks for them: with `go env CC`, CGO_CPPFLAGS and CGO_CFLAGS; the
# Vulkan loader, under the vulkan tag, with pkg-config as oracle/gpu's
# `#cgo pkg-config: vulkan` does.
set -u
go=${1:-go}
[ $# -gt 0 ] && shift
tags=""
while [ $# -gt 0 ]; do
  case "$1" in
  -tags=* | --tags=*) tags=${1#*=} ;;
  -tags | --tags) [ $# -gt 1 ] && tags=$2 && shift ;;
  esac
  shift
done
# givesup says what a build without cgo gives up (README.md says it too).
givesup() {
  echo "$1 the in-process validator: the spirv-val check"
  echo "                              runs the spirv-val executable, a process a module (2.4 ms a module against 0.39 ms,"
  echo "                              oracle/README.md), and cannot run where no spirv-val is on PATH; SPIRV-Tools'"
  echo "                              disassembler: module.spvasm and min.spvasm are emit/spirv's text, enumerants as"
  echo "                              numbers; and the driver check (gpu: --checks +gpu, --gpu-every, bench --driver)"
}
cc=$($go env CC)
if [ "$($go env CGO_ENABLED 2>/dev/null)" != 1 ]; then
  [ -z "${CGO_ENABLED+set}" ] && [ -z "$($go env -changed CGO_ENABLED 2>/dev/null)" ] || exit 0
  [ "$($go env GOOS GOARCH)" = "$($go env GOHOSTOS GOHOSTARCH)" ] || exit 0
  command -v "${cc%% *}" >/dev/null 2>&1 && exit 0
  {
    echo "make build: cgo is off because no C compiler was found ($cc, go env CC, is not on PATH), and CGO_ENABLED is not set."
    givesup "A build without cgo gives up"
    echo "Either:"
    echo "  make deps && make build     install what is missing (Debian packages: .ci/deps.sh, gcc among them)"
    echo "  CGO_ENABLED=0 make build    build without cgo, giving those up"
  } >&2
  exit 2
fi
if ! command -v "${cc%% *}" >/dev/null 2>&1; then
  {
    echo "make build: cgo is on, but its C compiler ($cc, go env CC) is not found."
    echo "Either:"
    echo "  make deps && make build     install what is missing (Debian packages: .ci/deps.sh, gcc among them)"
    echo "  CGO_ENABLED=0 make build    build without cgo (README.md says what that gives up)"
  } >&2
  exit 2
fi
cflags="$($go env CGO_CPPFLAGS) $($go env CGO_CFLAGS)"
spirv=""
# shellcheck disable=SC2086 # CC and the flags are words, as cgo splits them
if ! printf '#include <spirv-tools/libspirv.h>\n' | $cc $cflags -E -x c - >/dev/null 2>&1; then
  spirv=missing
fi
vulkan=""
case ",$(echo "$tags" | tr ' ' ',')," in
*,vulkan,*) pkg-config --exists vulkan >/dev/null 2>&1 || vulkan=missing ;;
esac
[ -z "$spirv$vulkan" ] && exit 0
{
  if [ -n "$spirv" ]; then
    echo "make build: cgo is on ($cc), but the SPIRV-Tools header spirv-tools/libspirv.h is missing: the spirv-val check links libSPIRV-Tools in-process."
  fi
  if [ -n "$vulkan" ]; then
    echo "make build: the vulkan tag builds the driver check (oracle/gpu) against the Vulkan loader, but pkg-config finds no vulkan (libvulkan-dev, with pkg-config)."
  fi
  echo "Either:"
  echo "  make deps && make build     install what is missing (Debian packages: .ci/deps.sh), then build with everything"
  if [ -n "$spirv" ]; then
    givesup "  CGO_ENABLED=0 make build    build without cgo, which gives up"
  fi
  if [ -n "$vulkan" ] && [ -z "$spirv" ]; then
    echo "  make build TAGS=            build without the driver check (gpu: --checks +gpu, --gpu-every, bench --driver)"
  fi
} >&2
exit 2
