# hlscheck — the two commands a newcomer needs are `make run` and `make test`.
# Each installs what it needs (Debian packages via apt-get) and is a no-op for what is there.

PREFIX ?= /usr/local
SWIFT ?= swift
# What building hlscheck needs. The ffmpeg CLI (test media, samples), chromium (the HTML
# report's browser test), openssl (a test's self-signed certificate), GStreamer (playing what
# embed writes, as a player other than FFmpeg), patch (applying `fix --diff`), GNU time (a test's
# peak-memory reading), and zsh and fish (the completion scripts' tests run in the real shells)
# are TEST_DEB_PACKAGES: `make build`/`make install` never pull them in.
DEB_PACKAGES := libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev libxml2-dev libyaml-dev libcurl4-openssl-dev zlib1g-dev pkg-config
TEST_DEB_PACKAGES := ffmpeg time chromium openssl zsh fish patch gstreamer1.0-tools gstreamer1.0-plugins-base \
	gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/release/hlscheck

.PHONY: all deps test-deps build run test lint format bench samples install install-check uninstall clean fuzz fuzz-build fuzz-seeds fuzz-smoke sanitize

all: build

deps:
	@command -v $(SWIFT) >/dev/null || { echo "make: no Swift toolchain on PATH (install Swift 6.2 or newer from swift.org)" >&2; exit 1; }
	@$(call apt_install,$(DEB_PACKAGES))

test-deps: deps
	@$(call apt_install,$(TEST_DEB_PACKAGES))

