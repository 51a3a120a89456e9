// Large pages for the simulator's heap. The simulation waits on memory more than it computes (thousands of
// payloads, hundreds of components, touched in no particular order), and with 4 KiB pages every first
// touch of heap memory is a page fault and most accesses need a TLB walk. glibc backs the heap with
// transparent huge pages when its tunable glibc.malloc.hugetlb=1 is set, but tunables are read only when a
// process starts: so numagpu, started without it, sets it and executes itself again, once, before doing
// anything else. Measured: start-up 66 -> 20-52 ms, simulation -12 % (docs/performance.md, "Large pages").
//
// Not done when NUMAGPU_HUGE_PAGES=0, when GLIBC_TUNABLES already names the tunable (whatever its value: the
// user's choice, or the second start), or under valgrind (its tools follow no exec by default, so a
// profile would see nothing). Where the kernel has transparent huge pages off, or glibc does not know the
// tunable, the second start simply runs as the first would have.
#pragma once

namespace numagpu {

// Executes the program again with the tunable set, or returns (nothing to do, or the exec failed).
void restart_with_huge_pages(char* argv[]);

}  // namespace numagpu
