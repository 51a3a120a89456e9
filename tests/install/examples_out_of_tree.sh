#!/bin/bash
# examples/ as a user builds them: configured against the installed prefix alone, built, and each example
# run (ctest in the examples' build; every example checks its own results and exits non-zero when wrong).
# Usage: examples_out_of_tree.sh PREFIX SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
prefix=$1 src=$2 build=$3 work=$4
rm -rf "$work"
# Every header the installed headers include is installed too.
inc="$prefix/include/numagpu"
# A quoted include is found beside the including file first (numagpu/cuda/'s headers include each other so),
# else from include/numagpu/.
missing=$(cd "$inc" && grep -rHo '#include "[^"]*"' . | sed 's/^\(.*\):#include "\(.*\)"$/\1 \2/' |
          while read -r file h; do [ -f "$(dirname "$file")/$h" ] || [ -f "$h" ] || echo "$h"; done | sort -u)
[ -z "$missing" ] || { echo "examples: installed headers include headers that are not installed:" $missing; exit 1; }
# A copy of examples/ outside the repository: nothing next to it to find by accident.
mkdir -p "$work"
cp -r "$src/examples" "$work/src"
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF > "$work/configure.log"
grep -q "numagpu_DIR:PATH=$prefix/" "$work/build/CMakeCache.txt" ||
  { echo "examples: numagpu was not found in $prefix"; grep numagpu_DIR "$work/build/CMakeCache.txt"; exit 1; }
# Compiled against the installed headers and libraries only
# (the prefix itself may lie in the build tree, as in ctest: what must not appear is the model's sources, the
# build's libraries or its include/numagpu link)
hits=$(grep -E -e "$src/models|$build/models/|$build/include" "$work/build/compile_commands.json" \
         "$work/build/build.ninja" || true)
if [ -n "$hits" ]; then
  echo "examples: the build reaches the source or build tree:"; echo "$hits" | cut -c1-300 | sed 3q; exit 1
fi
cmake --build "$work/build" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
n=$(ctest --test-dir "$work/build" -N | sed -n 's/^Total Tests: //p')
expected=$(find "$work/src" -mindepth 2 -maxdepth 2 -name CMakeLists.txt | wc -l)
[ "${n:-0}" -eq "$expected" ] || { echo "examples: $n tests found, expected one per example ($expected)"; exit 1; }
(cd "$work/build" && ctest --output-on-failure)
echo "examples: $n built and passed against $prefix"
