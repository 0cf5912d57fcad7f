#!/usr/bin/env python3
"""Which types of a Swift module call into which, by the type names each mentions; prints every cycle (a group of
types that reach each other), so `make lint` fails when a run could call back into a type it came from.

A type is its declaration and all its extensions, wherever they are: the files that declare a type or extend it
are one node (`Archiver.swift`, `Archiver+Site.swift`, ...), since a call into an extension's method names no
type and a file graph would not see it. A file that uses a type declared or extended in another file depends on
that node."""
import pathlib
import re
import sys

# Top-level declarations only: a nested type is reached through its parent's name, and nested names repeat
# (`Kind` in several types) where a lookup by bare name would join types that never meet.
DECLARATION = re.compile(r"^(?:public |private |fileprivate |internal |final |indirect )*"
                         r"(?:struct|class|enum|actor|protocol|typealias)\s+([A-Z]\w*)", re.M)
NESTED = re.compile(r"^\s+(?:\w+ )*(?:struct|class|enum|actor|protocol|typealias)\s+([A-Z]\w*)", re.M)
EXTENSION = re.compile(r"^(?:(?:public|private|fileprivate|internal)\s+)?extension\s+([A-Z]\w*)", re.M)
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")
COMMENT = re.compile(r"//[^\n]*|\"(?:[^\"\\\n]|\\.)*\"")


def main():
    roots = [pathlib.Path(arg) for arg in sys.argv[1:]] or [pathlib.Path("Sources/ArchiverCore")]
    files = sorted(path for root in roots for path in root.rglob("*.swift"))
    texts = {path: COMMENT.sub("", path.read_text()) for path in files}
    declared = {}
    for path, text in texts.items():
        for name in DECLARATION.findall(text):
            declared.setdefault(name, set()).add(path)
    # One node per type with its extensions: union the files that declare or extend a type of this module.
    parent = {path: path for path in files}

    def find(path):
        while parent[path] != path:
            parent[path] = parent[parent[path]]
            path = parent[path]
        return path

    for path, text in texts.items():
        for name in EXTENSION.findall(text):
            for other in declared.get(name, ()):
                parent[find(path)] = find(other)
    node = {path: find(path) for path in files}
    members = {}
    for path in files:
        members.setdefault(node[path], set()).add(path)
    edges = {group: set() for group in members}
    for path, text in texts.items():
        own = set(DECLARATION.findall(text)) | set(NESTED.findall(text))
        for name in set(IDENTIFIER.findall(text)) - own:
            for other in declared.get(name, ()):
                if node[other] != node[path]:
                    edges[node[path]].add(node[other])
    cycles = strongly_connected(edges)
    for cycle in cycles:
        names = sorted(str(path) for group in cycle for path in members[group])
        print("types that call each other (with their extensions): " + ", ".join(names))
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
