#!/usr/bin/env python3
"""Counts the public types of ArchiverCore that the executable names, and fails above a budget.

The executable parses, prints and exits; what it needs of the core is a small surface: the facade, the requests and
reports of the use cases, the events it prints, the settings it layers, the redaction rule, and `Presentation/`'s
words. A type it names in code (comments and the text of string literals apart, interpolations counted) is part of
that surface. A new one is a decision: hand the executable a report or a line instead, or raise the budget here and
say why in the commit.

    surface.py [--list] [ROOT]
"""
import pathlib
import re
import sys

BUDGET = 51
DECLARATION = re.compile(r"^public\s+(?:final\s+)?(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)", re.M)
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")


def code_only(text):
    """`text` without comments and without the literal parts of strings (interpolations are kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif text[i] == '"' or (text[i] == "#" and text[i:i + 2] in ('#"',)):
            hashes = 0
            while text[i] == "#":
                hashes, i = hashes + 1, i + 1
            quote = '"""' if text.startswith('"""', i) else '"'
            i += len(quote)
            close = quote + "#" * hashes
            escape = "\\" + "#" * hashes
            while i < n and not text.startswith(close, i):
                if text.startswith(escape + "(", i):
                    i += len(escape) + 1
                    depth, start = 1, i
                    while i < n and depth:
                        depth += {"(": 1, ")": -1}.get(text[i], 0)
                        i += 1
                    out.append(" " + code_only(text[start:i - 1]) + " ")
                elif text.startswith(escape, i):
                    i += len(escape) + 1
                else:
                    i += 1
            i += len(close)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def main(arguments):
    listing = "--list" in arguments
    paths = [argument for argument in arguments if not argument.startswith("--")]
    root = pathlib.Path(paths[0] if paths else ".")
    public = {}
    for path in sorted((root / "Sources/ArchiverCore").rglob("*.swift")):
        for match in DECLARATION.finditer(path.read_text()):
            public[match.group(1)] = path.relative_to(root / "Sources/ArchiverCore")
    named = {}
    for path in sorted((root / "Sources/podarchive").rglob("*.swift")):
        for name in set(IDENTIFIER.findall(code_only(path.read_text()))) & public.keys():
            named.setdefault(name, []).append(path.name)
    print(f"the executable names {len(named)} of the core's {len(public)} public types (budget {BUDGET})")
    if listing:
        for name in sorted(named):
            print(f"  {name:24} {str(public[name]):44} {', '.join(named[name])}")
    return 1 if len(named) > BUDGET else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
