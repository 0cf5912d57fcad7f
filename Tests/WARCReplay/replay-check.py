#!/usr/bin/env python3
"""Replays an export in pywb, as the README tells a reader to, and checks every capture byte for byte.

Serves a copy of Fixtures/demo on 127.0.0.1, syncs it twice with --metadata (the second time the feed names a
transcript, so the archive holds sidecars, a companion and two revisions of the feed), exports it with
`export --warc` (plain and gzipped), then follows the README's pywb steps (`wb-manager init`, `wb-manager add`,
`wayback`) and fetches each episode, companion and feed revision at its own time with pywb's `id_` modifier
(the bytes as archived, nothing rewritten), and each episode at its URL alone (the newest capture, as a reader
would ask). Every body must be the record's payload, byte for byte: a sidecar served in an episode's place (a
metadata record sharing its target URI) fails.

Usage: VENV/bin/python replay-check.py --bin PODARCHIVE --venv VENV --fixtures Fixtures/demo (the venv holding
warcio and pywb, whose python runs this script).
"""
import argparse
import functools
import http.server
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from warcio.archiveiterator import ArchiveIterator

TRANSCRIPT = "WEBVTT\n\n00:00.000 --> 00:01.000\nSilence.\n"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    sys.exit(f"replay-check: nothing listened on 127.0.0.1:{port} within {seconds} s")


def run(*args, cwd=None):
    print("==", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], check=True, cwd=cwd)


def captures(warc):
    """(type, target URI, WARC-Date, payload) of each record, read with warcio."""
    found = []
    with open(warc, "rb") as stream:
        for record in ArchiveIterator(stream):
            headers = record.rec_headers
            found.append(
                (
                    record.rec_type,
                    headers.get_header("WARC-Target-URI"),
                    headers.get_header("WARC-Date"),
                    record.content_stream().read(),
                )
            )
    return found


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--venv", required=True)
    parser.add_argument("--fixtures", required=True)
    options = parser.parse_args()
    binary = os.path.abspath(options.bin)
    venv = pathlib.Path(options.venv).resolve()
    work = tempfile.mkdtemp(prefix="podarchive-replay-")
    failures = []
    processes = []
    try:
        served = os.path.join(work, "served")
        shutil.copytree(options.fixtures, served)
        port = free_port()
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=served)
        handler.log_message = lambda *args: None
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        feed = f"http://127.0.0.1:{port}/feed.xml"
        archive = os.path.join(work, "archive")
        env = dict(os.environ, PODARCHIVE_CONFIG_DIR=os.path.join(work, "config"))
        os.environ.update(env)
        run(binary, "sync", feed, "--to", archive, "--metadata")
        # A second revision of the feed (an episode's notes changed), naming a transcript (a companion), a second later: its Last-Modified
        # and its WARC-Date (whole seconds) differ from the first's.
        time.sleep(1.1)
        path = os.path.join(served, "feed.xml")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = text.replace(
            'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"',
            'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
            'xmlns:podcast="https://podcastindex.org/namespace/1.0"',
        ).replace(
            "The second one:", "The second one, revised:"
        ).replace(
            '<enclosure url="episode-3.mp3"',
            '<podcast:transcript url="episode-3.vtt" type="text/vtt" language="en"/><enclosure url="episode-3.mp3"',
        )
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.join(served, "episode-3.vtt"), "w", encoding="utf-8") as f:
            f.write(TRANSCRIPT)
        run(binary, "sync", "--to", archive, "--metadata")

        for name in ["podcasts.warc", "podcasts.warc.gz"]:
            warc = os.path.join(work, name)
            run(binary, "export", "--warc", warc, archive)
            records = captures(warc)
            kinds = [r[0] for r in records]
            resources = [r for r in records if r[0] == "resource"]
            metadata = [r for r in records if r[0] == "metadata"]
            if len(metadata) != 3 or len(resources) != 3 + 1 + 2:
                failures.append(f"{name}: expected 3 episodes, 1 transcript, 2 feed revisions, 3 sidecars: {kinds}")
            # The README's steps, in a folder of their own.
            home = os.path.join(work, "pywb-" + name.replace(".", "-"))
            os.makedirs(home)
            run(venv / "bin" / "wb-manager", "init", "podcasts", cwd=home)
            run(venv / "bin" / "wb-manager", "add", "podcasts", warc, cwd=home)
            replay = free_port()
            processes.append(
                subprocess.Popen(
                    [venv / "bin" / "wayback", "-p", str(replay), "-b", "127.0.0.1"],
                    cwd=home,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            wait_for(replay)
            for _, uri, date, payload in resources:
                stamp = "".join(c for c in date if c.isdigit())[:14]
                status, body = fetch(f"http://127.0.0.1:{replay}/podcasts/{stamp}id_/{uri}")
                if status != 200 or body != payload:
                    failures.append(f"{name}: {uri} at {date}: {status}, {len(body)} bytes of {len(payload)}")
            # An episode at its URL alone, as a reader asks for it: the newest capture, never its sidecar.
            for _, uri, _, payload in resources:
                if not uri.endswith(".mp3"):
                    continue
                status, body = fetch(f"http://127.0.0.1:{replay}/podcasts/2100id_/{uri}")
                if body != payload:
                    failures.append(f"{name}: {uri} (newest): {len(body)} bytes of {len(payload)}")
            print(f"== pywb replayed {len(resources)} captures of {name}", flush=True)
            processes.pop().terminate()
    finally:
        for process in processes:
            process.terminate()
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("replay-check: pywb did not replay the export as archived:", *failures, sep="\n  ")
        sys.exit(1)
    print("replay-check: every episode, transcript and feed revision replays byte for byte in pywb")


if __name__ == "__main__":
    main()
