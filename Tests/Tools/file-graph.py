#!/usr/bin/env python3
"""Which types of a Swift module call into which; prints every cycle (a group of types that reach each other), so
`make lint` fails when a run could call back into a type it came from.

A type is its declaration and all its extensions, wherever they are (`Archiver.swift`, `Archiver+Site.swift`,
...): a call into an extension's method names no type, so a graph of files would miss a cycle through one. Each
top-level declaration or extension is read as a block (swift-format puts its closing brace at the start of a
line); the type names a block mentions are what its type depends on. Only top-level types are looked up: nested
names repeat (`Kind` in several types) and would join types that never meet. Code outside any type (top-level
functions and constants) counts for its file. Types of one file may call each other."""
import pathlib
import re
import sys

BLOCK = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|open|final|indirect|nonisolated)\s+)*"
    r"(struct|class|enum|actor|protocol|extension|typealias)\s+([A-Z]\w*)")
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")
COMMENT = re.compile(r"//[^\n]*|\"(?:[^\"\\\n]|\\.)*\"")


def unwrapped(text):
    """`text` with the bodies of its top-level `#if` blocks, which swift-format indents, moved back to the start of
    the line: a declaration made in some builds only (a test hook's) is read as any other."""
    lines, depth = [], 0
    for line in text.split("\n"):
        if line.startswith("#if"):
            depth += 1
        elif line.startswith("#endif"):
            depth = max(0, depth - 1)
        elif depth and line.startswith("    "):
            line = line[4:]
        lines.append(line)
    return "\n".join(lines)


def blocks(text):
    """(kind, type name, text) of each top-level block (those under a top-level `#if` too); code outside them as
    (None, None, text)."""
    lines = unwrapped(text).split("\n")
    found, loose = [], []
    index = 0
    while index < len(lines):
        match = BLOCK.match(lines[index])
        if not match:
            loose.append(lines[index])
            index += 1
            continue
        start = index
        stripped = lines[index].rstrip()
        one_line = match.group(1) == "typealias" or (
            stripped.endswith("}") and stripped.count("{") == stripped.count("}"))
        if not one_line:
            index += 1
            while index < len(lines) and not lines[index].startswith("}"):
                index += 1
        found.append((match.group(1), match.group(2), "\n".join(lines[start:index + 1])))
        index += 1
    found.append((None, None, "\n".join(loose)))
    return found


def main():
    roots = [pathlib.Path(arg) for arg in sys.argv[1:]] or [pathlib.Path("Sources/ArchiverCore")]
    files = sorted(path for root in roots for path in root.rglob("*.swift"))
    parsed = {path: blocks(COMMENT.sub("", path.read_text())) for path in files}
    declared = {name for found in parsed.values() for kind, name, _ in found if kind and kind != "extension"}
    edges, where = {}, {}
    for path, found in parsed.items():
        for kind, name, text in found:
            # An extension of a type from elsewhere (Foundation's) is a node of its own file.
            node = name if name in declared else f"{path.name} (outside any type)"
            where.setdefault(node, set()).add(str(path))
            targets = edges.setdefault(node, set())
            for used in set(IDENTIFIER.findall(text)):
                if used in declared and used != node:
                    targets.add(used)
    for node in list(edges):
        for target in edges[node]:
            edges.setdefault(target, set())
    # Types of one file that call each other (a helper and the type it serves) are read together anyway.
    cycles = [cycle for cycle in strongly_connected(edges)
              if len(set().union(*(where.get(name, set()) for name in cycle))) > 1]
    for cycle in cycles:
        print("types that call each other: " + ", ".join(
            f"{name} ({', '.join(sorted(where.get(name, [])))})" for name in sorted(cycle)))
    return 1 if cycles else 0


def strongly_connected(edges):
    index, low, stack, on_stack, result, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in edges[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                result.append(group)

    sys.setrecursionlimit(10000)
    for node in edges:
        if node not in index:
            visit(node)
    return result


if __name__ == "__main__":
    sys.exit(main())
