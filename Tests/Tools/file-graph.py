#!/usr/bin/env python3
"""Which files of a Swift module call into which, by the type names each declares: a file that uses a type
declared in another file depends on that file. Prints every cycle (a group of files that reach each other), so
`make lint` fails when a run could call back into a file it came from. Extensions count for the file they are in
(`ArchiveIndex+Storage.swift` declares what it adds, and depends on `ArchiveIndex.swift`)."""
import pathlib
import re
import sys

DECLARATION = re.compile(r"^\s*(?:public |private |fileprivate |internal |final |indirect )*"
                         r"(?:struct|class|enum|actor|protocol|typealias)\s+([A-Z]\w*)", re.M)
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")
COMMENT = re.compile(r"//[^\n]*|\"(?:[^\"\\\n]|\\.)*\"")


def main():
    roots = [pathlib.Path(arg) for arg in sys.argv[1:]] or [pathlib.Path("Sources/ArchiverCore")]
    files = sorted(path for root in roots for path in root.rglob("*.swift"))
    declared = {}
    texts = {}
    for path in files:
        text = COMMENT.sub("", path.read_text())
        texts[path] = text
        for name in DECLARATION.findall(text):
            declared.setdefault(name, set()).add(path)
    edges = {path: set() for path in files}
    for path, text in texts.items():
        own = set(DECLARATION.findall(text))
        for name in set(IDENTIFIER.findall(text)) - own:
            for other in declared.get(name, ()):
                # An extension file depends on its type's file, never the other way round.
                if other != path:
                    edges[path].add(other)
        # A file extending a type declared elsewhere depends on the type's file only.
        for name in re.findall(r"^extension\s+([A-Z]\w*)", text, re.M):
            for other in declared.get(name, ()):
                if other != path:
                    edges[path].add(other)
    cycles = strongly_connected(edges)
    for cycle in cycles:
        print("files that call each other: " + ", ".join(str(path) for path in sorted(cycle)))
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
