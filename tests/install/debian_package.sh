#!/bin/bash
# cpack -G DEB with the build's CPack configuration, into WORK_DIR: the package is built and holds what
# `cmake --install` installs. Exit 77 (skipped) without dpkg-deb (CPack's DEB generator and the checks use it).
# Usage: debian_package.sh BUILD_DIR WORK_DIR
set -euo pipefail  # no `cmd | grep -q` below: grep -q exiting early fails the pipe (SIGPIPE)
build=$1 work=$2
command -v dpkg-deb > /dev/null || { echo "debian package: no dpkg-deb, skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" > cpack.log) || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/numagpu_*.deb)
grep -q "Package: numagpu" <<< "$(dpkg-deb --info "$deb")"
contents=$(dpkg-deb --contents "$deb")
for f in '/usr/bin/numagpu' '/usr/lib/(.*/)?libnumagpu_model\.a' '/usr/lib/(.*/)?libnumagpu\.so' \
         '/usr/include/numagpu/numagpu\.hpp' '/usr/include/numagpu/system/system\.hpp' \
         '/usr/lib/(.*/)?cmake/numagpu/numagpuConfig\.cmake' '/usr/lib/(.*/)?cmake/numagpu/numagpuConfigVersion\.cmake' \
         '/usr/lib/(.*/)?pkgconfig/numagpu\.pc' '/usr/share/numagpu/configs/paper_4socket\.yaml'; do
  grep -Eq " \.$f( ->|$)" <<< "$contents" || { echo "debian package: nothing matches $f"; exit 1; }
done
echo "debian package: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
