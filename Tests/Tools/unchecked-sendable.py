#!/usr/bin/env python3
"""Every `@unchecked Sendable` in Sources says why it is safe: the first line of the class body is a comment
starting `// Safe to share`. At most MAX of them in all (the rest keep their state in `Locked`, or are actors or
value types, and the compiler checks them)."""
import pathlib
import sys

MAX = 8
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Sources")
found, problems = [], []
for path in sorted(root.rglob("*.swift")):
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if "@unchecked Sendable" not in line or line.lstrip().startswith("//"):
            continue
        found.append(f"{path}:{number + 1}")
        following = lines[number + 1].strip() if number + 1 < len(lines) else ""
        if not following.startswith("// Safe to share"):
            problems.append(f"{path}:{number + 1}: @unchecked Sendable without a '// Safe to share: ...' comment")
if len(found) > MAX:
    problems.append(f"{len(found)} @unchecked Sendable in {root} (at most {MAX}): " + ", ".join(found))
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
