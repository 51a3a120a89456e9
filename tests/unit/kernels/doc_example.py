#!/usr/bin/env python3
"""docs/kernels.md prints a library kernel's file as its complete example: fail when the two differ.
Usage: doc_example.py DOC FILE (the doc's ```cpp block whose first line is FILE's first line)."""
import sys

doc, path = sys.argv[1], sys.argv[2]
code = open(path, encoding="utf-8").read()
first = code.splitlines()[0]
text = open(doc, encoding="utf-8").read()
start = text.find("```cpp\n" + first + "\n")
if start < 0:
    sys.exit(f"{doc}: no ```cpp block starting with {first!r}")
body_start = start + len("```cpp\n")
end = text.find("```\n", body_start)
if text[body_start:end] != code:
    sys.exit(f"{doc}: the example differs from {path}; copy the file into the doc")
print(f"{doc}: the example is {path}")
