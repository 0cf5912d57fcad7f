#!/usr/bin/env python3
"""Fails when a type of ArchiverCore names a type of a folder above its own in `ORDER` (the layers ARCHITECTURE.md
lists), when a folder has no place in `ORDER` or `ORDER` names one that is gone, or when anything below the
wiring (`Archiver`, `ArchiveParts`) names them.

The core's folders are layers in a strict order, the lowest first: a type may name the types of its own folder, of
the files at the module's root (`Version.swift`) and of the folders below its own, never of one above, so no two
folders depend on each other and a change to a folder can only reach the folders above it. `Archiver` is the
facade the executable holds and `ArchiveParts` builds its parts: the two may name any part (Archiver's extensions
live beside the parts they call, e.g. `Site/Archiver+Site.swift`), and no part calls back into them; only the use
cases above them (`UseCases/`, one call per command) are made of the facade. A type that
needs one from a folder above is a decision: move the type it needs down (or split it from its file), hand it a
value or a closure, or move it up; a new folder takes its place in `ORDER` and in ARCHITECTURE.md together. Blocks
and type names are read as `file-graph.py` reads them.

    folder-rules.py [MODULE_FOLDER]
"""
import importlib.util
import pathlib
import sys

WIRING = ("Archiver", "ArchiveParts")
# The core's folders, the lowest first: each may name those before it.
ORDER = [
    "Digests",  # SHA-1, SHA-256, SHA-512 and the publisher's integrity values: pure computation
    "Vocabulary",  # the words every layer shares: errors, names and paths, dates, media types, the redaction rule
    "Seams",  # effects behind protocols (files, network, clock, processes), how requests are made, waits that end
    "Feed",  # reading a feed: fetching, parsing, pages, the episode model, the feed's validators
    "Run",  # what a run is asked and what it tells: options, show settings, the name template, events, reports
    "Index",  # a show's recorded state: the index, its journal and one fold, the records beside it
    "Folders",  # a show's folder: found, locked, opened, moved; what is in it; names allocated in it
    "History",  # the feed's revisions, kept
    "Subscriptions",  # the shows a root follows, their credentials and secrets, the configuration
    "Transfer",  # one episode downloaded: resumed, checked, its integrity gated
    "Placement",  # what a download becomes: episodes, companions, sidecars and artwork put in place
    "Hooks",  # the command run after each episode, owed and settled
    "Sync",  # the engine: a show opened, planned, followed and archived
    "Verify",  # commands over the archive: checking it and its upstream
    "Site",  # the static site
    "Export",  # WARC export
    "Library",  # export --library: tagged copies for players (ID3v2.4, MP4 atoms, Vorbis comments), its record
    "Forget",  # forgetting episodes
    "Shows",  # adding and removing shows
    "Policy",  # deciding before and after a run: which shows, which feed, the run's status
    "Wiring",  # Archiver and ArchiveParts: the facade and what builds its parts
    "UseCases",  # each command as one call on the facade: a request in, events and a report with its status out
    "Presentation",  # what the command line says of each report, event and error: its lines and JSON documents
]


def load_file_graph():
    spec = importlib.util.spec_from_file_location("file_graph", pathlib.Path(__file__).with_name("file-graph.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(arguments):
    graph = load_file_graph()
    root = pathlib.Path(arguments[0] if arguments else "Sources/ArchiverCore")
    parsed = {path: graph.blocks(graph.COMMENT.sub("", path.read_text())) for path in sorted(root.rglob("*.swift"))}
    folder_of = {}
    for path, found in parsed.items():
        for kind, name, text in found:
            # A private type is its file's alone (`Sidecar` in SiteShow.swift is not MetadataWriter's).
            if kind and kind != "extension" and not text.startswith(("private ", "fileprivate ")):
                folder_of.setdefault(name, path.parent)
    failures = {f"{path.parent}/ is a folder folder-rules.py does not know: give it its place in ORDER (what it may "
                f"depend on: the folders before it) and a line in ARCHITECTURE.md"
                for path in parsed if path.parent != root and path.parent.name not in ORDER}
    # The core's tests mirror its folders: a test of a type sits in the folder of the type's layer (the shared test
    # doubles apart), so the test of a layer is found where the layer is.
    tests = root.parent.parent / "Tests" / (root.name + "Tests")
    if tests.is_dir():
        failures |= {f"{folder}/ is no folder of {root}: put its tests in the folder of the layer they test"
                     for folder in sorted(tests.iterdir())
                     if folder.is_dir() and folder.name != "TestDoubles" and folder.name not in ORDER}
    failures |= {f"{root}/{folder}/ is in folder-rules.py's ORDER but holds no Swift file: take it out of ORDER and "
                 f"ARCHITECTURE.md" for folder in ORDER if not any(path.parent == root / folder for path in parsed)}
    for path, found in parsed.items():
        folder = path.parent
        for _, name, text in found:
            # The facade's blocks, and code outside any type in its files (an extension under `#if`).
            if name in WIRING or (name is None and path.name.startswith(tuple(f"{wiring}+" for wiring in WIRING))):
                continue
            for used in set(graph.IDENTIFIER.findall(text)):
                # The use cases sit above the wiring: they are the calls it offers, made of its parts.
                above_wiring = folder.name in ORDER and ORDER.index(folder.name) > ORDER.index("Wiring")
                if used in WIRING and not above_wiring:
                    failures.add(f"{path}: {name or 'top-level code'} names {used}, the wiring (no part calls it)")
                    continue
                target = folder_of.get(used)
                if target is None or target == folder or target == root or name == used:
                    continue
                if folder == root:
                    continue
                known = folder.name in ORDER and target.name in ORDER
                if known and ORDER.index(target.name) > ORDER.index(folder.name):
                    failures.add(f"{path}: {name or 'top-level code'} names {used} ({target.name}/), a folder above "
                                 f"{folder.name}/ (folder-rules.py ORDER, ARCHITECTURE.md)")
    for line in sorted(failures):
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
