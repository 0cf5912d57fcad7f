#!/usr/bin/env python3
"""podarchive's benchmark: generates its own data, serves it on 127.0.0.1, and times podarchive side by side
with references in the same run (medians of several repetitions, and ratios):

  - first sync of 200 x 256 KB episodes and a no-op re-run (the server answers 304), vs a curl loop over the
    same files (sequential, and 4 in parallel like --jobs 4), vs a bare URLSession doing the same (the floor:
    podarchive-bench urlsession / request), vs podcast-archiver (pip, in a venv made here);
  - one 500 MB episode vs `curl -o`;
  - a no-op re-run over 10,000 archived episodes with a changed feed;
  - `podarchive list --json` on a 20,000-item RSS feed and a JSON Feed of the same size, vs a bare XMLParser /
    JSONSerialization pass (podarchive-bench) and Python feedparser;
  - 40 subscribed shows on 8 loopback addresses whose feeds each take 200 ms to answer: first sync and a
    no-op re-run, vs the same with --feed-jobs 1 (one show after another) and vs curl fetching the 40 feeds
    8 at a time; 500 subscribed shows with nothing new, no delay, vs curl's conditional requests for them and
    a bare URLSession's requests for them, 4 at a time;
  - waiting on a slow network: one 200 KB episode trickling at 20 KB/s, the CPU time podarchive spends against
    the wall time, vs a bare URLSession fetching the same body (as FoundationNetworking ships it, and with
    podarchive's correction of its socket watching);
  - peak RSS of each podarchive run.

  - `site`, `export --warc` and `export --library` over an archive of 10,000 episodes of 4 KB, vs `cat` copying the
    same files into one (and `.warc.gz` vs `cat | gzip -6`).

Usage: bench.py [--bin DIR] [--reps N] [--smoke] [--no-venv] [--shows-only | --sync-only | --exports-only]
  --smoke: tiny sizes and one repetition, to keep the script working in CI (a few seconds).
Writes the results as a Markdown table to stdout and to .build/bench/results.md.
"""
import argparse
import email.utils
import functools
import http.server
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, ".build", "bench")


class FastHandler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler (Last-Modified, If-Modified-Since -> 304) with sendfile for bodies, serving as real
    servers do: HTTP/1.1 with keep-alive (a client reuses its connections), and TCP_NODELAY, so that a small body
    sent after its headers does not wait ~40 ms for the client's delayed ACK (curl itself took 110 s for 10,000
    files of 4 KB from Python's handler without it)."""

    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def copyfile(self, source, destination):
        self.wfile.flush()
        size = os.fstat(source.fileno()).st_size
        offset = 0
        while offset < size:
            sent = os.sendfile(self.connection.fileno(), source.fileno(), offset, size - offset)
            if sent == 0:
                break
            offset += sent


class SlowFeedHandler(FastHandler):
    """A feed server 200 ms away (a round trip and TLS on the internet): every feed request waits first."""

    def do_GET(self):
        if self.path.endswith(".xml"):
            time.sleep(0.2)
        super().do_GET()


