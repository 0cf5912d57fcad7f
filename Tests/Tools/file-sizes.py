#!/usr/bin/env python3
"""Fails when a source file reaches the size at which it stops being read whole (350 lines): split it where the
code has a seam instead."""
import pathlib
import sys

LIMIT = 350


def main():
    roots = [pathlib.Path(arg) for arg in sys.argv[1:]] or [pathlib.Path("Sources")]
    long = []
    for path in sorted(path for root in roots for path in root.rglob("*.swift")):
        lines = path.read_text().count("\n")
        if lines >= LIMIT:
            long.append(f"{path}: {lines} lines (limit {LIMIT - 1})")
    for line in long:
        print(line)
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main())
