#!/bin/bash
# The complete example printed in docs/embedding.md, compiled as printed: its CMakeLists.txt and main.cpp are
# cut from between their marker comments, configured against the installed prefix, built and run.
# Usage: docs_example.sh PREFIX EMBEDDING_MD WORK_DIR
set -euo pipefail
prefix=$1 doc=$2 work=$3
rm -rf "$work"
mkdir -p "$work/src"
# extract NAME FILE: the fenced block between <!-- NAME:begin --> and <!-- NAME:end -->, without the fences.
extract() {
  sed -n "/<!-- $1:begin -->/,/<!-- $1:end -->/p" "$doc" | sed '1d;$d' | sed '/^```/d' > "$2"
  [ -s "$2" ] || { echo "docs_example: no block between <!-- $1:begin --> and <!-- $1:end --> in $doc"; exit 1; }
}
extract embedding-example-cmake "$work/src/CMakeLists.txt"
extract embedding-example-cpp "$work/src/main.cpp"
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
exe=$(find "$work/build" -maxdepth 1 -type f -executable | head -1)
[ -n "$exe" ] || { echo "docs_example: no program built"; exit 1; }
(cd "$work" && "$exe")
