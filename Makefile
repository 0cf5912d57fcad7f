# podarchive: build, test, demo. Needs only the Swift toolchain and Python 3.
SWIFT ?= swift
PYTHON ?= python3
PREFIX ?= /usr/local
# The shipped build has a folder of its own: never one built with the test hooks (see Package.swift).
SHIP_BUILD := .build/ship
RELEASE_BIN := $(SHIP_BUILD)/release/podarchive
# The crash tests' fault injection, compiled into every test build (debug has it anyway) and never into `release`.
TEST_HOOKS := PODARCHIVE_TEST_HOOKS=1
CORPUS ?= ../shared/corpus

.PHONY: all build release man test test-release test-tsan test-asan demo warc-check screenshot corpus crash-matrix bench bench-smoke fuzz install uninstall lint format clean zlib

all: build

# The feed history is gzipped with the system's zlib; its header comes with zlib1g-dev on Debian and Ubuntu
# (macOS has it in the SDK). Installed here when missing, so `make test` and `make demo` need nothing else.
zlib:
	@if [ "$$(uname -s)" = Linux ] && [ ! -e /usr/include/zlib.h ]; then \
		echo "installing zlib1g-dev (zlib.h) for the feed history's gzip"; \
		{ apt-get install -y -q zlib1g-dev || { apt-get update -q && apt-get install -y -q zlib1g-dev; }; } >/dev/null \
			|| { echo "zlib.h is missing: install zlib1g-dev (or zlib-devel)" >&2; exit 1; }; \
	fi

# The suite in a release build (optimised, with the test hooks, so every crash test runs), under ThreadSanitizer
# and under AddressSanitizer, each in a build folder of its own so none invalidates the debug or shipped build.
test-release: zlib
	$(TEST_HOOKS) $(SWIFT) test -c release --disable-swift-testing --scratch-path .build/test-release

test-tsan: zlib
	$(TEST_HOOKS) $(SWIFT) test --sanitize=thread --disable-swift-testing --scratch-path .build/test-tsan

# AddressSanitizer's memory checks (out of bounds, use after free, double free) on; its LeakSanitizer off: on Linux
# it cannot see pointers whose spare bits Swift uses (enum payloads, Data's representations, refcount side tables),
# so it reports "leaks" even for an empty XCTest run (llvm/llvm-project#56751, swift-corelibs-xctest#342, #534).
test-asan: zlib
	ASAN_OPTIONS="detect_leaks=0$${ASAN_OPTIONS:+:$$ASAN_OPTIONS}" $(TEST_HOOKS) $(SWIFT) test --sanitize=address \
		--disable-swift-testing --scratch-path .build/test-asan

build: zlib
	$(SWIFT) build

