#!/bin/bash -eu
# build.sh: ClusterFuzzLite build of cfgfuzz's native Go fuzz target.
#
# FuzzStructurize (fuzz/harness_test.go) is compiled into a libFuzzer
# binary by compile_native_go_fuzzer, which rewrites the testing.F harness
# through AdamKorcz/go-118-fuzz-build. The seed corpus is the regression
# suite encoded as fuzzer bytes (go run ./corpus/fuzzseeds). The build
# links libSPIRV-Tools.a through cgo (the Dockerfile installs spirv-tools
# with its headers), so the validator runs in-process on the runner, which
# has no spirv-val executable.

cd "$SRC/cfgfuzz"

# compile_native_go_fuzzer needs the testing shim in the module graph.
go get github.com/AdamKorcz/go-118-fuzz-build/testing

compile_native_go_fuzzer github.com/cfgfuzz/cfgfuzz/fuzz FuzzStructurize fuzz_structurize

seeds="$WORK/fuzz_structurize_seeds"
go run ./corpus/fuzzseeds -out "$seeds"
(cd "$seeds" && zip -q "$OUT/fuzz_structurize_seed_corpus.zip" ./*)
