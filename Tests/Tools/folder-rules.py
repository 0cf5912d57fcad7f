#!/usr/bin/env python3
"""Fails when a type of ArchiverCore names a type of a folder its folder may not depend on (ARCHITECTURE.md,
"What may depend on what"), or when anything but the wiring (`Archiver`, `ArchiveParts`) names the wiring.

`Archiver` is the facade the executable holds and `ArchiveParts` builds its parts: the two may name any part
(Archiver's extensions live beside the parts they call, e.g. `Site/Archiver+Site.swift`), and no part calls back
into them. Every other type
may name the types of its own folder, of the files at the module's root (`Version.swift`), and of the folders
`ALLOWED` lists for its folder. A new dependency between folders is a decision: add it here and to
ARCHITECTURE.md together. Blocks and type names are read as `file-graph.py` reads them.

    folder-rules.py [MODULE_FOLDER]
"""
import importlib.util
import pathlib
import sys

WIRING = ("Archiver", "ArchiveParts")
# What each folder's types may name besides their own folder's. Seams are the bottom (effects, how requests are
# made, waits that end); Feed reads feeds; Transfer, Placement, Index, History keep files; Subscriptions the
# shows a root follows; Sync runs a sync (and holds the vocabulary the workers share: SyncOptions, SyncEvent,
# ArchiveError, EpisodeFailure); Policy decides before and after; Verify, Site, Export are commands over the archive.
ALLOWED = {
    "Seams": {"Placement", "Transfer"},
    "Feed": {"Seams", "Transfer", "Placement", "Index", "Subscriptions"},
    "Transfer": {"Seams", "Feed", "Placement", "Index", "Sync"},
    "Placement": {"Seams", "Feed", "Transfer", "Index", "Subscriptions", "Sync"},
    "Index": {"Seams", "Feed", "Transfer", "Placement", "Subscriptions", "Sync"},
    "History": {"Seams", "Feed", "Transfer", "Placement", "Sync"},
    "Subscriptions": {"Seams", "Feed", "Transfer", "Placement", "Index", "History", "Sync"},
    "Sync": {"Seams", "Feed", "Transfer", "Placement", "Index", "History", "Subscriptions", "Policy", "Site",
             "Verify", "Hooks", "Forget"},
    "Policy": {"Seams", "Feed", "Placement", "Subscriptions", "Sync", "Export", "Forget"},
    "Verify": {"Seams", "Feed", "Transfer", "Placement", "Index", "History", "Subscriptions", "Sync"},
    "Site": {"Seams", "Feed", "Transfer", "Placement", "Index", "Subscriptions", "Sync", "Verify"},
    "Export": {"Seams", "Feed", "Transfer", "Placement", "Index", "History", "Sync", "Verify"},
    "Hooks": {"Seams", "Index", "Placement", "Sync"},
    "Forget": {"Seams", "Feed", "Index", "Placement", "Sync"},
}


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
    failures = set()
    for path, found in parsed.items():
        folder = path.parent
        for _, name, text in found:
            # The facade's blocks, and code outside any type in its files (an extension under `#if`).
            if name in WIRING or (name is None and path.name.startswith(tuple(f"{wiring}+" for wiring in WIRING))):
                continue
            for used in set(graph.IDENTIFIER.findall(text)):
                if used in WIRING:
                    failures.add(f"{path}: {name or 'top-level code'} names {used}, the wiring (no part calls it)")
                    continue
                target = folder_of.get(used)
                if target is None or target == folder or target == root or name == used:
                    continue
                if folder == root:
                    continue
                if folder.name not in ALLOWED:
                    failures.add(f"{folder}/ is a folder folder-rules.py does not know: give it a line in ALLOWED "
                                 f"(what it may depend on) and a row in ARCHITECTURE.md's table")
                elif target.name not in ALLOWED[folder.name]:
                    failures.add(f"{path}: {name or 'top-level code'} names {used} ({target.name}/), which "
                                 f"{folder.name}/ may not depend on (folder-rules.py, ARCHITECTURE.md)")
    for line in sorted(failures):
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
