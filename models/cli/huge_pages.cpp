#include "cli/huge_pages.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace numagpu {

void restart_with_huge_pages(char* argv[]) {
  const char* choice = std::getenv("NUMAGPU_HUGE_PAGES");
  if (choice && std::strcmp(choice, "0") == 0) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb")) return;
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload && std::strstr(preload, "vgpreload")) return;  // running under valgrind

  const std::string previous = tunables ? tunables : "";
  const std::string wanted =
      previous.empty() ? "glibc.malloc.hugetlb=1" : previous + ":glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", wanted.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Still here: the exec failed (no /proc, say). Run as started, with the environment as it was.
  if (tunables) {
    setenv("GLIBC_TUNABLES", previous.c_str(), 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
}

}  // namespace numagpu
