// lonestar/sssp_wlc (application): LonestarGPU's data-driven SSSP with the "worklistc" worklist and CTA-wide
// load balancing (Lonestar-SSSP-Wlc of the paper's Table 2; learned from LonestarGPU 2.0's public
// description and source, written here anew). After `initialize` (every distance infinite) and a launch of
// one CTA that pushes the source, each iteration is one launch of ceil(items / 512) CTAs of 512 threads
// over the input worklist: thread k pops item k (its vertex's out-degree and first edge); a CTA-wide
// exclusive sum (cub::BlockScan) of the degrees places every edge of the CTA's vertices in a 512-entry
// shared-memory window (edge index and source vertex), filled by each thread for its own edges, and the
// window's edges are processed one per thread, 512 at a time, whoever owns them: the destination and weight,
// dist[dst] and dist[src] + w (ld.cg, the L2), and where lower atomicMin(&dist[dst], alt) and a push of dst,
// whatever atomicMin found (processedge2 returns 1). Pushes go through cub too: a CTA-wide sum of the
// threads' 0/1, one atomicAdd of the CTA's total on the worklist's end by the last thread, the base shared
// through shared memory, each pushing thread's store at base + its offset. The host reads the output's
// size, swaps and resets, until an iteration pushes nothing. Worklists hold 2 x edge entries, as the
// original allocates them (one item per improving edge at most: no overflow).
//
// Input and weights: lonestar/sssp_input.hpp (default copter2.graph extruded to 2 layers). Launch bound:
// as sssp_wln's, n iterations (each settles every vertex one edge further), and initialize and the source's.
#include "runtime/lasp_terms.hpp"
#include "sssp_input.hpp"
#include "worklist.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBlock = 512;

class SsspWlcApp : public worklist::SsspApp {
 public:
  SsspWlcApp(const Args& a, const std::string& input) : SsspApp(a, input, "lonestar/sssp_wlc", 2) {
    set_launch_bound(std::uint64_t(n_) + 2,
                     "initialize, the source's push, and n iterations (each settles every vertex one edge "
                     "further, so n - 1 push and the n-th finds the worklist empty)");
  }

  void host() override {
    launch("initialize", initialize());
    dist_.values[0] = 0;  // cudaMemcpy of the source's 0
    launch("drelax3", push_source());
    int in = 0;
    std::int64_t items = size_.values[in];
    while (items > 0) {
      launch("drelax3", relax(in, items));
      items = size_.values[1 - in];
      in = 1 - in;
      size_.values[1 - in] = 0;  // reset
    }
  }

