// lonestar/sssp_wln (application): LonestarGPU's data-driven SSSP with a worklist, the "worklistN" variant
// (Lonestar-SSSP-Wln of the paper's Table 2; learned from LonestarGPU 2.0's public description and source,
// written here anew). The source starts on the input worklist; each iteration is one launch of a fixed grid
// (MAXNBLOCKS = 4 x the GPU's SM count of blocks, BLOCKSIZE 256 threads: `blocks`) over the input worklist:
// thread k takes a contiguous run of ceil(size / threads) items (Worklist::myItems) and for each item's
// vertex relaxes its out-edges one after another: the destination and weight, dist[src] + w against
// dist[dst], and where lower atomicMin(&dist[dst], alt); a thread whose atomicMin lowered the distance
// pushes dst onto the output worklist (atomicAdd on its end, then the item's store). The host reads the
// output's size, swaps the worklists and clears the output, until an iteration pushes nothing. A vertex is
// pushed once per improvement, so duplicates appear and are processed again (as the original's).
//
// The original starts with worklists of n / 5 items and, on an overflow, restores the distance, doubles
// them and runs the iteration again; here they hold one item per edge entry, the most an iteration can push
// (a push needs an improving edge), so no overflow happens and none is modelled. Edges are read through the
// CSR row bounds (two loads a vertex) where LonestarGPU's Graph reads the out-degree and the edge start
// (also two). Input and weights: lonestar/sssp_input.hpp (default copter2.graph extruded to 2 layers).
//
// Launch bound: after iteration k every vertex whose shortest path has k edges is settled (each iteration
// relaxes every edge out of a vertex improved in the one before), so at most n - 1 iterations push
// something and the n-th finds the worklist empty: n launches.
#include "runtime/lasp_terms.hpp"
#include "sssp_input.hpp"
#include "worklist.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;

class SsspWlnApp : public worklist::SsspApp {
 public:
  SsspWlnApp(const Args& a, const std::string& input)
      : SsspApp(a, input, "lonestar/sssp_wln", 1), blocks_(a["blocks"]) {
    set_launch_bound(
        std::uint64_t(n_),
        "an iteration settles every vertex one edge further, so n - 1 iterations push and the n-th "
        "finds the worklist empty");
  }

  void host() override {
    dist_.values[0] = 0;
    wl_[0].values[0] = 0;  // the source, pushed by the host (pushHost)
    size_.values[0] = 1;
    int in = 0;
    while (size_.values[in] > 0) {
      size_.values[1 - in] = 0;  // clearHost
      launch("drelax", relax(in));
      in = 1 - in;  // the output is the next iteration's input
    }
  }

 private:
  Launch relax(int in) {
    Launch l = one_thread_per_item(blocks_ * kThreads, kThreads, 24);
    l.body = [this, in](Cta& c) {
      const Data<std::int32_t>& inwl = wl_[in];
      const Data<std::int32_t>& outwl = wl_[1 - in];
      const std::int64_t threads = blocks_ * kThreads;
      const V<std::int64_t> id = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      // myItems: this thread's run [start, end) of the input worklist.
      const V<std::int64_t> size = convert<std::int64_t>(c.load(size_, V<std::int64_t>(c, in)));
      const V<std::int64_t> per = (size + (threads - 1)) / threads;
      V<std::int64_t> item = id * per;
      const V<std::int64_t> end = select(item + per < size, item + per, size);
      c.while_([&] { return item < end; },
               [&] {
                 const V<std::int64_t> src = convert<std::int64_t>(c.load(inwl, item));
                 V<std::int64_t> e = convert<std::int64_t>(c.load(row_, src));
                 const V<std::int64_t> last = convert<std::int64_t>(c.load(row_, src + 1));
                 c.while_([&] { return e < last; },
                          [&] {
                            const V<std::int64_t> dst = convert<std::int64_t>(c.load(col_, e));
                            const V<std::int32_t> alt = c.load(dist_, src) + c.load(weight_, e);
                            c.if_(alt < c.load(dist_, dst), [&] {
                              const V<std::int32_t> old = worklist::atomic_min_old(c, dist_, dst, alt);
                              c.if_(alt < old, [&] {
                                const V<std::int32_t> slot = worklist::atomic_add_old(
                                    c, size_, V<std::int64_t>(c, 1 - in), V<std::int32_t>(c, 1));
                                c.store(outwl, convert<std::int64_t>(slot), convert<std::int32_t>(dst));
                              });
                            });
                            e = e + 1;
                          });
                 item = item + 1;
               });
    };
    // LASP's index terms (LADM §III-C): the input worklist at id per + m, id = tx + 256 bx and per the
    // run's length from the worklist's size (a value read from memory), m the run's induction variable:
    // the loop-variant group is exactly m, ITL (row 6). col and weight at e, from row_ptr[src] one edge a
    // step: ITL. row_ptr and dist at src or dst, the output worklist at the atomicAdd's old value:
    // gathered (row 7); wl_size at the kernel argument `in`: a fixed slot. The worklists and the edge arrays
    // are equal (one entry an edge); the input worklist, stated first, chooses: kernel-wide, RONCE.
    using runtime::terms::kGathered, runtime::terms::kOwnRun;
    l.accesses = {lasp_access(wl_[in], kOwnRun),
                  lasp_access(row_, kGathered),
                  lasp_access(col_, kOwnRun),
                  lasp_access(weight_, kOwnRun),
                  lasp_access(dist_, kGathered),
                  lasp_access(wl_[1 - in], kGathered),
                  lasp_access(size_, runtime::terms::kFixedSlot)};
    return l;
  }

  std::int64_t blocks_;
};

}  // namespace

ApplicationEntry app_lonestar_sssp_wln() {
  std::vector<ArgSpec> args = sssp::graph_args(2);
  args.push_back(
      {"blocks", 60, 1, 65535,
       "the fixed grid, MAXNBLOCKS = 4 x the SM count (60 for a 15-SM Kepler K40, LonestarGPU's GPU)"});
  return {
      "lonestar/sssp_wln",
      "SSSP, LonestarGPU's worklist variant worklistN: a fixed grid walks the input worklist, each thread "
      "relaxing its items' edges with atomicMin and pushing improved vertices with atomicAdd, until an "
      "iteration pushes nothing (default copter2.graph extruded to 2 layers)",
      args, "/usr/share/doc/libmetis-dev/examples/graphs/copter2.graph",
      [](const Args& a, const std::string& input) { return std::make_unique<SsspWlnApp>(a, input); }};
}

}  // namespace numagpu::kernels
