#!/usr/bin/env python3
"""The whiteboard rule: no include runs back up the layers of models/ (docs/architecture.md, "Layout").

Usage: check_layers.py MODELS_DIR ARCHITECTURE_MD

ARCHITECTURE_MD holds the floors in a fenced block opened by ```layers: one line per floor, the top floor
first, the folders of models/ (or a file at its root, such as numagpu.hpp) on that floor separated by spaces.
Every `#include "folder/..."` in a file under MODELS_DIR must name its own folder or a folder on a lower
floor: an include of a folder on the same floor or a higher one is reported as `file:line: folder -> folder`,
and so is a folder that no floor names (a new folder is placed on the whiteboard before it is used).
Exit status 1 when an include runs up, 2 on unusable input.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCES = {".cpp", ".hpp", ".h", ".cc", ".inc"}


def floors(doc):
    """{folder: floor}, floor 1 the ground, from the ```layers block of `doc`."""
    text = doc.read_text(encoding="utf-8")
    block = re.search(r"^```layers\n(.*?)^```", text, re.S | re.M)
    if not block:
        raise ValueError(f"{doc}: no ```layers block")
    lines = [line.split() for line in block.group(1).splitlines() if line.strip()]
    floor_of = {}
    for height, folders in enumerate(reversed(lines), start=1):
        for folder in folders:
            if folder in floor_of:
                raise ValueError(f"{doc}: {folder} stands on two floors")
            floor_of[folder] = height
    return floor_of


def folder_of(models, path):
    """The folder of models/ that `path` belongs to (a file at the root is its own)."""
    return path.relative_to(models).parts[0]


def upward_includes(models, floor_of):
    """Yields one message per include that does not run down."""
    for path in sorted(p for p in models.rglob("*") if p.suffix in SOURCES and p.is_file()):
        here = folder_of(models, path)
        if here not in floor_of:
            yield f"{path}: {here}/ stands on no floor of the whiteboard"
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1)
            first = target.split("/")[0]
            if "/" not in target and not (models / target).is_file():
                continue  # beside the including file (or a generated header of its own folder)
            if first == here or not (models / first).exists():
                continue  # its own folder, or outside models/ (a generated or third-party header)
            if first not in floor_of:
                yield f"{path}:{number}: {here} -> {first}: {first}/ stands on no floor of the whiteboard"
            elif floor_of[first] >= floor_of[here]:
                yield (f"{path}:{number}: {here} (floor {floor_of[here]}) -> {first} (floor {floor_of[first]}): "
                       f"runs {'up' if floor_of[first] > floor_of[here] else 'across a floor'}")


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    models, doc = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    try:
        floor_of = floors(doc)
    except (OSError, ValueError) as e:
        print(f"check_layers: {e}", file=sys.stderr)
        return 2
    problems = list(upward_includes(models, floor_of))
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) against the floors of {doc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