 private:
  Launch initialize() {
    Launch l = one_thread_per_item(n_, 1024, 8);
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * 1024;
      c.exit_if(v >= n_);
      c.store(dist_, v, V<std::int32_t>(c, sssp::kInfinity));
    };
    // LASP: dist at v = tx + 1024 bx, no loop: row 1 (4 KiB a CTA): align-aware, RTWICE.
    l.accesses = {lasp_access(dist_, runtime::terms::kPerThread, 1024 * 4)};
    return l;
  }

  // Iteration 0: thread 0 of one CTA pushes the source.
  Launch push_source() {
    Launch l = one_thread_per_item(kBlock, kBlock, 16);
    l.body = [this](Cta& c) {
      c.if_(c.threadIdx_x() == 0, [&] {
        const V<std::int32_t> slot =
            worklist::atomic_add_old(c, size_, V<std::int64_t>(c, 0), V<std::int32_t>(c, 1));
        c.store(wl_[0], convert<std::int64_t>(slot), V<std::int32_t>(c, 0));
      });
    };
    // The same kernel as every iteration's (drelax3's iteration 0 branch): LADM's table is per kernel, so it
    // states what drelax3 states, with worklist 0, which the push fills, as its output.
    l.accesses = relax_accesses(1);
    return l;
  }

  Launch relax(int in, std::int64_t items) {
    Launch l = one_thread_per_item(items, kBlock, 32);
    l.shared_bytes = 2 * kBlock * 4 + 64;  // gather_offsets, src, cub's scan storage
    l.body = [this, in](Cta& c) {
      const Data<std::int32_t>& inwl = wl_[in];
      const V<std::int64_t> tid = c.threadIdx_x();
      const V<std::int64_t> id = tid + std::int64_t(c.blockIdx.x) * kBlock;
      const V<std::int64_t> count = convert<std::int64_t>(c.load(size_, V<std::int64_t>(c, in)));
      V<std::int64_t> node(c, 0), degree(c, 0), first(c, 0);
      c.if_(id < count, [&] {  // pop_id
        node = convert<std::int64_t>(c.load(inwl, id));
        first = convert<std::int64_t>(c.load(row_, node));
        degree = convert<std::int64_t>(c.load(row_, node + 1)) - first;
      });
      const worklist::BlockSum scan = worklist::block_exclusive_sum(c, degree);
      V<std::int64_t> place = scan.offset, done_own(c, 0);
      Cta::Shared<std::int32_t> gather(c, kBlock), source(c, kBlock);
      for (std::int64_t done = 0; done < scan.total; done += kBlock) {
        c.syncthreads();
        // Each thread writes its edges that fall in this window of 512.
        c.while_([&] { return done_own < degree && place - done < kBlock; },
                 [&] {
                   gather.store(place - done, convert<std::int32_t>(first + done_own));
                   source.store(place - done, convert<std::int32_t>(node));
                   done_own = done_own + 1;
                   place = place + 1;
                 });
        c.syncthreads();
        V<std::int64_t> push(c, 0), dst(c, 0);
        c.if_(tid < scan.total - done, [&] {
          const V<std::int64_t> edge = convert<std::int64_t>(gather.load(tid));
          const V<std::int64_t> src = convert<std::int64_t>(source.load(tid));
          const V<std::int64_t> to = convert<std::int64_t>(c.texture_load(col_, edge));
          const V<std::int32_t> weight = c.load(weight_, edge);
          const V<std::int32_t> dst_dist = c.load(dist_, to);
          const V<std::int32_t> alt = c.load(dist_, src) + weight;
          c.if_(alt < dst_dist, [&] {
            c.atomic_min(dist_, to, alt);
            push = 1;
            dst = to;
          });
        });
        push_items(c, push, dst, 1 - in);
      }
    };
    l.accesses = relax_accesses(in);
    return l;
  }

  // LASP's index terms of drelax3 (LADM §III-C): the input worklist at id = tx + 512 bx, no loop: row 1
  // (512 x 4 B a CTA). Every edge a thread processes is taken from the CTA's shared window (gather_offsets
  // and src, filled by the scan), so col and weight at that edge, dist at its source and destination, and
  // row_ptr at the popped vertex are data-dependent with no loop term (row 7), as is the output worklist at
  // the CTA's base plus its offset; wl_size at the kernel argument `in`: a fixed slot. The worklists (two
  // entries an edge) are the largest; the input, stated first, chooses: align-aware batches of multiples of
  // 4096 / 2048 = 2 CTAs, RTWICE.
  std::vector<runtime::ArrayAccess> relax_accesses(int in) const {
    using runtime::terms::kGathered;
    return {lasp_access(wl_[in], runtime::terms::kPerThread, kBlock * 4),
            lasp_access(row_, kGathered),
            lasp_access(col_, kGathered),
            lasp_access(weight_, kGathered),
            lasp_access(dist_, kGathered),
            lasp_access(wl_[1 - in], kGathered),
            lasp_access(size_, runtime::terms::kFixedSlot)};
  }

  // Worklist2::push_1item: a CTA-wide sum of the pushes, one atomicAdd by the last thread, the base
  // through shared memory, each pushing thread's store.
  void push_items(Cta& c, const V<std::int64_t>& push, const V<std::int64_t>& item, int out) {
    const worklist::BlockSum scan = worklist::block_exclusive_sum(c, push);
    Cta::Shared<std::int32_t> base(c, 1);
    const std::int32_t at = size_.values[out];
    c.if_(c.threadIdx_x() == kBlock - 1, [&] {
      if (scan.total == 0) return;  // nothing pushed: no atomic
      c.atomic_add(size_, V<std::int64_t>(c, out), V<std::int32_t>(c, std::int32_t(scan.total)));
      base.store(V<std::int64_t>(c, 0), V<std::int32_t>(c, at));
    });
    c.syncthreads();
    c.if_(push == 1, [&] {
      const V<std::int64_t> slot = convert<std::int64_t>(base.load(V<std::int64_t>(c, 0))) + scan.offset;
      c.store(wl_[out], slot, convert<std::int32_t>(item));
    });
  }
};

}  // namespace

ApplicationEntry app_lonestar_sssp_wlc() {
  return {"lonestar/sssp_wlc",
          "SSSP, LonestarGPU's worklist variant worklistc: CTAs of 512 pop the input worklist and share out "
          "their vertices' edges through a CTA-wide scan, relax them with atomicMin and push with one "
          "atomicAdd a CTA, until an iteration pushes nothing (default copter2.graph extruded to 2 layers)",
          sssp::graph_args(2), "/usr/share/doc/libmetis-dev/examples/graphs/copter2.graph",
          [](const Args& a, const std::string& input) { return std::make_unique<SsspWlcApp>(a, input); }};
}

}  // namespace numagpu::kernels
