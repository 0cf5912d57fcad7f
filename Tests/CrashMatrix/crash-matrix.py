#!/usr/bin/env python3
"""The crash matrix: the built podarchive killed (SIGKILL) just before each call that changes a file of the
archive (each write, rename, fsync, unlink, link, truncate, date and extended attribute set), for each command
that changes the archive, then run on as a user would; after that next run everything must have converged.

    crash-matrix.py --bin PATH [--only NAME ...] [--keep]

How: `Fixtures/crash-shim/crash-shim.c` (the crash tests' library) is built here and loaded with LD_PRELOAD (nothing in podarchive knows of it, so the shipped
binary is what is tested). One run of each command with the shim counting gives the calls under the scratch
folder; then, for N = 1..count, a fresh copy of the command's starting archive is taken, the command is run with
the shim killing it before call N, and the scenario's next commands run without the shim. The checks are what a
user would look at: every episode's bytes, the index (through `list --archived --json`), `verify`, the hooks
that ran, the files deleted, no temporary file left, no secret in the archive.

The feed is served by `python3 -m http.server` on 127.0.0.1 (a server nobody here wrote). Exit status 0 when
every point of every scenario converged, 1 otherwise (each failure is printed with the call killed and what did
not converge).
"""

import argparse
import gzip
import hashlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHIM_SOURCE = HERE.parent.parent / "Fixtures" / "crash-shim" / "crash-shim.c"
SHOW = "Crash Matrix"
EPISODES = ["One", "Two", "Three"]
SECRET = "s3cretMatrix"


class Failure(Exception):
    pass


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def episode_bytes(number):
    generator = random.Random(number)
    return bytes(generator.getrandbits(8) for _ in range(24_000 + 1_000 * number))


def write_feed_folder(folder, port):
    """The show as a static folder: three episodes, each with a transcript and chapters, and show artwork."""
    folder.mkdir(parents=True)
    base = f"http://127.0.0.1:{port}"
    items = []
    for number, title in enumerate(EPISODES, start=1):
        (folder / f"ep{number}.mp3").write_bytes(episode_bytes(number))
        (folder / f"ep{number}.vtt").write_text(f"WEBVTT\n\n00:00.000 --> 00:01.000\n{title} said\n")
        chapters = {"version": "1.2.0", "chapters": [{"startTime": 0, "title": f"{title} begins"}]}
        (folder / f"ep{number}.chapters.json").write_text(json.dumps(chapters))
        items.append(
            f"""<item><title>{title}</title><guid>guid-{number}</guid>
  <pubDate>Mon, 0{number} Sep 2025 10:00:00 GMT</pubDate>
  <description>Notes of {title}.</description>
  <enclosure url="{base}/ep{number}.mp3" type="audio/mpeg" length="{len(episode_bytes(number))}"/>
  <podcast:transcript url="{base}/ep{number}.vtt" type="text/vtt" language="en"/>
  <podcast:chapters url="{base}/ep{number}.chapters.json" type="application/json+chapters"/>
</item>"""
        )
    (folder / "cover.png").write_bytes(
        bytes.fromhex(
            "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
            "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
        )
    )
    (folder / "feed.xml").write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>{SHOW}</title><link>{base}/</link><description>A show to kill.</description>