# On Linux the release build links the Swift runtime and Foundation statically: start-up takes 6-9 ms less
# (most of a nightly no-op run), and the installed binary needs only the OS's libraries, not the toolchain's.
# The linker asks for libcurl.so, which only libcurl's -dev package provides; without it, .build/link points
# it at libcurl.so.4, the library FoundationNetworking loads at run time anyway.
ifeq ($(shell uname -s),Linux)
CURL_RUNTIME := $(firstword $(wildcard /usr/lib/*/libcurl.so.4 /usr/lib64/libcurl.so.4 /usr/lib/libcurl.so.4))
RELEASE_FLAGS := --static-swift-stdlib -Xlinker -L$(CURDIR)/.build/link
LINK_SHIM := .build/link/libcurl.so
endif

# The static Foundation archive uses mktemp(3), and the linker says so on every link ("the use of `mktemp' is
# dangerous"); podarchive never calls it (it never calls it), so that line is left out.
release: zlib $(LINK_SHIM)
	@bash -c 'set -o pipefail; env -u PODARCHIVE_TEST_HOOKS $(SWIFT) build -c release --scratch-path $(SHIP_BUILD) \
		$(RELEASE_FLAGS) 2>&1 | grep -v "the use of .mktemp. is dangerous"' 

.build/link/libcurl.so:
	@test -n "$(CURL_RUNTIME)" || { echo "libcurl.so.4 not found: FoundationNetworking needs libcurl" >&2; exit 1; }
	mkdir -p .build/link
	ln -sf $(CURL_RUNTIME) $@

# Plain `swift test` (not --parallel) so XCTest prints its closing "Executed N tests" line; the suite is
# XCTest only, so the empty Swift Testing run (which would close with "0 tests") is switched off.
test: zlib
	$(TEST_HOOKS) $(SWIFT) test --disable-swift-testing

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
	echo; echo "== the archive, newest first (file dates are the episodes' publication dates)"; \
	TZ=UTC ls -lt --time-style='+%Y-%m-%d %H:%M UTC' "demo-archive/podarchive demo"; \
	echo; echo "== demo-archive/podarchive demo/.podarchive/index.json"; \
	cat "demo-archive/podarchive demo/.podarchive/index.json"; \
	echo; echo "== podarchive verify demo-archive (every file against its recorded SHA-256)"; \
	$(RELEASE_BIN) verify demo-archive; \
	echo; echo "== podarchive site demo-archive (open demo-archive/index.html in a browser)"; \
	$(RELEASE_BIN) site demo-archive

# Export the demo archive as WARC (plain and gzipped) and check both with warcio, the web archives' Python tool:
# every digest (`warcio check`) and a CDX index line for each episode (`warcio index`); then replay an archive synced
# with --metadata in pywb, as the README tells a reader to, every episode, transcript and feed revision byte for byte
# (Tests/WARCReplay/replay-check.py). warcio and pywb are installed from PyPI into .build/warcio for this check
# only, never a dependency of podarchive; the check fails when they cannot be installed.
WARCIO := .build/warcio/bin/warcio
warc-check: release
	@if [ ! -d demo-archive ]; then $(MAKE) demo > /dev/null; fi
	@set -e; \
	if [ ! -x $(WARCIO) ] || [ ! -x .build/warcio/bin/wayback ]; then \
		$(PYTHON) -m venv .build/warcio; \
		if ! .build/warcio/bin/pip install -q --retries 1 --timeout 20 warcio pywb; then \
			rm -rf .build/warcio; \
			echo "make warc-check: pip could not install warcio and pywb from PyPI (no network?)" >&2; exit 1; \
		fi; \
	fi; \
	for file in .build/demo-archive.warc .build/demo-archive.warc.gz; do \
		echo "== podarchive export --warc $$file demo-archive"; \
		$(RELEASE_BIN) export --warc $$file demo-archive; \
		$(WARCIO) check -v $$file; \
		$(WARCIO) index -f warc-type,warc-target-uri,warc-payload-digest $$file > $$file.cdxj; \
		episodes=$$(grep -c '"warc-type": "resource", "warc-target-uri": "http://127.0.0.1:[0-9]*/episode-' $$file.cdxj); \
		if [ "$$episodes" != 3 ]; then echo "warcio index lists $$episodes of the demo's 3 episodes"; exit 1; fi; \
		cat $$file.cdxj; \
	done; \
	.build/warcio/bin/python Tests/WARCReplay/replay-check.py --bin $(RELEASE_BIN) --venv .build/warcio --fixtures Fixtures/demo

# The README's picture of a show page: the demo archive's, in headless Chromium (apt-get install chromium).
screenshot: demo
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=820,720 \
		--user-data-dir="$$(mktemp -d)" --screenshot="$(CURDIR)/docs/site-show.png" \
		"file://$(CURDIR)/demo-archive/podarchive%20demo/index.html"

# Time podarchive against curl, podcast-archiver, bare parser passes and feedparser (see BENCHMARKS.md).
# Generates about 600 MB of data under .build/bench; takes a few minutes.
bench: release
	$(PYTHON) Tests/Benchmarks/bench.py --bin $(SHIP_BUILD)/release
	# The site's search over 10,000 episodes with transcripts: sizes, and queries in headless Chromium.
	$(PYTHON) Tests/Benchmarks/search-bench.py --bin $(SHIP_BUILD)/release

# The same scripts at tiny sizes, one repetition: keeps them working (CI runs it). The search's takes a few
# seconds: 200 episodes, each query in headless Chromium must find some.
bench-smoke: release
	$(PYTHON) Tests/Benchmarks/bench.py --smoke --bin $(SHIP_BUILD)/release
	$(PYTHON) Tests/Benchmarks/search-bench.py --smoke --bin $(SHIP_BUILD)/release

# The shipped binary killed (SIGKILL) before each call that changes a file of the archive, for each command that
# changes one (sync --exec, forget, forget --undo, verify --repair, site, site --out, export, credentials --move),
# then run on as a user would: every byte, record, hook and deletion must converge. Test-only: the kill switch is
# the LD_PRELOAD library of the crash tests (Fixtures/crash-shim), never part of podarchive. A few minutes.
crash-matrix: release
	$(PYTHON) Tests/CrashMatrix/crash-matrix.py --bin $(RELEASE_BIN)

# Compare `podarchive list --json` with a reference parser on 27 real-world feeds.
corpus: release
	@if [ ! -f "$(CORPUS)/check.py" ]; then \
		echo "make corpus: no corpus at '$(CORPUS)' (set CORPUS=DIR to a folder with check.py; CI uses ../shared/corpus)"; \
		exit 2; fi
	$(PYTHON) $(CORPUS)/check.py --bin $(RELEASE_BIN)

# Fuzz the feed readers with libFuzzer for FUZZ_SECONDS. Seeds: our fixtures, every input that once crashed
# (Fixtures/fuzz/regressions, replayed by the tests too), and the shared real-world corpus when present.
# A new crash is copied into Fixtures/fuzz/regressions: commit it with the fix.
FUZZ_SECONDS ?= 60
FUZZ_BUILD := .build/fuzz
fuzz:
	PODARCHIVE_FUZZ=1 $(SWIFT) build -c release --build-path $(FUZZ_BUILD) --product FeedFuzzer \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 | grep -v "Cannot export local symbol"
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/artifacts
	@rm -f $(FUZZ_BUILD)/artifacts/*
	@cp Fixtures/feeds/* Fixtures/fuzz/regressions/* $(FUZZ_BUILD)/corpus/ 2>/dev/null || true
	@if [ -d $(CORPUS)/feeds ]; then cp $(CORPUS)/feeds/* $(FUZZ_BUILD)/corpus/; fi
	@rm -f $(FUZZ_BUILD)/corpus/README.md
	@status=0; $(FUZZ_BUILD)/release/FeedFuzzer $(FUZZ_BUILD)/corpus -dict=Fixtures/fuzz/feed.dict \
		-max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$(FUZZ_BUILD)/artifacts/ -print_final_stats=1 || status=$$?; \
	for crash in $(FUZZ_BUILD)/artifacts/*; do \
		[ -f "$$crash" ] || continue; cp "$$crash" Fixtures/fuzz/regressions/; \
		echo "fuzz: kept $$(basename $$crash) in Fixtures/fuzz/regressions"; status=1; \
	done; exit $$status

# The man page, made by the binary from its declarations and Documentation/*.swift (never kept in git):
# `man -l .build/podarchive.1` reads it.
man: build
	$(SWIFT) run -q podarchive help --man > .build/podarchive.1
	@echo "wrote .build/podarchive.1 (man -l .build/podarchive.1)"

# The release binary, the man page (printed by the binary), completions for bash, zsh and fish (printed by the binary itself, from the
# same option table its parser uses), and the systemd user units. DESTDIR is honoured for packaging.
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
# fish: PREFIX's vendor folder when the fish here reads it (a PREFIX of /usr, or XDG_DATA_DIRS naming PREFIX/share);
# else, for an install on this machine (no DESTDIR), fish's own vendor folder, which pkg-config names and every fish
# reads: Debian's fish 3.6 never reads /usr/local/share/fish/vendor_completions.d unless XDG_DATA_DIRS says so, and
# plain shells do not. A package (DESTDIR) keeps to PREFIX's. FISHDIR=... on the command line chooses another.
FISH_VENDOR := $(shell pkg-config --variable completionsdir fish 2>/dev/null)
FISH_PREFIXED = $(PREFIX)/share/fish/vendor_completions.d
FISH_READS_PREFIXED = $(shell fish -c 'contains -- $$argv[1] $$fish_complete_path; and echo yes' $(FISH_PREFIXED) 2>/dev/null)
FISHDIR = $(DESTDIR)$(if $(or $(FISH_READS_PREFIXED),$(DESTDIR)),$(FISH_PREFIXED),$(or $(FISH_VENDOR),$(FISH_PREFIXED)))
SYSTEMDDIR = $(DESTDIR)$(PREFIX)/lib/systemd/user
UNITS = Sources/podarchive/Systemd
install: release
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR) $(SYSTEMDDIR)
	install -m 755 $(RELEASE_BIN) $(BINDIR)/podarchive
	$(RELEASE_BIN) help --man > $(MANDIR)/podarchive.1
	$(RELEASE_BIN) completions bash > $(BASHDIR)/podarchive
	$(RELEASE_BIN) completions zsh > $(ZSHDIR)/_podarchive
	$(RELEASE_BIN) completions fish > $(FISHDIR)/podarchive.fish
	chmod 644 $(MANDIR)/podarchive.1 $(BASHDIR)/podarchive $(ZSHDIR)/_podarchive $(FISHDIR)/podarchive.fish
	sed 's|@BINDIR@|$(PREFIX)/bin|' $(UNITS)/podarchive.service > $(SYSTEMDDIR)/podarchive.service
	install -m 644 $(UNITS)/podarchive.timer $(SYSTEMDDIR)/podarchive.timer
	chmod 644 $(SYSTEMDDIR)/podarchive.service

uninstall:
	rm -f $(BINDIR)/podarchive $(MANDIR)/podarchive.1 $(BASHDIR)/podarchive $(ZSHDIR)/_podarchive \
		$(FISHDIR)/podarchive.fish $(SYSTEMDDIR)/podarchive.service $(SYSTEMDDIR)/podarchive.timer

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests
	python3 Tests/Tools/public-docs.py Sources/ArchiverCore Sources/ArchiverCoreTesting
	python3 Tests/Tools/file-graph.py Sources/ArchiverCore
	python3 Tests/Tools/file-graph.py Sources/podarchive
	python3 Tests/Tools/folder-rules.py Sources/ArchiverCore
	python3 Tests/Tools/type-sizes.py Sources Tests
	python3 Tests/Tools/unchecked-sendable.py Sources
	python3 Tests/Tools/surface.py

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build demo-archive
