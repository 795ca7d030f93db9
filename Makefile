# cfgfuzz: the two commands for a fresh machine are `make demo` (set up and
# run the main job) and `make test` (set up and pass the tests).
GO        ?= go
# vulkan builds the driver executor (oracle/gpu) against libvulkan-dev,
# which `make deps` installs; TAGS= builds without it.
TAGS      ?= vulkan
GOFLAGS   ?= -tags=$(TAGS)
# cmd/cfgfuzz's tests take about 5 minutes on 2 cores: room past go test's
# 10-minute default on a slower or busier machine.
TESTFLAGS ?= -timeout 25m

.PHONY: all deps build demo test vet bench ci-recipes fuzz-parse fuzz-readers modmut clean

all: build

# Debian packages the tests need (.ci/deps.sh lists them: SPIRV-Tools,
# lavapipe and the Vulkan loader, compilers, glslang, ...). Installs only
# what is missing, each package once; first waits for another apt or dpkg
# to release dpkg's locks and apt's (the package lists', the download
# cache's), CFGFUZZ_APT_WAIT seconds at most (300), then fails saying so.
deps:
	@sh .ci/deps.sh

# BUILDID names the build in the campaigns it writes (fuzz/README.md, "One
# cfgfuzz per campaign"): shards built on several machines, or in several
# directories of one tree, merge only under one name, e.g.
# make build BUILDID="(devel) rev $$(git rev-parse HEAD)". Empty: the
# binary's version, revision and, without a clean revision, its digest.
BUILDID   ?=

# .ci/buildcheck.sh first: where cgo is on and SPIRV-Tools' header (or,
# under the vulkan tag, the Vulkan loader) is missing, or cgo is off only
# for want of a C compiler, it says what to do (make deps, or
# CGO_ENABLED=0 make build and what that gives up), exit 2.
build:
	@sh .ci/buildcheck.sh "$(GO)" $(GOFLAGS)
	$(GO) build $(GOFLAGS) $(if $(BUILDID),-ldflags "-X 'main.buildID=$(BUILDID)'") -o bin/cfgfuzz ./cmd/cfgfuzz
	$(GO) build $(GOFLAGS) -o bin/structurize ./cmd/structurize

# The main job: a ~30 s campaign over every generator, report in
# ./cfgfuzz-out, replacing the previous demo's (--force). Exit 1 means it
# found something new (see the report); only usage or infrastructure
# errors (2) fail the target.
demo: deps build
	./bin/cfgfuzz run --force || [ $$? -eq 1 ]

vet:
	gofmt -l . | tee /dev/stderr | (! read _)
	$(GO) vet $(GOFLAGS) ./...
	$(GO) mod tidy -diff
	@# the files of other platforms (process groups, the alive check)
	@# compile: macOS with the tests, Windows without them
	GOOS=darwin CGO_ENABLED=0 $(GO) vet ./...
	GOOS=windows CGO_ENABLED=0 $(GO) build -o /dev/null ./...

test: deps vet
	$(GO) test $(GOFLAGS) $(TESTFLAGS) ./...

# The nightly workflow's and the Kubernetes examples' shell steps, run on
# this machine (cmd/cfgfuzz/recipes_test.go; part of `make test` too).
ci-recipes: deps
	$(GO) test $(GOFLAGS) -count=1 -run 'TestNightlyWorkflowRuns|TestKubernetesExamplesRun|TestKubernetesMergeCarriesVerdict' -v ./cmd/cfgfuzz

bench: deps
	$(GO) test $(GOFLAGS) -run '^$$' -bench . -benchtime 1x ./...

fuzz-parse:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./structurizer/cfg

# Every reader's fuzz target in turn (corpus/README.md), FUZZTIME each.
FUZZTIME ?= 60s
fuzz-readers:
	@set -e; for t in structurizer/cfg:FuzzParse emit/spirv:FuzzDecode oracle:FuzzModule oracle:FuzzModuleEdits \
	  fuzz:FuzzDecodeResponse fuzz:FuzzFuncAnswer fuzz:FuzzReadRecords fuzz:FuzzReadReruns \
	  fuzz:FuzzReadStore fuzz:FuzzParseTriage fuzz:FuzzLoadCorpus corpus:FuzzParseRegression; do \
	  echo "$$t"; $(GO) test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s -parallel 1 ./$${t%%:*}; done

# Module mutants on the driver (oracle/gpu/README.md): MODMUT graphs,
# about 70 mutants each, 0.15-0.25 s a mutant on 2 cores; SEED as logged.
MODMUT ?= 30
SEED   ?= 1
modmut: deps
	CFGFUZZ_MODMUT=$(MODMUT) CFGFUZZ_SEED=$(SEED) $(GO) test $(GOFLAGS) -count=1 -timeout 90m -run '^TestModuleMutants$$' -v ./oracle/gpu

clean:
	rm -rf bin cfgfuzz-out
