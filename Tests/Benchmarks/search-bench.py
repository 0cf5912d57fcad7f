#!/usr/bin/env python3
"""The site's search at scale: an archive of 10,000 episodes (20 shows) with notes and a transcript each, half
English, half German, synced from loopback feeds; then `podarchive site --out` timed (first and unchanged), the
bytes a browser downloads (the root page and its titles index first; every show's notes script and transcript
index when searching), and a query answered in headless Chromium, served (transcripts included) and opened as
files (titles and notes).

Usage: search-bench.py [--bin DIR] [--episodes N] [--shows N]   (part of `make bench`; prints a Markdown table)
       search-bench.py --smoke [--bin DIR]   (`make bench-smoke`: 200 episodes in 4 shows, a few seconds; fails
       unless every query finds episodes, or when Chromium is missing and PODARCHIVE_REQUIRE_BROWSER is set)
"""
import argparse
import functools
import http.server
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, ".build", "bench", "search")
SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "da", "gu", "sch", "ei", "au", "ber", "ung"]


def vocabulary(rng, count):
    return ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(count)]


def sentence(rng, words, count):
    return " ".join(rng.choice(words) for _ in range(count))


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the feeds from the folder, any /ep/... as 4 KB of audio and any /tr/N.vtt as that episode's
    transcript."""
    transcripts = {}

    def log_message(self, *args):
        pass

    def answer(self, body, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/ep/"):
            return self.answer(b"\xff\xfb" + bytes(4094), "audio/mpeg")
        if self.path.startswith("/tr/"):
            return self.answer(self.transcripts[self.path].encode(), "text/vtt")
        return super().do_GET()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=directory))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def generate(data, base, episodes, shows, rng):
    english, german = vocabulary(rng, 6000), vocabulary(rng, 6000)
    os.makedirs(data, exist_ok=True)
    urls, per_show = [], episodes // shows
    for show in range(shows):
        words = english if show % 2 == 0 else german
        items = []
        for i in range(per_show):
            number = show * per_show + i
            path = f"/tr/{number}.vtt"
            cues = [f"00:{m:02d}:00.000 --> 00:{m:02d}:59.000\n{sentence(rng, words, 12)}" for m in range(40)]
            Handler.transcripts[path] = "WEBVTT\n\n" + "\n\n".join(cues) + "\n"
            language = "en" if show % 2 == 0 else "de"
            items.append(
                f"<item><title>Episode {i}: {sentence(rng, words, 5)}</title><guid>bench-{number}</guid>"
                f"<pubDate>Mon, {1 + i % 28:02d} Jan {2000 + i % 25} 08:00:00 GMT</pubDate>"
                f"<description><![CDATA[<p>{sentence(rng, words, 90)}</p>]]></description>"
                f'<enclosure url="{base}/ep/{number}.mp3" type="audio/mpeg" length="4096"/>'
                f'<podcast:transcript url="{base}{path}" type="text/vtt" language="{language}"/></item>')
        with open(os.path.join(data, f"show{show}.xml"), "w") as out:
            out.write('<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>'
                      f"<title>Show {show}</title>" + "".join(items) + "</channel></rss>")
        urls.append(f"{base}/show{show}.xml")
    return urls, english, german


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start


def chromium(url, profile):
    browser = next((b for b in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(b)), None)
    if not browser:
        return None
    start = time.perf_counter()
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={profile}",
         "--virtual-time-budget=60000", "--dump-dom", url],
        check=True, capture_output=True, text=True, timeout=300).stdout
    wall = time.perf_counter() - start
    found = {name: re.search(rf'data-{name}="([^"]*)"', dom) for name in ("searched", "search-ms", "loaded-ms")}
    status = re.search(r'id="search-status"[^>]*>([^<]*)<', dom)
    return {k: (v.group(1) if v else None) for k, v in found.items()} | {"wall": wall,
                                                                          "status": status.group(1) if status else ""}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "ship", "release"))
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--shows", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="200 episodes in 4 shows; every query must find some")
    args = parser.parse_args()
    if args.smoke:
        args.episodes, args.shows = 200, 4
    podarchive = os.path.join(args.bin, "podarchive")
    shutil.rmtree(WORK, ignore_errors=True)
    data, root, www = (os.path.join(WORK, name) for name in ("data", "archive", "www"))
    os.makedirs(data)
    home = os.path.join(WORK, "home")
    os.environ.update(HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"))
    server, base = serve(data)
    rng = random.Random(40)
    urls, english, german = generate(data, base, args.episodes, args.shows, rng)
    synced = timed([podarchive, "sync", *urls, "--to", root])
    server.shutdown()

    first = timed([podarchive, "site", root, "--out", www])
    again = timed([podarchive, "site", root])
    size = lambda *names: sum(os.path.getsize(os.path.join(www, name)) for name in names)
    shows = [name for name in os.listdir(www) if os.path.isdir(os.path.join(www, name))]
    first_download = size("index.html", "search-index.js")
    notes = sum(size(os.path.join(show, "search-notes.js")) for show in shows)
    transcripts = sum(size(os.path.join(show, "search-transcripts.json")) for show in shows)

    site_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=www))
    site_server.daemon_threads = True
    threading.Thread(target=site_server.serve_forever, daemon=True).start()
    served = f"http://127.0.0.1:{site_server.server_address[1]}/index.html"
    # A word of one German transcript and one English note, each from the generated vocabularies.
    queries = [(served, german[17] + " " + german[42]), (served, english[5]),
               ("file://" + os.path.join(www, "index.html"), english[5])]
    rows = []
    for url, query in queries:
        result = chromium(f"{url}#q={query.replace(' ', '%20')}", os.path.join(WORK, "profile"))
        if result:
            rows.append((url.split(":")[0], query, result))
    site_server.shutdown()

    print(f"| {args.episodes:,} episodes, {args.shows} shows, a transcript each | |")
    print("|---|---|")
    print(f"| sync (to make the archive) | {synced:.1f} s |")
    print(f"| site --out, first | {first:.2f} s |")
    print(f"| site, unchanged | {again:.2f} s |")
    print(f"| first download (index.html + search-index.js) | {first_download / 1e6:.2f} MB |")
    print(f"| notes scripts, all shows (loaded at the first query) | {notes / 1e6:.2f} MB |")
    print(f"| transcript indexes, all shows (fetched at the first query, served) | {transcripts / 1e6:.2f} MB |")
    for scheme, query, result in rows:
        print(f"| query `{query}` ({scheme}): {result['status']} | scan {result['search-ms']} ms; every index read "
              f"{result['loaded-ms']} ms after the page's start; Chromium's whole run {result['wall']:.1f} s |")
    if args.smoke:
        answered = [row for row in rows if re.match(r"[\d,]+ episodes? found", row[2]["status"])]
        if not rows and not os.environ.get("PODARCHIVE_REQUIRE_BROWSER"):
            print("search-bench --smoke: no Chromium here, no query run (CI installs it)")
        elif len(answered) != len(queries):
            sys.exit(f"search-bench --smoke: {len(answered)} of {len(queries)} queries found episodes")


if __name__ == "__main__":
    main()