<itunes:image href="{base}/cover.png"/>
{"".join(reversed(items))}
</channel></rss>
"""
    )


class Matrix:
    def __init__(self, binary, work, keep):
        self.binary = str(Path(binary).resolve())
        self.work = work
        self.keep = keep
        self.port = free_port()
        self.feed = f"http://127.0.0.1:{self.port}/feed.xml"
        self.shim = work / "crash-shim.so"
        compiler = shutil.which("clang") or shutil.which("cc") or "gcc"
        subprocess.run(
            [compiler, "-shared", "-fPIC", "-O2", "-o", str(self.shim), str(SHIM_SOURCE), "-ldl"], check=True
        )
        write_feed_folder(work / "served", self.port)
        self.server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1", "--directory",
             str(work / "served")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            if time.monotonic() > deadline or self.server.poll() is not None:
                raise SystemExit("crash-matrix: python3 -m http.server did not start")
            time.sleep(0.05)
        self.hook_log = work / "hooks.log"

    def close(self):
        self.server.terminate()
        self.server.wait(timeout=10)

    # A scratch folder holds everything a run writes: the archive, the home folder (configuration, credentials),
    # the site's --out folder and the WARC. Only calls under it are counted and killed.

    def environment(self, scratch, extra=None):
        home = scratch / "home"
        home.mkdir(exist_ok=True)
        environment = {
            "HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC",
            "XDG_CACHE_HOME": str(home / ".cache"), "TMPDIR": str(self.work / "tmp"),
        }
        environment.update(extra or {})
        return environment

    def run(self, scratch, arguments, kill_at=None, log=None, allowed=(0,)):
        environment = self.environment(scratch)
        if kill_at is not None:
            environment.update(
                {"LD_PRELOAD": str(self.shim), "PODARCHIVE_SHIM_UNDER": str(scratch),
                 "PODARCHIVE_SHIM_KILL_AT": str(kill_at)}
            )
            if log:
                environment["PODARCHIVE_SHIM_LOG"] = str(log)
        done = subprocess.run(
            [self.binary] + [argument.replace("{ROOT}", str(scratch / "archive"))
                             .replace("{SCRATCH}", str(scratch)) for argument in arguments],
            cwd=scratch, env=environment, capture_output=True, text=True, timeout=120,
        )
        if kill_at is None and done.returncode not in allowed:
            raise Failure(
                f"`podarchive {' '.join(arguments)}` exited {done.returncode}: {done.stderr.strip()[-600:]}"
            )
        return done

    def hook(self):
        return f'printf "%s\\n" "$PODARCHIVE_TITLE" >> "{self.hook_log}"'


# MARK: - What a converged archive looks like


def show_folder(scratch):
    return scratch / "archive" / SHOW


def index_entries(matrix, scratch):
    done = matrix.run(scratch, ["list", f"{{ROOT}}/{SHOW}", "--archived", "--json"])
    return sorted(episode["title"] for episode in json.loads(done.stdout)["episodes"])


def temporary_files(folder):
    """Files a run should never leave: temporary names, partial downloads (outside a run that failed)."""
    left = []
    for path in Path(folder).rglob("*"):
        name = path.name
        if ".tmp" in name or name.endswith(".part") or name.startswith(".tmp"):
            left.append(str(path.relative_to(folder)))
    return sorted(left)


def expect(condition, message):
    if not condition:
        raise Failure(message)


def check_episodes(matrix, scratch, titles):
    """Exactly `titles` are archived (index and files), each byte-identical to what the server holds."""
    listed = index_entries(matrix, scratch)
    expect(listed == sorted(titles), f"the index lists {listed}, expected {sorted(titles)}")
    folder = show_folder(scratch)
    media = sorted(path.name for path in folder.glob("*.mp3"))
    expect(media == sorted(f"{title}.mp3" for title in titles), f"the show folder holds {media}")
    for title in titles:
        number = EPISODES.index(title) + 1
        data = (folder / f"{title}.mp3").read_bytes()
        expect(data == episode_bytes(number), f"{title}.mp3 is not the publisher's bytes ({len(data)} bytes)")
    matrix.run(scratch, ["verify", "{ROOT}"])


def check_no_temporaries(scratch, *folders):
    for folder in folders:
        if Path(folder).exists():
            left = temporary_files(folder)
            expect(not left, f"temporary files left in {Path(folder).name}: {left}")


def secret_holders(folder):
    holders = []
    for path in Path(folder).rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if path.suffix == ".gz":
                try:
                    data += gzip.decompress(data)
                except (OSError, EOFError):
                    pass
            if SECRET.encode() in data:
                holders.append(str(path.relative_to(folder)))
            try:
                for name in os.listxattr(path):
                    if SECRET.encode() in os.getxattr(path, name):
                        holders.append(f"{path.relative_to(folder)} ({name})")
            except OSError:
                pass
    return holders


# MARK: - Scenarios


class Scenario:
    """A command killed at each point: `prepare` makes the starting archive once, `command` is killed, `next`
    runs after it (as a user's next run would), and `check` says whether the archive converged."""

    name = ""
    command = []

    def prepare(self, matrix, scratch):
        matrix.run(scratch, ["sync", matrix.feed, "--to", "{ROOT}", "--jobs", "1"])

    def next(self, matrix, scratch):
        matrix.run(scratch, self.command)

    def check(self, matrix, scratch):
        raise NotImplementedError


class SyncWithHook(Scenario):
    """`sync --exec` from an empty archive: every episode archived once, every hook run at least once."""

    name = "sync --exec"

    def __init__(self, matrix):
        self.command = ["sync", matrix.feed, "--to", "{ROOT}", "--jobs", "1", "--exec", matrix.hook()]

    def prepare(self, matrix, scratch):
        (scratch / "archive").mkdir()

    def next(self, matrix, scratch):
        matrix.hook_log.unlink(missing_ok=True)
        # The killed run's hooks are in the log of the run before: the next run's are what it owes.
        matrix.run(scratch, self.command)

    def run_killed(self, matrix, scratch, point):
        matrix.hook_log.unlink(missing_ok=True)
        matrix.run(scratch, self.command, kill_at=point)
        self.killed_hooks = matrix.hook_log.read_text().splitlines() if matrix.hook_log.exists() else []

    def check(self, matrix, scratch):
        check_episodes(matrix, scratch, EPISODES)
        check_no_temporaries(scratch, scratch / "archive")
        after = matrix.hook_log.read_text().splitlines() if matrix.hook_log.exists() else []
        ran = self.killed_hooks + after
        for title in EPISODES:
            expect(title in ran, f"the hook of {title} never ran (killed run: {self.killed_hooks}, next: {after})")
        again = matrix.hook_log.read_text().splitlines() if matrix.hook_log.exists() else []
        matrix.hook_log.unlink(missing_ok=True)
        matrix.run(scratch, self.command)
        third = matrix.hook_log.read_text().splitlines() if matrix.hook_log.exists() else []
        expect(third == [], f"a run after the next ran hooks again: {third} (next had run {again})")


class Forget(Scenario):
    """`forget` of one episode. Killed, it has either not begun (nothing recorded: the user runs it again) or it
    finishes on the next command that takes the show's lock (a sync): never half, never files left for ever."""

    name = "forget"
    command = ["forget", "--to", "{ROOT}", SHOW, "Two"]

    def next(self, matrix, scratch):
        matrix.run(scratch, ["sync", matrix.feed, "--to", "{ROOT}", "--jobs", "1"])

    def check(self, matrix, scratch):
        listed = index_entries(matrix, scratch)
        if "Two" in listed:
            # Not begun: all of it is there, whole, and the user's second try does it.
            check_episodes(matrix, scratch, EPISODES)
            self.check_companions(scratch, EPISODES)
            matrix.run(scratch, self.command)
        self.check_forgotten(matrix, scratch)

    def check_companions(self, scratch, titles):
        for title in titles:
            for suffix in [".en.vtt", ".chapters.json"]:
                expect((show_folder(scratch) / f"{title}{suffix}").exists(), f"{title}{suffix} is missing")

    def check_forgotten(self, matrix, scratch):
        check_episodes(matrix, scratch, ["One", "Three"])
        self.check_companions(scratch, ["One", "Three"])
        leftovers = sorted(path.name for path in show_folder(scratch).glob("Two*"))
        expect(not leftovers, f"forgotten files left: {leftovers}")
        check_no_temporaries(scratch, scratch / "archive")


class ForgetKeepingFiles(Forget):
    name = "forget --keep-files"
    command = ["forget", "--to", "{ROOT}", "--keep-files", SHOW, "Two"]

    def check_forgotten(self, matrix, scratch):
        listed = index_entries(matrix, scratch)
        expect(listed == ["One", "Three"], f"the index lists {listed}")
        expect((show_folder(scratch) / "Two.mp3").read_bytes() == episode_bytes(2), "Two.mp3 was not kept whole")
        self.check_companions(scratch, EPISODES)
        matrix.run(scratch, ["verify", "{ROOT}"])
        check_no_temporaries(scratch, scratch / "archive")


class Undo(Scenario):
    """`forget --undo`: killed, it has either not begun (the user runs it again) or the next sync fetches the
    episode again."""

    name = "forget --undo"
    command = ["forget", "--undo", "--to", "{ROOT}", SHOW, "Two"]

    def prepare(self, matrix, scratch):
        super().prepare(matrix, scratch)
        matrix.run(scratch, ["forget", "--to", "{ROOT}", SHOW, "Two"])

    def next(self, matrix, scratch):
        matrix.run(scratch, ["sync", matrix.feed, "--to", "{ROOT}", "--jobs", "1"])

    def check(self, matrix, scratch):
        if "Two" not in index_entries(matrix, scratch):
            check_episodes(matrix, scratch, ["One", "Three"])
            matrix.run(scratch, self.command)
            matrix.run(scratch, ["sync", matrix.feed, "--to", "{ROOT}", "--jobs", "1"])
        check_episodes(matrix, scratch, EPISODES)
        check_no_temporaries(scratch, scratch / "archive")


class Repair(Scenario):
    """`verify --repair` of a damaged and a missing episode: both come back, nothing else changes."""

    name = "verify --repair"
    command = ["verify", "--repair", "{ROOT}"]

    def prepare(self, matrix, scratch):
        super().prepare(matrix, scratch)
        damaged = show_folder(scratch) / "One.mp3"
        data = bytearray(damaged.read_bytes())
        data[100] ^= 0xFF
        damaged.write_bytes(bytes(data))
        (show_folder(scratch) / "Three.mp3").unlink()

    def next(self, matrix, scratch):
        matrix.run(scratch, self.command, allowed=(0, 1))

    def check(self, matrix, scratch):
        check_episodes(matrix, scratch, EPISODES)
        check_no_temporaries(scratch, scratch / "archive")


class Site(Scenario):
    """`site`: the pages are whole and no temporary file is left."""

    name = "site"
    command = ["site", "{ROOT}"]

    def check(self, matrix, scratch):
        check_episodes(matrix, scratch, EPISODES)
        root = scratch / "archive"
        check_no_temporaries(scratch, root)
        for page in [root / "index.html", root / SHOW / "index.html"]:
            text = page.read_text()
            expect(text.rstrip().endswith("</html>"), f"{page.relative_to(scratch)} is not whole")


class SiteOut(Site):
    name = "site --out"
    command = ["site", "{ROOT}", "--out", "{SCRATCH}/published"]

    def check(self, matrix, scratch):
        check_episodes(matrix, scratch, EPISODES)
        out = scratch / "published"
        check_no_temporaries(scratch, scratch / "archive", out)
        for page in [out / "index.html", out / SHOW / "index.html"]:
            expect(page.exists(), f"{page.relative_to(scratch)} is missing")
            expect(page.read_text().rstrip().endswith("</html>"), f"{page.relative_to(scratch)} is not whole")
        for title in EPISODES:
            published = out / SHOW / f"{title}.mp3"
            expect(published.exists(), f"{published.relative_to(scratch)} is missing")
            expect(published.read_bytes() == episode_bytes(EPISODES.index(title) + 1), f"{title}.mp3 differs")


class Export(Scenario):
    """`export --warc`: the WARC is whole (every episode in it) and no temporary file is left."""

    name = "export --warc"
    command = ["export", "--warc", "{SCRATCH}/out/archive.warc", "{ROOT}"]

    def prepare(self, matrix, scratch):
        super().prepare(matrix, scratch)
        (scratch / "out").mkdir()

    def check(self, matrix, scratch):
        check_episodes(matrix, scratch, EPISODES)
        check_no_temporaries(scratch, scratch / "archive", scratch / "out")
        warc = (scratch / "out" / "archive.warc").read_bytes()
        for number in range(1, len(EPISODES) + 1):
            expect(episode_bytes(number) in warc, f"the WARC lacks episode {number}'s bytes")
        expect(warc.count(b"WARC/1.1\r\n") == warc.count(b"WARC-Record-ID"), "a WARC record is cut")


class MoveCredentials(Scenario):
    """`credentials --move` of an archive an earlier version left with its login in the subscription record. After
    the kill, at every other point a plain sync runs first: it finishes a move whose record already went."""

    name = "credentials --move"
    command = ["credentials", "--move", "--to", "{ROOT}"]

    def prepare(self, matrix, scratch):
        secret_feed = matrix.feed.replace("http://", f"http://matrix:{SECRET}@")
        matrix.run(scratch, ["sync", secret_feed, "--to", "{ROOT}", "--jobs", "1"])
        # What an earlier version kept: the login in the subscription record, inside the archive.
        credentials = list((scratch / "home").rglob("credentials/*"))
        records = list((scratch / "archive" / ".podarchive" / "feeds").glob("*.json"))
        expect(len(records) == 1, f"expected one subscription record, found {records}")
        record = json.loads(records[0].read_text())
        record["feed"] = secret_feed
        record.pop("storedCredentials", None)
        record.pop("version", None)
        records[0].write_text(json.dumps(record))
        # Its records folder was not yet kept private (0700): that is how this version knows such records.
        records[0].chmod(0o644)
        records[0].parent.chmod(0o755)
        for path in credentials:
            path.unlink()
        # A secret in every other place an earlier version or a killed move left one: a sidecar in a `--name`
        # subfolder, an episode's origin attribute, a leftover temporary file.
        secret_url = matrix.feed.replace("http://", f"http://matrix:{SECRET}@").replace("feed.xml", "e1.mp3")
        show = next(path for path in (scratch / "archive").iterdir() if not path.name.startswith("."))
        sidecar = json.dumps({"url": secret_url, "feed": {"url": secret_feed}})
        (show / "Sub").mkdir()
        (show / "Sub" / "Deep.info.json").write_text(sidecar)
        (show / ".Ep A.info.json.tmp-99999").write_text(sidecar)
        episode = next(path for path in show.iterdir() if path.suffix == ".mp3")
        os.setxattr(episode, "user.xdg.origin.url", secret_url.encode())
        holders = secret_holders(scratch / "archive")
        for place in ["feeds/", "Sub/Deep.info.json", ".Ep A.info.json.tmp-99999", "(user.xdg.origin.url)"]:
            expect(any(place in holder for holder in holders), f"the seeded secret is not in {place}: {holders}")

    def next(self, matrix, scratch):
        # At every other point the next command is a plain sync, which finishes a move whose record already went
        # (the show's mark, written first, says so), and leaves the record's own secret to `--move` (never a side
        # effect of a sync).
        if self.point % 2 == 0:
            self.sync_first(matrix, scratch)
        matrix.run(scratch, self.command)
        matrix.run(scratch, ["sync", "--to", "{ROOT}", "--jobs", "1"])

    def sync_first(self, matrix, scratch):
        mark = show_folder(scratch) / ".podarchive" / "credentials-move.json"
        marked = mark.exists()
        holders = secret_holders(scratch / "archive")
        in_record = [holder for holder in holders if holder.startswith(".podarchive/feeds/")]
        matrix.run(scratch, ["sync", "--to", "{ROOT}", "--jobs", "1"])
        holders = secret_holders(scratch / "archive")
        if not in_record:
            expect(not holders, f"the sync after the kill left the secret: {holders}")
            expect(not mark.exists(), "the sync after the kill left the move's mark")
        elif marked:
            expect(holders == in_record, f"the sync after the kill left the secret outside the record: {holders}")
            expect(mark.exists(), "the sync after the kill took the mark of a move it could not finish")

    def check(self, matrix, scratch):
        check_episodes(matrix, scratch, EPISODES)
        expect(not (show_folder(scratch) / ".podarchive" / "credentials-move.json").exists(), "the move's mark stays")
        holders = secret_holders(scratch / "archive")
        expect(not holders, f"the secret is still in the archive: {holders}")
        kept = [path for path in (scratch / "home").rglob("credentials/*") if SECRET.encode() in path.read_bytes()]
        expect(kept, "the secret was lost: no credentials file holds it")
        check_no_temporaries(scratch, scratch / "archive")


class Offload(Scenario):
    """`offload --keep-last 1 --into DIR`: killed anywhere, the next command that takes the show's lock (a sync)
    finishes it or takes it back; each episode whole in exactly the place its entry names, none fetched again, and
    the offload run again leaves One and Two offloaded."""

    name = "offload"
    command = ["offload", "--to", "{ROOT}", SHOW, "--keep-last", "1", "--into", "{SCRATCH}/cold"]

    def prepare(self, matrix, scratch):
        super().prepare(matrix, scratch)
        (scratch / "cold").mkdir()

    def next(self, matrix, scratch):
        matrix.run(scratch, ["sync", "--to", "{ROOT}", "--jobs", "1"])

    def check(self, matrix, scratch):
        self.check_places(matrix, scratch)
        matrix.run(scratch, self.command)
        away = self.check_places(matrix, scratch)
        expect(away == ["One", "Two"], f"offloaded after a second offload: {away}")
        matrix.run(scratch, ["verify", "{ROOT}"])
        check_no_temporaries(scratch, scratch / "archive", scratch / "cold")

    def check_places(self, matrix, scratch):
        """Each episode whole where its entry says (here, or offloaded into cold), and not in the other place;
        the titles offloaded."""
        done = matrix.run(scratch, ["list", f"{{ROOT}}/{SHOW}", "--archived", "--json"])
        entries = {episode["title"]: episode for episode in json.loads(done.stdout)["episodes"]}
        expect(sorted(entries) == sorted(EPISODES), f"the index lists {sorted(entries)}")
        away = []
        for number, title in enumerate(EPISODES, start=1):
            here = show_folder(scratch) / f"{title}.mp3"
            there = scratch / "cold" / SHOW / f"{title}.mp3"
            state = (entries[title].get("away") or {}).get("state")
            kept, other = (there, here) if state == "offloaded" else (here, there)
            expect(state in (None, "offloaded"), f"{title} is {state}")
            expect(kept.exists() and kept.read_bytes() == episode_bytes(number), f"{title} is not whole at {kept}")
            expect(not other.exists(), f"{title} is at {other} too")
            if state == "offloaded":
                away.append(title)
        return away


class Rename(Scenario):
    """`rename --name '{date}/{title}'`: killed anywhere, the next command that takes the show's lock (a sync)
    finishes it; each episode and its companions whole at the names the index gives, nothing at another name,
    nothing fetched again, and the rename run again leaves every file at its new name."""

    name = "rename"
    command = ["rename", "--to", "{ROOT}", SHOW, "--name", "{date}/{title}"]

    def next(self, matrix, scratch):
        matrix.run(scratch, ["sync", "--to", "{ROOT}", "--jobs", "1"])

    def check(self, matrix, scratch):
        self.check_names(matrix, scratch)
        matrix.run(scratch, self.command)
        files = self.check_names(matrix, scratch)
        expected = [f"2025-09-0{number}/{title}.mp3" for number, title in enumerate(EPISODES, start=1)]
        expect(files == expected, f"after a second rename the files are {files}")
        matrix.run(scratch, ["verify", "{ROOT}"])
        check_no_temporaries(scratch, scratch / "archive")
        expect(not (show_folder(scratch) / ".podarchive" / "renames.json").exists(), "the rename's intent stays")

    def check_names(self, matrix, scratch):
        """Each episode whole at the name its entry gives, and no media file at any other; the names, in order."""
        done = matrix.run(scratch, ["list", f"{{ROOT}}/{SHOW}", "--archived", "--json"])
        entries = {episode["title"]: episode for episode in json.loads(done.stdout)["episodes"]}
        expect(sorted(entries) == sorted(EPISODES), f"the index lists {sorted(entries)}")
        folder = show_folder(scratch)
        files = []
        for number, title in enumerate(EPISODES, start=1):
            path = folder / entries[title]["file"]
            expect(path.exists() and path.read_bytes() == episode_bytes(number), f"{title} is not whole at {path}")
            files.append(entries[title]["file"])
        media = sorted(str(path.relative_to(folder)) for path in folder.rglob("*.mp3"))
        expect(media == sorted(files), f"media files at names the index does not give: {media} vs {files}")
        return files


class Library(Scenario):
    """`export --library DIR`: killed anywhere, the export run again leaves every episode's tagged copy whole in DIR
    (its publisher's bytes after the tag), the library's record naming exactly the copies, no temporary file in DIR
    or the archive, and the archive as it was."""

    name = "export --library"
    command = ["export", "{ROOT}", "--library", "{SCRATCH}/lib"]

    def check(self, matrix, scratch):
        check_episodes(matrix, scratch, EPISODES)
        check_no_temporaries(scratch, scratch / "archive", scratch / "lib")
        shelf = scratch / "lib" / SHOW
        copies = sorted(path.name for path in shelf.glob("*.mp3"))
        expect(len(copies) == len(EPISODES), f"the library holds {copies}")
        for number, title in enumerate(EPISODES, start=1):
            named = [name for name in copies if name.endswith(f" {title}.mp3")]
            expect(len(named) == 1, f"{title}: copies {named}")
            data = (shelf / named[0]).read_bytes()
            expect(episode_bytes(number) in data, f"{named[0]} lacks the publisher's bytes")
        record = json.loads((scratch / "lib" / ".podarchive-library.json").read_text())
        recorded = sorted(name for name in json.dumps(record).split('"') if name.endswith(".mp3"))
        expect(all(any(name.endswith(copy) for name in recorded) for copy in copies),
               f"the record does not name every copy: {recorded}")


SCENARIOS = [
    SyncWithHook, Forget, ForgetKeepingFiles, Undo, Repair, Site, SiteOut, Export, MoveCredentials, Offload, Rename,
    Library,
]


def run_scenario(matrix, scenario):
    start = matrix.work / f"{slug(scenario.name)}-start"
    start.mkdir()
    scenario.prepare(matrix, start)
    # Counting run: the calls the command makes, on a copy of the start.
    counting = matrix.work / f"{slug(scenario.name)}-count"
    shutil.copytree(start, counting, symlinks=True)
    log = matrix.work / f"{slug(scenario.name)}.calls"
    done = matrix.run(counting, scenario.command, kill_at=0, log=log)
    if done.returncode != 0:
        raise Failure(f"`{scenario.name}` without a kill exited {done.returncode}: {done.stderr.strip()[-600:]}")
    calls = log.read_text().splitlines() if log.exists() else []
    scenario.check_uninterrupted = True
    if isinstance(scenario, SyncWithHook):
        scenario.killed_hooks = matrix.hook_log.read_text().splitlines() if matrix.hook_log.exists() else []
        matrix.hook_log.unlink(missing_ok=True)
    shutil.rmtree(counting)
    failures = []
    for number, call in enumerate(calls, start=1):
        scratch = matrix.work / f"{slug(scenario.name)}-{number}"
        shutil.copytree(start, scratch, symlinks=True)
        scenario.point = number
        try:
            if isinstance(scenario, SyncWithHook):
                scenario.run_killed(matrix, scratch, number)
            else:
                killed = matrix.run(scratch, scenario.command, kill_at=number)
                # A run that made fewer calls than the counting run (threads finish in another order, a journal
                # already folded) ends before the point: it must have succeeded, and the rest holds as for a kill.
                if killed.returncode not in (-9, 0):
                    raise Failure(f"not killed, it exited {killed.returncode}: {killed.stderr.strip()[-600:]}")
            scenario.next(matrix, scratch)
            scenario.check(matrix, scratch)
        except Failure as failure:
            failures.append(f"{scenario.name}: killed before call {number} ({call.split(' ', 1)[1]}): {failure}")
        except (subprocess.TimeoutExpired, OSError, ValueError) as error:
            failures.append(f"{scenario.name}: killed before call {number} ({call.split(' ', 1)[1]}): {error!r}")
        if not matrix.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    if not matrix.keep:
        shutil.rmtree(start, ignore_errors=True)
    return len(calls), failures


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the podarchive binary to kill")
    parser.add_argument("--only", action="append", help="run only the scenarios with these names")
    parser.add_argument("--keep", action="store_true", help="keep every scratch folder (in the printed work folder)")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="podarchive-crash-matrix-"))
    (work / "tmp").mkdir()
    matrix = Matrix(options.bin, work, options.keep)
    total_points = 0
    all_failures = []
    began = time.monotonic()
    try:
        for kind in SCENARIOS:
            scenario = kind(matrix) if kind is SyncWithHook else kind()
            if options.only and scenario.name not in options.only:
                continue
            try:
                points, failures = run_scenario(matrix, scenario)
            except Failure as failure:
                points, failures = 0, [f"{scenario.name}: could not be set up: {failure}"]
            total_points += points
            all_failures += failures
            print(f"crash-matrix: {scenario.name}: {points} kill points, {len(failures)} did not converge", flush=True)
    finally:
        matrix.close()
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"crash-matrix: scratch folders kept in {work}")
    for failure in all_failures:
        print(f"  {failure}")
    print(f"crash-matrix: {total_points} kill points in {time.monotonic() - began:.0f} s, "
          f"{len(all_failures)} did not converge")
    return 1 if all_failures else 0


if __name__ == "__main__":
    sys.exit(main())
