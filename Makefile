# podarchive: build, test, demo. Needs only the Swift toolchain and Python 3.
SWIFT ?= swift
PYTHON ?= python3
PREFIX ?= /usr/local
RELEASE_BIN := .build/release/podarchive
CORPUS ?= ../shared/corpus

.PHONY: all build release test demo corpus lint format clean

all: build

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

# Plain `swift test` (not --parallel) so XCTest prints its closing "Executed N tests" line; the suite is
# XCTest only, so the empty Swift Testing run (which would close with "0 tests") is switched off.
test:
	$(SWIFT) test --disable-swift-testing

# Serve Fixtures/demo with python3 -m http.server on 127.0.0.1, archive it into ./demo-archive twice
# (the second run finds nothing new), then show the files, their dates and the index.
demo: release
	@rm -rf demo-archive
	@set -e; \
	port=$$($(PYTHON) -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'); \
	$(PYTHON) -m http.server $$port --bind 127.0.0.1 --directory Fixtures/demo >/dev/null 2>&1 & server=$$!; \
	trap 'kill $$server 2>/dev/null' EXIT; \
	$(PYTHON) -c 'import socket, sys, time; \
	[time.sleep(0.05) for _ in range(100) if socket.socket().connect_ex(("127.0.0.1", int(sys.argv[1])))]' $$port; \
	echo "== podarchive sync http://127.0.0.1:$$port/feed.xml --to demo-archive"; \
	$(RELEASE_BIN) sync http://127.0.0.1:$$port/feed.xml --to demo-archive; \
	echo; echo "== again: nothing new to fetch"; \
	$(RELEASE_BIN) sync http://127.0.0.1:$$port/feed.xml --to demo-archive; \
	echo; echo "== the archive (file dates are the episodes' publication dates)"; \
	TZ=UTC ls -l --time-style='+%Y-%m-%d %H:%M UTC' "demo-archive/podarchive demo"; \
	echo; echo "== demo-archive/podarchive demo/.podarchive/index.json"; \
	cat "demo-archive/podarchive demo/.podarchive/index.json"

# Compare `podarchive list --json` with a reference parser on 27 real-world feeds.
corpus: release
	$(PYTHON) $(CORPUS)/check.py --bin $(RELEASE_BIN)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build demo-archive
