#!/bin/bash -eu
# build.sh: OSS-Fuzz build of cfgfuzz's native Go fuzz target.
#
# FuzzStructurize (fuzz/harness_test.go) is compiled into a libFuzzer
# binary by compile_native_go_fuzzer, which rewrites the testing.F harness
# through AdamKorcz/go-118-fuzz-build. The seed corpus is the regression
# suite encoded as fuzzer bytes (corpus/oss-fuzz/seeds). spirv-val is not in
# the runner image, so the harness runs every other oracle check there
# (corpus.AllChecks leaves out a check whose tool is missing).
#
# Local try-out with OSS-Fuzz's helper, from an oss-fuzz checkout holding
# projects/cfgfuzz/{build.sh,Dockerfile,project.yaml} copied from here:
#   python3 infra/helper.py build_image cfgfuzz
#   python3 infra/helper.py build_fuzzers cfgfuzz
#   python3 infra/helper.py run_fuzzer cfgfuzz fuzz_structurize

cd "$SRC/cfgfuzz"

# compile_native_go_fuzzer needs the testing shim in the module graph.
go get github.com/AdamKorcz/go-118-fuzz-build/testing

compile_native_go_fuzzer github.com/cfgfuzz/cfgfuzz/fuzz FuzzStructurize fuzz_structurize

seeds="$WORK/fuzz_structurize_seeds"
go run ./corpus/oss-fuzz/seeds -out "$seeds"
(cd "$seeds" && zip -q "$OUT/fuzz_structurize_seed_corpus.zip" ./*)
