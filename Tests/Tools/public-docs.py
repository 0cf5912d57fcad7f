#!/usr/bin/env python3
"""Fails when a public declaration of ArchiverCore has no /// comment (make lint runs it).

Protocol witnesses (errorDescription, ==, encode(to:), init(from:), and the seam protocols' methods in their
live conformances) are exempt: their protocol's comment is theirs. Usage: public-docs.py [SOURCES_DIR]
"""
import pathlib
import re
import sys

WITNESSES = re.compile(
    r"public (var errorDescription|static func ==|func encode\(to|init\(from decoder|func writeAtomically|"
    r"func tryLock|func lockHolder|func sha256\(ofFileAtPath|func download\()")


def undocumented(path):
    lines = path.read_text().split("\n")
    for number, line in enumerate(lines):
        text = line.strip()
        if not re.match(r"(public|open)\s", text) or WITNESSES.match(text):
            continue
        previous = number - 1
        while previous >= 0 and lines[previous].strip().startswith("@"):
            previous -= 1
        if previous < 0 or not lines[previous].strip().startswith("///"):
            yield f"{path}:{number + 1}: {text[:100]}"


def main():
    roots = [pathlib.Path(arg) for arg in sys.argv[1:]] or [pathlib.Path("Sources/ArchiverCore")]
    paths = sorted(path for root in roots for path in root.rglob("*.swift"))
    missing = [line for path in paths for line in undocumented(path)]
    for line in missing:
        print(line)
    if missing:
        print(f"{len(missing)} public declarations without a /// comment")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