class TrickleHandler(FastHandler):
    """A slow network: every body `RATE` bytes a second, a tenth of that every 100 ms (a file's own bytes)."""
    RATE = 20_000

    def copyfile(self, source, destination):
        piece = max(1, self.RATE // 10)
        data = source.read(piece)
        while data:
            destination.write(data)
            destination.flush()
            data = source.read(piece)
            if data:
                time.sleep(0.1)


def serve(directory, host="127.0.0.1", handler_class=FastHandler):
    handler = functools.partial(handler_class, directory=directory)
    server = http.server.ThreadingHTTPServer((host, 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}"


class StopBench(Exception):
    """The measurements asked for are done (--sync-only)."""


# DownloadBudget.requestsPerHost: as many requests at once to one host as podarchive makes.
REQUESTS_PER_HOST = 4

TIME = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)


def run(command, env=None, cwd=None):
    """Runs a command; returns (seconds, peak RSS in MB). The RSS comes from GNU time when present: a child
    forked from this Python process would report Python's own high-water mark (it holds the generated data)."""
    seconds, peak, _ = run_measured(command, env, cwd)
    return seconds, peak


def run_measured(command, env=None, cwd=None):
    """`run`, plus the CPU seconds (user and system, getrusage of the child and what it waited for)."""
    rss_file = os.path.join(WORK, "rss.txt")
    wrapped = [TIME, "-f", "%M", "-o", rss_file] + command if TIME else command
    start = time.perf_counter()
    process = subprocess.Popen(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{' '.join(command[:3])}... exited {code}: {stderr.strip()[-300:]}")
    cpu = usage.ru_utime + usage.ru_stime
    if TIME:
        with open(rss_file) as source:
            return elapsed, int(source.read().strip().splitlines()[-1]) / 1024, cpu
    return elapsed, usage.ru_maxrss / 1024, cpu


def median_of(reps, prepare, command, env=None, cwd=None):
    times, peaks = [], []
    for _ in range(reps):
        if prepare:
            prepare()
        seconds, peak = run(command, env, cwd)
        times.append(seconds)
        peaks.append(peak)
    return statistics.median(times), max(peaks)


def interleaved_rounds(reps, *runs, env=None):
    """Several commands run in turn (A, B, A, B...), so a machine that slows down for a while slows all of them
    alike. Each run is (prepare, command); returns each command's (times, peaks), round by round."""
    times = [[] for _ in runs]
    peaks = [[] for _ in runs]
    for _ in range(reps):
        for position, (prepare, command) in enumerate(runs):
            if prepare:
                prepare()
            seconds, peak = run(command, env)
            times[position].append(seconds)
            peaks[position].append(peak)
    return list(zip(times, peaks))


def interleaved_medians(reps, *runs, env=None):
    """`interleaved_rounds`, as each command's median time and highest peak RSS."""
    return [(statistics.median(t), max(p)) for t, p in interleaved_rounds(reps, *runs, env=env)]


def table(rows):
    """The Markdown rows: each a measurement, its time, peak RSS, its ratio to the reference measured in the same
    rounds (the figure to read), and the details."""
    lines = []
    for row in rows:
        name, seconds, rss, detail = row[:4]
        ratio = row[4] if len(row) > 4 else None
        time_text = f"{seconds:.3f} s" if seconds is not None else "-"
        rss_text = f"{rss:.0f} MB" if rss is not None else "-"
        ratio_text = f"**{ratio:.2f}x**" if ratio is not None and ratio >= 0.1 else (
            f"**{ratio:.3f}**" if ratio is not None else "-")
        lines.append(f"| {name} | {time_text} | {rss_text} | {ratio_text} | {detail} |")
    return lines


def write_random(path, size):
    if os.path.exists(path) and os.path.getsize(path) == size:
        return
    with open(path, "wb") as out:
        remaining = size
        while remaining:
            chunk = min(remaining, 1 << 22)
            out.write(os.urandom(chunk))
            remaining -= chunk


def write_feeds(data, base, episodes, episode_size, big_size):
    """The feeds of the sync measurements, with absolute URLs: feedparser (so podcast-archiver) does not resolve
    relative enclosure URLs, and would silently download nothing."""
    items = [
        f'<item><title>Episode {i}</title><guid>bench-{i}</guid><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate>'
        f'<enclosure url="{base}/ep/{i}.mp3" type="audio/mpeg" length="{episode_size}"/></item>'
        for i in range(episodes)]
    with open(os.path.join(data, "feed.xml"), "w") as out:
        out.write('<rss version="2.0"><channel><title>Bench Show</title>' + "".join(items) + "</channel></rss>")
    with open(os.path.join(data, "big-feed.xml"), "w") as out:
        out.write('<rss version="2.0"><channel><title>Big Episode</title><item><title>Big</title><guid>big</guid>'
                  f'<enclosure url="{base}/big.mp3" type="audio/mpeg" length="{big_size}"/></item></channel></rss>')


def generate(data, episodes, episode_size, big_size, feed_items):
    os.makedirs(os.path.join(data, "ep"), exist_ok=True)
    for i in range(episodes):
        write_random(os.path.join(data, "ep", f"{i}.mp3"), episode_size)
    write_random(os.path.join(data, "big.mp3"), big_size)
    description = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 12
    rss = []
    for i in range(feed_items):
        rss.append(
            f"<item><title>Episode {feed_items - i}: things &amp; stuff {i}</title>"
            f'<guid isPermaLink="false">urn:bench:{i}</guid>'
            f"<pubDate>Mon, {1 + i % 28:02d} Jan 2024 {i % 24:02d}:{i % 60:02d}:00 +0000</pubDate>"
            f"<itunes:duration>01:{i % 60:02d}:12</itunes:duration><description><![CDATA[<p>{description}</p>]]></description>"
            f'<enclosure url="ep/x{i}.mp3" type="audio/mpeg" length="{262144 + i}"/></item>\n')
    with open(os.path.join(data, "items.xml"), "w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" '
                  'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Many Items</title>\n'
                  + "".join(rss) + "</channel></rss>\n")
    feed = {"version": "https://jsonfeed.org/version/1.1", "title": "Many Items", "items": [
        {"id": f"urn:bench:{i}", "title": f"Episode {feed_items - i}: things & stuff {i}",
         "date_published": f"2024-01-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00Z",
         "content_html": f"<p>{description}</p>",
         "attachments": [{"url": f"ep/x{i}.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 262144 + i}]}
        for i in range(feed_items)]}
    with open(os.path.join(data, "items.json"), "w") as out:
        json.dump(feed, out)


def build_archived(root, feed_url, count):
    """An archive that already holds `count` episodes of items.xml (empty files, a version 2 index)."""
    shutil.rmtree(root, ignore_errors=True)
    folder = os.path.join(root, "Many Items")
    os.makedirs(os.path.join(folder, ".podarchive"))
    entries = []
    for i in range(count):
        name = f"Episode {count - i} - things & stuff {i}.mp3"
        open(os.path.join(folder, name), "wb").close()
        entries.append({"key": f"urn:bench:{i}", "guid": f"urn:bench:{i}", "title": name[:-4], "url": f"x{i}",
                        "file": name, "size": 0, "sha256": None, "published": None,
                        "archived": "2024-01-01T00:00:00Z"})
    with open(os.path.join(folder, ".podarchive", "index.json"), "w") as out:
        json.dump({"version": 2, "feed": feed_url, "title": "Many Items", "episodes": entries, "failures": []}, out)


def write_shows(directory, bases, per_base, prefix):
    """One feed per show, each with one 2 KB episode, spread over the servers at `bases`; returns the feed URLs."""
    os.makedirs(os.path.join(directory, "ep"), exist_ok=True)
    write_random(os.path.join(directory, "ep", "small.mp3"), 2048)
    urls = []
    for server_number, base in enumerate(bases):
        for show in range(per_base):
            name = f"{prefix}-{server_number}-{show}"
            with open(os.path.join(directory, f"{name}.xml"), "w") as out:
                out.write(f'<?xml version="1.0"?><rss version="2.0"><channel><title>{name}</title>'
                          f'<item><title>{name} one</title><guid>{name}</guid>'
                          f'<enclosure url="{base}/ep/small.mp3" type="audio/mpeg" length="2048"/></item>'
                          f'</channel></rss>\n')
            urls.append(f"{base}/{name}.xml")
    return urls


def build_archive_of(root, count, size):
    """An archive of one show holding `count` episodes of `size` random bytes each, indexed with their sizes and
    SHA-256 (a version 2 index, as a sync writes one); returns the episodes' paths in index order."""
    import hashlib
    shutil.rmtree(root, ignore_errors=True)
    folder = os.path.join(root, "Scale Show")
    os.makedirs(os.path.join(folder, ".podarchive"))
    entries, paths = [], []
    for i in range(count):
        name = f"Episode {i:05d}.mp3"
        data = os.urandom(size)
        path = os.path.join(folder, name)
        with open(path, "wb") as out:
            out.write(data)
        day = 1 + i % 28
        entries.append({"key": f"urn:scale:{i}", "guid": f"urn:scale:{i}", "title": f"Episode {i:05d}",
                        "url": f"https://scale.example/{i}.mp3", "file": name, "size": size,
                        "sha256": hashlib.sha256(data).hexdigest(), "published": f"2020-01-{day:02d}T10:00:00Z",
                        "archived": "2024-01-01T00:00:00Z"})
        paths.append(path)
    with open(os.path.join(folder, ".podarchive", "index.json"), "w") as out:
        json.dump({"version": 2, "feed": "https://scale.example/feed.xml", "title": "Scale Show",
                   "episodes": entries, "failures": []}, out)
    return paths


def exports_at_scale(podarchive, env, reps, smoke):
    """`site`, `export --warc` and `export --library` over an archive of 10,000 episodes of 4 KB, each beside a bare
    pass over the same files in the same rounds: `cat` copying every byte once into one file."""
    count = 300 if smoke else 10_000
    root = os.path.join(WORK, "scale")
    paths = build_archive_of(root, count, 4096)
    out = os.path.join(WORK, "scale-out")
    os.makedirs(out, exist_ok=True)
    warc = os.path.join(out, "scale.warc")
    copied = os.path.join(out, "cat.out")

    def fresh_site():
        # Every page written again, as on a first `site`: the stamps that let a show's pages be kept go.
        for folder, _, files in os.walk(root):
            for name in files:
                if name in ("index.html", "feed.xml", "feeds.opml", "site.stamp"):
                    os.remove(os.path.join(folder, name))

    def fresh(path):
        def prepare():
            if os.path.exists(path):
                os.remove(path)
        return prepare
    library = os.path.join(out, "library")

    copies = os.path.join(out, "cp-r")

    def fresh_library():
        shutil.rmtree(library, ignore_errors=True)

    def fresh_copies():
        shutil.rmtree(copies, ignore_errors=True)
    cat = ["sh", "-c", 'cat "$@" > "$0"', copied] + paths
    zcat = ["sh", "-c", 'cat "$@" | gzip -6 > "$0"', copied + ".gz"] + paths
    rounds = interleaved_rounds(
        reps, (fresh_site, [podarchive, "site", root]), (fresh(warc), [podarchive, "export", root, "--warc", warc]),
        (None, cat), (fresh(warc + ".gz"), [podarchive, "export", root, "--warc", warc + ".gz"]), (None, zcat),
        (fresh_library, [podarchive, "export", root, "--library", library]),
        (fresh_copies, ["cp", "-r", os.path.join(root, "Scale Show"), copies]), env=env)
    (site, site_rss), (export, export_rss), (bare, _), (gz, gz_rss), (bare_gz, _), (lib, lib_rss), (cp, _) = [
        (statistics.median(t), max(p)) for t, p in rounds]

    def ratio(ours, reference):
        return statistics.median(a / b for a, b in zip(rounds[ours][0], rounds[reference][0]))
    return [
        (f"site, {count:,} episodes of 4 KB, every page written", site, site_rss,
         f"cat over the same files {bare:.3f} s ({ratio(0, 2):.2f}x, median of the rounds' ratios; target: under 1 s)",
         ratio(0, 2)),
        (f"export --warc, {count:,} episodes of 4 KB", export, export_rss,
         f"cat over the same files into one {bare:.3f} s ({ratio(1, 2):.2f}x, median of the rounds' ratios; "
         f"target 2x)", ratio(1, 2)),
        (f"export --library, {count:,} episodes of 4 KB, a first export (tagged; made durable by one syncfs)", lib,
         lib_rss, f"cat over the same files into one {bare:.3f} s ({ratio(5, 2):.2f}x, median of the rounds' ratios); "
         f"cp -r of the show's folder (a file each) {cp:.3f} s ({ratio(5, 6):.2f}x)", ratio(5, 2)),
        (f"export --warc into .warc.gz, {count:,} episodes of 4 KB", gz, gz_rss,
         f"cat piped through gzip -6 {bare_gz:.3f} s ({ratio(3, 4):.2f}x, median of the rounds' ratios)", ratio(3, 4)),
    ]


def many_shows(podarchive, reference, data, env, reps, smoke):
    """Subscriptions refreshed in parallel: 40 slow shows on 8 addresses, and 500 shows with nothing new."""
    rows = []
    shows_dir = os.path.join(data, "shows")
    servers = [serve(shows_dir, f"127.0.0.{n}", SlowFeedHandler) for n in range(1, 9)]
    fast, fast_base = serve(shows_dir)
    try:
        per_base = 1 if smoke else 5
        slow_urls = write_shows(shows_dir, [base for _, base in servers], per_base, "slow")
        root = os.path.join(WORK, "shows")
        sequential_root = os.path.join(WORK, "shows-sequential")

        def fresh_roots():
            for path in (root, sequential_root):
                shutil.rmtree(path, ignore_errors=True)
        (first, first_rss), (first_seq, _) = interleaved_medians(
            reps, (fresh_roots, [podarchive, "sync", *slow_urls, "--to", root]),
            (None, [podarchive, "sync", *slow_urls, "--to", sequential_root, "--feed-jobs", "1"]), env=env)
        (noop, noop_rss), (noop_seq, _) = interleaved_medians(
            reps, (None, [podarchive, "sync", "--to", root]),
            (None, [podarchive, "sync", "--to", sequential_root, "--feed-jobs", "1"]), env=env)
        curl_feeds, _ = median_of(reps, None, ["curl", "-sS", "--parallel", "--parallel-max", "8"]
                                  + [arg for url in slow_urls for arg in ("-o", "/dev/null", url)])
        count = len(slow_urls)
        rows.append((f"first sync, {count} shows on 8 addresses, 200 ms per feed request", first, first_rss,
                     f"one show after another (--feed-jobs 1) {first_seq:.3f} s ({first_seq / first:.1f}x slower); "
                     f"curl fetching the {count} feeds 8 at a time {curl_feeds:.3f} s ({first / curl_feeds:.2f}x)",
                     first / first_seq))
        rows.append((f"re-run, {count} shows, nothing new, 200 ms per feed request", noop, noop_rss,
                     f"one show after another {noop_seq:.3f} s ({noop_seq / noop:.1f}x slower)", noop / noop_seq))

        many = 20 if smoke else 500
        many_urls = write_shows(shows_dir, [fast_base], many, "many")
        many_root = os.path.join(WORK, "many-shows")
        shutil.rmtree(many_root, ignore_errors=True)
        run([podarchive, "sync", *many_urls, "--to", many_root], env)
        stamp = os.path.join(shows_dir, "many-0-0.xml")
        # The same conditional requests at podarchive's own concurrency: DownloadBudget.requestsPerHost to one host.
        # And the least a URLSession program pays for as many requests as many at once: the floor, each feed's
        # body (a few hundred bytes) written to a file.
        floor_out = os.path.join(WORK, "many-floor")
        os.makedirs(floor_out, exist_ok=True)
        floor_list = os.path.join(WORK, "many-floor.list")
        with open(floor_list, "w") as out:
            for i, url in enumerate(many_urls):
                out.write(f"{url}\t{floor_out}/{i}.xml\n")
        many_rounds = interleaved_rounds(
            max(reps, 5), (None, [podarchive, "sync", "--to", many_root]),
            (None, ["curl", "-sS", "--parallel", "--parallel-max", str(REQUESTS_PER_HOST), "-z", stamp]
             + [arg for url in many_urls for arg in ("-o", "/dev/null", url)]),
            (None, [reference, "urlsession", floor_list, str(REQUESTS_PER_HOST)]), env=env)
        (many_noop, many_rss), (curl_many, _), (many_floor, _) = [
            (statistics.median(t), max(p)) for t, p in many_rounds]
        many_ratio = statistics.median(a / b for a, b in zip(many_rounds[0][0], many_rounds[1][0]))
        many_floor_ratio = statistics.median(a / b for a, b in zip(many_rounds[0][0], many_rounds[2][0]))
        rows.append((f"re-run, {many} subscribed shows, nothing new (loopback, no delay)", many_noop, many_rss,
                     f"curl's {many} conditional requests, {REQUESTS_PER_HOST} at a time, {curl_many:.3f} s "
                     f"({many_ratio:.2f}x, median of the rounds' ratios; target 2x); a bare URLSession making "
                     f"{many} requests {REQUESTS_PER_HOST} at a time {many_floor:.3f} s ({many_floor / curl_many:.2f}x "
                     f"curl; podarchive {many_floor_ratio:.2f}x it)", many_ratio))
    finally:
        for server, _ in servers:
            server.shutdown()
        fast.shutdown()
    return rows


def idle_waits(podarchive, reference, env, reps, smoke):
    """One episode trickling in at 20 KB/s: how much of a core podarchive spends waiting for it (CPU seconds over
    wall seconds, from getrusage), beside a bare URLSession fetching the same body, as FoundationNetworking ships it
    and with podarchive's correction of its socket watching (see Sources/CCurlSockets)."""
    size = 30_000 if smoke else 200_000
    rate = TrickleHandler.RATE
    slow_dir = os.path.join(WORK, "slow-data")
    os.makedirs(slow_dir, exist_ok=True)
    write_random(os.path.join(slow_dir, "slow.mp3"), size)
    server, base = serve(slow_dir, handler_class=TrickleHandler)
    try:
        with open(os.path.join(slow_dir, "slow-feed.xml"), "w") as out:
            out.write('<rss version="2.0"><channel><title>Slow</title><item><title>Slow</title><guid>slow</guid>'
                      f'<enclosure url="{base}/slow.mp3" type="audio/mpeg" length="{size}"/></item></channel></rss>')
        archive = os.path.join(WORK, "slow-archive")
        listing = os.path.join(WORK, "slow.list")
        with open(listing, "w") as out:
            out.write(f"{base}/slow.mp3\t{os.path.join(WORK, 'slow-bare.mp3')}\n")
        commands = [[podarchive, "sync", f"{base}/slow-feed.xml", "--to", archive],
                    [reference, "urlsession", listing, "1", "as-shipped"],
                    [reference, "urlsession", listing, "1"]]
        samples = [[] for _ in commands]
        for _ in range(reps):
            for position, command in enumerate(commands):
                shutil.rmtree(archive, ignore_errors=True)
                samples[position].append(run_measured(command, env))
    finally:
        server.shutdown()
    (wall, rss, cpu), (bare_wall, _, bare_cpu), (fixed_wall, _, fixed_cpu) = [
        tuple(statistics.median(values) for values in zip(*runs)) for runs in samples]
    share, bare_share, fixed_share = cpu / wall, bare_cpu / bare_wall, fixed_cpu / fixed_wall
    if share > 0.05:
        raise RuntimeError(f"waiting on a slow download took {share:.1%} of a core ({cpu:.2f} s in {wall:.2f} s)")
    return [(f"waiting on a slow network: one {size // 1000} KB episode at {rate // 1000} KB/s (ratio: CPU s per wall s)",
             wall, rss,
             f"CPU {cpu:.3f} s in {wall:.2f} s: {share:.1%} of a core (target 5%); a bare URLSession as "
             f"FoundationNetworking ships it {bare_cpu:.2f} s in {bare_wall:.2f} s ({bare_share:.0%}, "
             f"{bare_share / max(share, 1e-9):.0f}x podarchive's share); the same with podarchive's correction "
             f"{fixed_cpu:.3f} s ({fixed_share:.1%})", share)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "ship", "release"))
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--no-venv", action="store_true")
    parser.add_argument("--shows-only", action="store_true", help="only the many-shows measurements")
    parser.add_argument("--sync-only", action="store_true", help="only the first sync and the one-show no-op")
    parser.add_argument("--exports-only", action="store_true", help="only site and export at 10,000 episodes")
    args = parser.parse_args()

    reps = 1 if args.smoke else args.reps
    episodes, episode_size, big_size, feed_items = (
        (5, 16_384, 4_000_000, 500) if args.smoke else (200, 262_144, 500_000_000, 20_000))
    data = os.path.join(WORK, "smoke-data" if args.smoke else "data")
    generate(data, episodes, episode_size, big_size, feed_items)
    podarchive = os.path.join(args.bin, "podarchive")
    reference = os.path.join(args.bin, "podarchive-bench")
    home = os.path.join(WORK, "home")
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"))
    archive = os.path.join(WORK, "archive")
    curl_out = os.path.join(WORK, "curl")
    rows = []

    def fresh(*paths):
        def prepare():
            for path in paths:
                shutil.rmtree(path, ignore_errors=True)
                os.makedirs(path, exist_ok=True)
            # Start each timed run with nothing left to write back: curl does not fsync, so the disk would
            # otherwise write its last file while the next command runs.
            os.sync()
        return prepare

    server, base = serve(data)
    write_feeds(data, base, episodes, episode_size, big_size)
    if args.exports_only:
        server.shutdown()
        print("\n".join(table(exports_at_scale(podarchive, env, reps, smoke=args.smoke))))
        return
    if args.shows_only:
        server.shutdown()
        print("\n".join(table(many_shows(podarchive, reference, data, env, reps, smoke=args.smoke))))
        return
    try:
        # --- 200 episodes: first sync and no-op re-run -------------------------------------------------
        feed = f"{base}/feed.xml"
        urls = [f"{base}/ep/{i}.mp3" for i in range(episodes)]
        config = os.path.join(WORK, "curl.cfg")
        with open(config, "w") as out:
            for i, url in enumerate(urls):
                out.write(f'url = "{url}"\noutput = "{curl_out}/{i}.mp3"\n')
        floor_list = os.path.join(WORK, "urlsession.list")
        with open(floor_list, "w") as out:
            for i, url in enumerate(urls):
                out.write(f"{url}\t{curl_out}/{i}.mp3\n")
        # podarchive, curl and a URLSession that does nothing but write (the floor any URLSession downloader
        # stands on: podarchive must use URLSession) in turn, so a machine that slows for a while slows all three.
        # The ratio is the median of the rounds' own ratios: each round's podarchive run against the floor run
        # beside it, so a slow stretch of the machine cancels out.
        first_rounds = interleaved_rounds(
            reps if args.smoke else max(reps, 7), (fresh(archive), [podarchive, "sync", feed, "--to", archive]),
            (fresh(curl_out), ["curl", "-sS", "--parallel", "--parallel-max", "4", "-K", config]),
            (fresh(curl_out), [reference, "urlsession", floor_list, "4"]), env=env)
        (first, first_rss), (curl_par, _), (floor, _) = [
            (statistics.median(t), max(p)) for t, p in first_rounds]
        floor_ratio = statistics.median(a / b for a, b in zip(first_rounds[0][0], first_rounds[2][0]))
        # The least any URLSession program pays for the same request: a process that makes an ephemeral session
        # and asks once (podarchive must use URLSession), in the same rounds.
        feed_date = email.utils.formatdate(os.path.getmtime(os.path.join(data, "feed.xml")), usegmt=True)
        # A round is three short processes (~30 ms in all): 15 of them, and the ratio the median of the rounds'
        # own ratios, as for the first sync, so a slow stretch of the machine cancels out.
        noop_rounds = interleaved_rounds(
            reps if args.smoke else max(reps, 15), (None, [podarchive, "sync", feed, "--to", archive]),
            (None, ["curl", "-sS", "-o", "/dev/null", "-z", os.path.join(data, "feed.xml"), feed]),
            (None, [reference, "request", feed, feed_date]), env=env)
        (noop, noop_rss), (curl_noop, _), (request_floor, _) = [
            (statistics.median(t), max(p)) for t, p in noop_rounds]
        noop_ratio = statistics.median(a / b for a, b in zip(noop_rounds[0][0], noop_rounds[1][0]))
        noop_floor_ratio = statistics.median(a / b for a, b in zip(noop_rounds[0][0], noop_rounds[2][0]))
        curl_seq, _ = median_of(reps, fresh(curl_out), ["curl", "-sS", "-K", config])
        rows.append((f"first sync, {episodes} x {episode_size // 1024} KB (ratio: to the bare URLSession floor)",
                     first, first_rss,
                     f"curl sequential {curl_seq:.3f} s ({first / curl_seq:.2f}x); curl 4 parallel {curl_par:.3f} s "
                     f"({first / curl_par:.2f}x); a bare URLSession, 4 parallel, {floor:.3f} s ({floor / curl_par:.2f}x "
                     f"curl; podarchive {floor_ratio:.2f}x it, median of the rounds' ratios; target 1.2x)", floor_ratio))
        rows.append(("re-run, nothing new (feed 304)", noop, noop_rss,
                     f"one conditional curl request {curl_noop:.3f} s ({noop_ratio:.2f}x, median of the rounds' "
                     f"ratios; target 2x); one conditional request by a bare URLSession process "
                     f"{request_floor:.3f} s ({request_floor / curl_noop:.2f}x curl; podarchive "
                     f"{noop_floor_ratio:.2f}x it)",
                     noop_ratio))
        if args.sync_only:
            raise StopBench

        venv = os.path.join(WORK, "venv")
        have_venv = False
        if not args.smoke and not args.no_venv:
            if not os.path.exists(os.path.join(venv, "bin", "podcast-archiver")):
                subprocess.run([sys.executable, "-m", "venv", venv], check=False)
                subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "podcast-archiver", "feedparser"],
                               check=False)
            have_venv = os.path.exists(os.path.join(venv, "bin", "podcast-archiver"))
        if have_venv:
            peer_dir = os.path.join(WORK, "peer")
            peer_db = os.path.join(WORK, "peer.db")

            def fresh_peer():
                fresh(peer_dir)()
                if os.path.exists(peer_db):
                    os.remove(peer_db)
            peer = [os.path.join(venv, "bin", "podcast-archiver"), "--feed", feed, "--dir", peer_dir, "--database", peer_db,
                    "--quiet"]
            peer_first, _ = median_of(reps, fresh_peer, peer, env)
            peer_files = sum(len(files) for _, _, files in os.walk(peer_dir))
            if peer_files < episodes:  # it exits 0 whatever happened: check its work
                raise RuntimeError(f"podcast-archiver archived {peer_files} of {episodes} episodes")
            peer_noop, _ = median_of(reps, None, peer, env)
            rows.append(("podcast-archiver first sync (4 parallel)", peer_first, None,
                         f"podarchive is {peer_first / first:.1f}x faster", peer_first / first))
            rows.append(("podcast-archiver re-run, nothing new", peer_noop, None,
                         f"podarchive is {peer_noop / noop:.1f}x faster", peer_noop / noop))
        elif not args.smoke:
            rows.append(("podcast-archiver", None, None, "skipped: it could not be installed into a venv here"))

        # --- one large episode ---------------------------------------------------------------------------
        big_feed = f"{base}/big-feed.xml"
        # The noisiest figure on a shared machine (curl alone varies by up to 70% between runs): more samples.
        (big, big_rss), (curl_big, _) = interleaved_medians(
            reps if args.smoke else max(reps, 9), (fresh(archive), [podarchive, "sync", big_feed, "--to", archive]),
            (fresh(curl_out), ["curl", "-sS", "-o", f"{curl_out}/big.mp3", f"{base}/big.mp3"]), env=env)
        rows.append((f"one {big_size // 1_000_000} MB episode (SHA-256 while streaming)", big, big_rss,
                     f"curl -o {curl_big:.3f} s: podarchive reaches {curl_big / big:.0%} of curl's throughput",
                     big / curl_big))

        # --- first sync of many tiny episodes: the archive's own cost per episode, as a show grows -------------
        tiny_dir = os.path.join(data, "tiny")
        os.makedirs(tiny_dir, exist_ok=True)
        sizes = (25, 100, 400) if args.smoke else (250, 1000, 4000)
        for i in range(sizes[-1]):
            write_random(os.path.join(tiny_dir, f"{i}.mp3"), 4096)
        # fsync latency on a shared disk wanders by 2x between minutes: the sizes run in turn, five times each.
        tiny_archive = os.path.join(WORK, "tiny-archive")
        runs = []
        for count in sizes:
            items = "".join(
                f'<item><title>Tiny {i}</title><guid>tiny-{i}</guid>'
                f'<enclosure url="{base}/tiny/{i}.mp3" type="audio/mpeg" length="4096"/></item>' for i in range(count))
            with open(os.path.join(data, f"tiny-{count}.xml"), "w") as out:
                out.write(f'<rss version="2.0"><channel><title>Tiny {count}</title>{items}</channel></rss>')
            runs.append((fresh(tiny_archive), [podarchive, "sync", f"{base}/tiny-{count}.xml", "--to", tiny_archive]))
        rounds = interleaved_rounds(1 if args.smoke else 5, *runs, env=env)
        medians = [(statistics.median(t), max(p)) for t, p in rounds]
        first_cost = medians[0][0] / sizes[0]
        for position, (count, (seconds, rss)) in enumerate(zip(sizes, medians)):
            # Each round's cost per episode against the 250's of the same round (the 250-episode run is the short,
            # noisy one), the median of those: the ratio, as for the other rows.
            ratio = statistics.median(
                (a / count) / (b / sizes[0]) for a, b in zip(rounds[position][0], rounds[0][0]))
            detail = f"{seconds / count * 1000:.2f} ms per episode"
            if count == sizes[-1]:
                tiny_config = os.path.join(WORK, "tiny.cfg")
                with open(tiny_config, "w") as out:
                    for i in range(count):
                        out.write(f'url = "{base}/tiny/{i}.mp3"\noutput = "{curl_out}/{i}.mp3"\n')
                curl_tiny, _ = median_of(1, fresh(curl_out), ["curl", "-sS", "-Z", "--parallel-max", "4", "-K", tiny_config])
                detail += (f"; {ratio:.2f}x the cost per episode at {sizes[0]} (median of the rounds' ratios; the "
                           f"medians' {seconds / count / first_cost:.2f}x; target 1.3x); curl -Z --parallel-max 4 "
                           f"{curl_tiny:.2f} s ({seconds / curl_tiny:.1f}x)")
            rows.append((f"first sync, {count:,} episodes of 4 KB (ratio: cost per episode to that at {sizes[0]})",
                         seconds, rss, detail, ratio))

        # --- --limit-rate: the cap holds, side by side with curl's own ------------------------------------------
        rate_size = (1 << 20) if args.smoke else (8 << 20)
        write_random(os.path.join(data, "rate.mp3"), rate_size)
        with open(os.path.join(data, "rate-feed.xml"), "w") as out:
            out.write('<rss version="2.0"><channel><title>Rate</title><item><title>Capped</title><guid>rate</guid>'
                      f'<enclosure url="{base}/rate.mp3" type="audio/mpeg" length="{rate_size}"/></item></channel></rss>')
        capped, capped_rss = median_of(1, fresh(archive), [podarchive, "sync", f"{base}/rate-feed.xml", "--to", archive,
                                                           "--limit-rate", "1M"], env)
        curl_capped, _ = median_of(1, fresh(curl_out), ["curl", "-sS", "--limit-rate", "1M", "-o",
                                                        f"{curl_out}/rate.mp3", f"{base}/rate.mp3"])
        ideal = rate_size / (1 << 20)
        rows.append((f"--limit-rate 1M, one {rate_size >> 20} MB episode", capped, capped_rss,
                     f"curl --limit-rate 1M {curl_capped:.2f} s; at the cap exactly {ideal:.0f} s "
                     f"(podarchive {capped / ideal:.2f}x, curl {curl_capped / ideal:.2f}x)", capped / ideal))
        if capped < ideal * 7 / 8:
            raise RuntimeError(f"--limit-rate 1M read {rate_size} bytes in {capped:.2f} s: faster than the cap")

        # --- a transfer waiting on a slow network costs no CPU -------------------------------------------------
        rows += idle_waits(podarchive, reference, env, 1 if args.smoke else 3, args.smoke)

        # --- 10,000 archived episodes, feed changed --------------------------------------------------------
        archived_count = min(10_000, feed_items)
        with open(os.path.join(data, "items.xml")) as source:
            lines = source.read().split("\n")
        with open(os.path.join(data, "archived.xml"), "w") as out:  # the first 10,000 items, all archived
            out.write("\n".join(lines[:2] + lines[2:2 + archived_count]) + "\n</channel></rss>\n")
        archived_feed = f"{base}/archived.xml"
        ten_k = os.path.join(WORK, "archived")
        build_archived(ten_k, archived_feed, archived_count)
        run([podarchive, "sync", archived_feed, "--to", ten_k], env)  # registers the feed's folder

        def touch_archived():
            os.utime(os.path.join(data, "archived.xml"))  # a new Last-Modified: the feed is fetched, no 304
        many, many_rss = median_of(reps, touch_archived, [podarchive, "sync", archived_feed, "--to", ten_k], env)
        read_only, _ = median_of(reps, None, [podarchive, "list", os.path.join(data, "archived.xml"), "--json"], env)
        rows.append((f"re-run over {archived_count:,} archived episodes, feed changed", many, many_rss,
                     f"reading that feed alone (list --json) {read_only:.3f} s; the rest {many - read_only:.3f} s",
                     many / read_only))

        # --- reading big feeds ---------------------------------------------------------------------------------
        for name, bare in (("items.xml", "xmlparser"), ("items.json", "jsonserialization")):
            path = os.path.join(data, name)
            size = os.path.getsize(path) / 1e6
            ours, ours_rss = median_of(reps, None, [podarchive, "list", path, "--json"], env)
            floor, _ = median_of(reps, None, [reference, bare, path], env)
            detail = f"bare {bare} pass {floor:.3f} s ({ours / floor:.2f}x)"
            if have_venv:
                fp, _ = median_of(max(1, reps // 2), None,
                                  [os.path.join(venv, "bin", "python"), "-c", f"import feedparser; feedparser.parse({path!r})"])
                detail += f"; Python feedparser {fp:.2f} s ({fp / ours:.0f}x slower)"
            rows.append((f"list --json, {feed_items:,} items, {size:.0f} MB {name.split('.')[1].upper()}", ours, ours_rss,
                         detail, ours / floor))
        rows += many_shows(podarchive, reference, data, env, reps, smoke=args.smoke)
        rows += exports_at_scale(podarchive, env, reps, smoke=args.smoke)
    except StopBench:
        pass
    finally:
        server.shutdown()

    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
        f"{'smoke run' if args.smoke else f'median of {reps} runs'}",
        "",
        "| measurement | podarchive | peak RSS | ratio to the reference, same rounds | reference, same run |",
        "|---|---|---|---|---|",
    ] + table(rows)
    text = "\n".join(lines)
    print(text)
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "results.md"), "w") as out:
        out.write(text + "\n")
    print(f"bench: {len(rows)} measurements")


if __name__ == "__main__":
    main()
