#!/bin/bash
# The Debian package as a user installs it: unpacked into a root of its own (dpkg-deb -x, as dpkg would
# install it under /, without touching the machine), a program built out of tree with the package's
# numagpu.pc alone and run with no LD_LIBRARY_PATH, and the package's own program run. Exit 77 (skipped)
# when dpkg-deb, pkg-config or the package built by install_debian_package is missing.
# Usage: debian_package_runs.sh DEB_DIR SOURCE_DIR WORK_DIR
set -euo pipefail  # no `cmd | grep -q` below: grep -q exiting early fails the pipe (SIGPIPE)
debs=$1 src=$2 work=$3
for tool in dpkg-deb pkg-config g++ readelf; do
  command -v "$tool" > /dev/null || { echo "debian package: no $tool, skipped"; exit 77; }
done
deb=$(ls "$debs"/numagpu_*.deb 2> /dev/null | head -1)
[ -n "$deb" ] || { echo "debian package: no package in $debs (install_debian_package builds it), skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work/root"
dpkg-deb -x "$deb" "$work/root"
pc=$(find "$work/root/usr" -name numagpu.pc | head -1)
[ -n "$pc" ] || { echo "debian package: no numagpu.pc"; exit 1; }
# Only the package's .pc (and the system's, for SystemC and nlohmann-json): nothing of the build tree.
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs numagpu)
libdir=$(cd "$(pkg-config --variable=libdir numagpu)" && pwd)
[ "$libdir" = "$(cd "$(dirname "$pc")/.." && pwd)" ] || { echo "debian package: numagpu.pc's libdir is $libdir"; exit 1; }
g++ -std=c++17 -O1 -o "$work/host_platform" "$src/examples/host_platform/main.cpp" $flags
# The program loads the package's library, found through its RUNPATH, with nothing in the environment.
loaded=$(env -u LD_LIBRARY_PATH ldd "$work/host_platform" | grep libnumagpu.so || true)
grep -q "$work/root/usr/" <<< "$loaded" || { echo "debian package: libnumagpu.so resolves to: $loaded"; exit 1; }
(cd "$work" && env -u LD_LIBRARY_PATH ./host_platform > host_platform.out) ||
  { echo "debian package: host_platform failed"; cat "$work/host_platform.out"; exit 1; }
# The package's program runs from where it was unpacked.
env -u LD_LIBRARY_PATH "$work/root/usr/bin/numagpu" --version | grep -q '^numagpu ' ||
  { echo "debian package: usr/bin/numagpu --version failed"; exit 1; }
echo "debian package: an out-of-tree program built with its numagpu.pc ran on $(basename "$deb")'s library"
