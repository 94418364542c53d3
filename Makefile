# hlscheck — the two commands a newcomer needs are `make run` and `make test`.
# Each installs what it needs (Debian packages via apt-get) and is a no-op for what is there.

PREFIX ?= /usr/local
SWIFT ?= swift
DEB_PACKAGES := libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libxml2-dev pkg-config ffmpeg
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/release/hlscheck

.PHONY: all deps build run test bench samples install uninstall clean

all: build

deps:
	@command -v $(SWIFT) >/dev/null || { echo "make: no Swift toolchain on PATH (install Swift 6 from swift.org)" >&2; exit 1; }
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing Debian packages:" $$missing; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build -c release --product hlscheck

# The main job: check the bundled samples (MPEG-TS, packed audio, fMP4), then the one that lacks
# an audio-only variant (that last report is expected to fail, so its exit code does not stop make).
run: build
	$(BIN) Samples/compliant/master.m3u8
	@echo
	$(BIN) Samples/packed-audio/master.m3u8 --root Samples
	@echo
	$(BIN) Samples/fmp4/master.m3u8
	@echo
	-$(BIN) Samples/no-audio-only/master.m3u8 --root Samples

test: deps
	$(SWIFT) test

# Speed: hlscheck against ffprobe per segment, side by side (docs/benchmarks.md).
bench: build
	@command -v hyperfine >/dev/null || { $(SUDO) apt-get install -y -qq hyperfine >/dev/null; }
	bash Tests/Benchmarks/bench.sh

samples: deps
	bash Samples/generate.sh

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/hlscheck

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hlscheck

clean:
	rm -rf .build