# apt_install PACKAGES: installs those not installed yet (a no-op when all are there).
apt_install = missing=$$(for p in $(1); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing Debian packages:" $$missing; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# The Swift runtime is linked in: no libswift*.so to load at start-up (docs/benchmarks.md), and
# the binary runs on a machine without a Swift toolchain.
RELEASE_BUILD = $(SWIFT) build -c release --product hlscheck --static-swift-stdlib
build: deps
	$(RELEASE_BUILD)

# The main job: check the bundled samples (MPEG-TS, packed audio, fMP4), with their variant tables, then the one that lacks
# an audio-only variant (that last report is expected to fail, so its exit code does not stop make).
run: build
	$(BIN) Samples/compliant/master.m3u8 --show-variants
	@echo
	$(BIN) Samples/packed-audio/master.m3u8 --root Samples --show-variants
	@echo
	$(BIN) Samples/fmp4/master.m3u8 --show-variants
	@echo
	-$(BIN) Samples/no-audio-only/master.m3u8 --root Samples --show-variants
	@echo
	@# ... and the packager closing the loop: the missing audio-only variant, into a temporary copy, checked.
	out=$$(mktemp -d) && $(BIN) embed --add-audio-only --image Samples/poster.jpg Samples/no-audio-only/master.m3u8 --root Samples --output $$out \
	  && echo && $(BIN) $$out/no-audio-only/master.m3u8 --root $$out --show-variants; status=$$?; rm -rf $$out; exit $$status

# Python packages the tests use to read reports as CI consumers do, and to validate SARIF
# against its published schema.
PIP_TEST_PACKAGES := junitparser xunitparser jsonschema

# The code's layout follows .swift-format (swift-format ships with the toolchain): `make format`
# rewrites the files, `make lint` (run by `make test`) fails on any line that differs from it.
FORMATTED := Sources Tests Fuzz Package.swift
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

test: test-deps lint
	@python3 -c 'import junitparser, xunitparser, jsonschema' 2>/dev/null || python3 -m pip install -q $(PIP_TEST_PACKAGES)
	@# At most 16 tests at once. All ~890 at once start ~70 loopback HTTP servers together (an
	@# event-loop thread each): the test process peaks at ~700 descriptors and ~135 threads, near
	@# the 1 024 descriptors a default `ulimit -n` allows; at 16 it peaks at ~200 and 34 threads
	@# (sampled from /proc/PID/fd). No descriptor is leaked either way: the count returns to ~20.
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=16 $(SWIFT) test
	$(MAKE) install-check
	$(MAKE) fuzz-smoke

# Speed: hlscheck against ffprobe per segment, side by side (docs/benchmarks.md).
bench: build test-deps
	@command -v hyperfine >/dev/null || { $(SUDO) apt-get install -y -qq hyperfine >/dev/null; }
	@# The remote part serves its stream with nginx, a server a user would really have.
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { $(SUDO) apt-get install -y -qq nginx-light >/dev/null; }
	bash Tests/Benchmarks/bench.sh

samples: test-deps
	bash Samples/generate.sh

# The binary, its manual pages and shell completions, all from the one static release build.
# The manual pages come from swift-argument-parser's generate-manual tool run on that binary (the
# tool reads its --experimental-dump-help): its plugin would build a second, dynamically linked
# release product into the same .build/release/hlscheck, and the static build after it would
# compile every module again. `make install-check` tests the result.
MANUAL_DIR := .build/manual
MANUAL_TOOL := .build/generate-manual/debug/generate-manual
install: build
	$(SWIFT) build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/generate-manual \
	    --product generate-manual >/dev/null
	rm -rf $(MANUAL_DIR) && mkdir -p $(MANUAL_DIR)
	$(MANUAL_TOOL) $(BIN) --multi-page --authors 'hlscheck developers' --output-directory $(MANUAL_DIR) >/dev/null
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	@# Stripped: the symbol table and debug sections are half the file (docs/benchmarks.md, "Build
	@# time and binary size"); .build/release/hlscheck keeps them for debugging.
	install -m 0755 -s $(BIN) $(DESTDIR)$(PREFIX)/bin/hlscheck
	@# generate-manual's EXIT STATUS says only "0 on success, >0 on error": each page's real exit
	@# codes and its EXAMPLES (man/PAGE.mdoc) take the place of that line.
	for page in $(MANUAL_DIR)/*.1; do name=$$(basename $$page .1); \
	    if [ -f man/$$name.mdoc ]; then sed -e "/^\.Ex -std/{r man/$$name.mdoc" -e 'd;}' $$page; else cat $$page; fi \
	        >$(DESTDIR)$(PREFIX)/share/man/man1/$$name.1 && chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man1/$$name.1 || exit 1; done
	$(BIN) --generate-completion-script bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/hlscheck
	$(BIN) --generate-completion-script zsh >$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_hlscheck
	$(BIN) --generate-completion-script fish >$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/hlscheck.fish

# Installs into a temporary DESTDIR and runs the installed binary with the toolchain's
# libraries out of reach (Tests/Scripts/install-check.sh); part of `make test`.
install-check: deps
	sh Tests/Scripts/install-check.sh

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hlscheck $(DESTDIR)$(PREFIX)/share/man/man1/hlscheck*.1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/hlscheck \
	    $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_hlscheck \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/hlscheck.fish

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan

# Fuzzing (docs/security.md, "Fuzzing and sanitizers"). The targets are a package of their own,
# Fuzz/, built with libFuzzer and AddressSanitizer into .build-fuzz; their corpora (seeded from
# Samples/, the test fixtures and ../shared/corpus) and any crash inputs stay there, git-ignored.
#   make fuzz                              every target for FUZZ_SECONDS (default 30) each
#   make fuzz FUZZ_TARGETS=id3 FUZZ_SECONDS=600
# A crash stops make and leaves the input in .build-fuzz/crashes/; replay it with
#   .build-fuzz/release/fuzz-<target> .build-fuzz/crashes/<file>
FUZZ_TARGETS ?= playlist attribute-list id3 transport-stream adts iso-box segment check configuration
FUZZ_SECONDS ?= 30
FUZZ_BUILD := $(CURDIR)/.build-fuzz
HLSCHECK_CORPUS ?= ../shared/corpus
# Inputs up to 64 KiB (seeds are cut there); 10 s for one input is a hang; 2 GiB is a leak.
FUZZ_FLAGS = -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1

# One product at a time: a plain `swift build` there would also link the main package's
# hlscheck executable with the sanitizers, which the system linker (gold) cannot.
fuzz-build: deps
	@mkdir -p $(FUZZ_BUILD)
	@# -enable-testing: the targets reach the parsers' package-level API through @testable import
	@# (the library's public API is only what a client needs).
	@$(foreach t,$(FUZZ_TARGETS),$(SWIFT) build --package-path Fuzz --scratch-path $(FUZZ_BUILD) -c release \
	    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing --product fuzz-$(t) >$(FUZZ_BUILD)/build.log 2>&1 \
	    && echo "built fuzz-$(t)" || { cat $(FUZZ_BUILD)/build.log; false; } &&) true

fuzz-seeds:
	@bash Fuzz/seed.sh $(FUZZ_BUILD)/corpus $(HLSCHECK_CORPUS)

fuzz: fuzz-build fuzz-seeds
	@mkdir -p $(FUZZ_BUILD)/crashes $(FUZZ_BUILD)/logs
	@$(foreach t,$(FUZZ_TARGETS),$(call fuzz_run,$(t),-max_total_time=$(FUZZ_SECONDS),fuzz) &&) true

# The CI part of `make test`: every seed once, then a fixed number of mutations from a fixed
# random seed, so a red build names an input that fails again on the next run. The inspector
# and the whole check run libavformat on every input (~100 per second), so they get fewer.
FUZZ_SMOKE_RUNS ?= 2000
fuzz_smoke_runs = $(if $(filter segment check,$(1)),300,$(FUZZ_SMOKE_RUNS))
fuzz-smoke: fuzz-build fuzz-seeds
	@rm -rf $(FUZZ_BUILD)/smoke && mkdir -p $(FUZZ_BUILD)/crashes $(FUZZ_BUILD)/logs $(addprefix $(FUZZ_BUILD)/smoke/,$(FUZZ_TARGETS))
	@$(foreach t,$(FUZZ_TARGETS),$(call fuzz_run,$(t),-seed=1 -runs=$$(( $$(ls $(FUZZ_BUILD)/corpus/$(t) | wc -l) + $(call fuzz_smoke_runs,$(t)) )) $(FUZZ_BUILD)/smoke/$(t),smoke) &&) true

# Mutations get further when they know the format's names (tags, box types, frame ids). The
# targets that run Swift concurrency keep per-thread allocations across inputs, which libFuzzer's
# per-input leak check mistakes for leaks (and runs LeakSanitizer on every input, 5 inputs/s):
# leaks are `make sanitize`'s business there.
fuzz_target_flags = -dict=Fuzz/Dictionaries/$(if $(filter playlist attribute-list check,$(1)),m3u8,$(if $(filter configuration,$(1)),yaml,media)).dict \
	$(if $(filter segment check,$(1)),-detect_leaks=0)

# fuzz_run TARGET, FLAGS, LOG: one libFuzzer run (new inputs go to the first directory in
# FLAGS, or else to the target's corpus); prints a summary line, or the end of the log and fails.
fuzz_run = { printf '%-24s' "fuzz-$(1)"; \
	$(FUZZ_BUILD)/release/fuzz-$(1) $(FUZZ_FLAGS) $(call fuzz_target_flags,$(1)) $(2) -artifact_prefix=$(FUZZ_BUILD)/crashes/$(1)- \
	    $(FUZZ_BUILD)/corpus/$(1) >$(FUZZ_BUILD)/logs/$(3)-$(1).log 2>&1 \
	&& awk '/^Done [0-9]+ runs in/ {print $$2 " inputs in " $$5 " s, no crash"}' $(FUZZ_BUILD)/logs/$(3)-$(1).log \
	|| { echo FAILED; tail -n 40 $(FUZZ_BUILD)/logs/$(3)-$(1).log; echo "crash input: $(FUZZ_BUILD)/crashes/$(1)-*"; false; }; }

# The test suite under AddressSanitizer, then ThreadSanitizer (slow: not part of `make test`).
# Fuzz/lsan.supp says why each leak report it hides is not ours; ThreadSanitizer needs none.
sanitize: test-deps
	LSAN_OPTIONS="suppressions=$(CURDIR)/Fuzz/lsan.supp:print_suppressions=0 $${LSAN_OPTIONS:-}" \
	    $(SWIFT) test --sanitize=address --scratch-path .build-asan
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan
