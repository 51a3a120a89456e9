// The SM's parameters: the `sm` section of the configuration, declared here once with their defaults (the
// initialisers) and documentation (config/keys.hpp explains keys()). Plain C++, no SystemC.
#pragma once

namespace numagpu {

struct SmSpec {
  unsigned max_warps = 64;
  unsigned issue_width = 1;        // warp instructions issued per cycle, from different warps
  unsigned max_outstanding = 128;  // memory requests in flight (MSHR-like limit)

  template <class Keys>
  void keys(Keys& k) {
    k.integer("max_warps", max_warps, "Resident warps per SM (CTA slots = max_warps / warps_per_cta)")
        .range(1, 256);
    k.integer("issue_width", issue_width,
              "Warp instructions an SM issues per cycle (greedy-then-oldest, different warps)")
        .range(1, 8);
    k.integer("max_outstanding", max_outstanding,
              "Memory requests an SM may have in flight before issue stalls")
        .range(1, 4096);
  }
};

}  // namespace numagpu
