# cfgfuzz: the two commands for a fresh machine are `make demo` (set up and
# run the main job) and `make test` (set up and pass the tests).
GO        ?= go
GOFLAGS   ?=
TESTFLAGS ?=

.PHONY: all deps build demo test vet bench fuzz-parse clean

all: build

# Debian packages the tests need: SPIRV-Tools (spirv-val and the C library
# the in-process validator links), lavapipe and the Vulkan loader for the
# driver check. Installs only what is missing; waits for the dpkg lock.
deps:
	@sh .ci/deps.sh

build:
	$(GO) build $(GOFLAGS) -o bin/cfgfuzz ./cmd/cfgfuzz
	$(GO) build $(GOFLAGS) -o bin/structurize ./cmd/structurize 2>/dev/null || true

# The main job: a short default campaign.
demo: deps build
	./bin/cfgfuzz gen --kind reducible --count 2000 --seed 1 | ./bin/cfgfuzz check -

vet:
	gofmt -l . | tee /dev/stderr | (! read _)
	$(GO) vet ./...

test: deps vet
	$(GO) test $(GOFLAGS) $(TESTFLAGS) ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

fuzz-parse:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./structurizer/cfg

clean:
	rm -rf bin cfgfuzz-out
