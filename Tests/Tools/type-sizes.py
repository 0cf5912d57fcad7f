#!/usr/bin/env python3
"""Fails when a type, with all its extensions in its module, reaches the size at which it stops being read whole
(400 lines). A limit per file was met by scattering one type over many files (`Archiver+Open.swift`,
`Archiver+Plan.swift`, ...): counted per type, the way out is a type of its own where the code has a seam.

A module is each folder given (or each folder under it that holds Swift files directly under Sources/ or Tests/).
A type's size is the lines of its top-level declaration and of every top-level `extension` of it (or of a type
nested in it: `extension ArchiveIndex.Entry` counts for `ArchiveIndex`), doc comments left out. Swift-format
keeps every top-level declaration's closing brace at the start of a line, which is where one ends here.

    type-sizes.py [--list] [--limit N] FOLDER...
"""
import pathlib
import re
import sys

LIMIT = 400
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|open|final|indirect|nonisolated)\s+)*"
    r"(struct|class|enum|actor|protocol|extension)\s+([A-Z]\w*)")


def modules(roots):
    """Each folder whose Swift files form one module: the targets under Sources/ and Tests/."""
    for root in roots:
        root = pathlib.Path(root)
        if root.name in ("Sources", "Tests"):
            yield from (child for child in sorted(root.iterdir()) if child.is_dir() and any(child.rglob("*.swift")))
        else:
            yield root


def declarations(path):
    """(type name, lines) of each top-level type declaration and extension in the file at `path`."""
    lines = path.read_text().split("\n")
    found = []
    index = 0
    while index < len(lines):
        match = DECLARATION.match(lines[index])
        if not match:
            index += 1
            continue
        start = index
        # A declaration whose body opens and closes on its first line (`extension Foo: Bar {}`) is one line.
        stripped = lines[index].rstrip()
        if stripped.endswith("}") and stripped.count("{") == stripped.count("}"):
            found.append((match.group(2), 1))
            index += 1
            continue
        index += 1
        while index < len(lines) and not lines[index].startswith("}"):
            index += 1
        found.append((match.group(2), index - start + 1))
        index += 1
    return found


def main(arguments):
    listing = "--list" in arguments
    limit = LIMIT
    if "--limit" in arguments:
        limit = int(arguments[arguments.index("--limit") + 1])
    roots = [arg for position, arg in enumerate(arguments)
             if not arg.startswith("--") and (position == 0 or arguments[position - 1] != "--limit")]
    failures = []
    for module in modules(roots or ["Sources", "Tests"]):
        sizes, files = {}, {}
        for path in sorted(module.rglob("*.swift")):
            for name, count in declarations(path):
                sizes[name] = sizes.get(name, 0) + count
                files.setdefault(name, set()).add(path.name)
        for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
            where = f"{module}: {name}: {size} lines in {len(files[name])} file{'s' if len(files[name]) > 1 else ''}"
            if listing:
                print(where)
            elif size >= limit:
                failures.append(f"{where} (limit {limit - 1})")
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
