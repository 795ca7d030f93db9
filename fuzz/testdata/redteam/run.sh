#!/bin/sh
# run.sh builds cfgfuzz, the red-team server and its driver, and runs every
# misbehaving server mode against a short campaign (driver/main.go says what
# each row shows). Usage, from anywhere in the repository:
#   fuzz/testdata/redteam/run.sh [driver flags, e.g. -modes hang,detach -graphs 10]
# Linux only. Exit status 1 when a mode is not contained.
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cd "$root"
go build -o "$bin/cfgfuzz" ./cmd/cfgfuzz
go build -o "$bin/server" ./fuzz/testdata/redteam/server
go build -o "$bin/driver" ./fuzz/testdata/redteam/driver
"$bin/driver" -cfgfuzz "$bin/cfgfuzz" -server "$bin/server" "$@"
