// What LonestarGPU's worklist kernels need beyond the SIMT engine's operations: atomics that return the old
// value (atomicMin's, to know whether this thread lowered a distance; atomicAdd's on a worklist's end, the
// slot of a push), and a CTA-wide exclusive sum (cub::BlockScan, worklistc's load balancing and its pushes).
#pragma once

#include "kernels/simt.hpp"
#include "sssp_input.hpp"

namespace numagpu::kernels::worklist {

// atomicMin(&a[index], value) returning each active thread's old value, threads serialized in thread order
// as Cta::atomic_min serializes them (which then issues the requests; the minimum, applied again, changes
// nothing).
template <class T>
V<T> atomic_min_old(Cta& c, const Array<T>& a, const V<std::int64_t>& index, const V<T>& value) {
  V<T> old = value;
  for (unsigned t = 0; t < c.threads(); ++t) {
    if (!c.active(t)) continue;
    T& slot = (*a.data)[static_cast<std::uint64_t>(index[t])];
    old[t] = slot;
    slot = std::min(slot, value[t]);
  }
  c.atomic_min(a, index, value);
  return old;
}

// atomicAdd(&a[index], value) returning each active thread's old value (thread order, as atomic_min_old).
template <class T>
V<T> atomic_add_old(Cta& c, const Array<T>& a, const V<std::int64_t>& index, const V<T>& value) {
  V<T> old = value;
  std::vector<T> saved = *a.data;
  for (unsigned t = 0; t < c.threads(); ++t) {
    if (!c.active(t)) continue;
    T& slot = saved[static_cast<std::uint64_t>(index[t])];
    old[t] = slot;
    slot += value[t];
  }
  c.atomic_add(a, index, value);  // applies the additions to the array
  return old;
}

// cub::BlockScan<int, N>::ExclusiveSum over the CTA's threads (inactive ones count 0): each thread's
// offset, and the total. Charged as cub's warp-scan form: per warp a 5-step shuffle scan (a shuffle and an
// add a step), the warps' totals through shared memory between two barriers, and the scan of those totals.
struct BlockSum {
  V<std::int64_t> offset;
  std::int64_t total;
};
inline BlockSum block_exclusive_sum(Cta& c, const V<std::int64_t>& x) {
  V<std::int64_t> offset(c, 0);
  std::int64_t running = 0;
  for (unsigned t = 0; t < c.threads(); ++t) {
    offset[t] = running;
    if (c.active(t)) running += x[t];
  }
  c.charge(InstrClass::kInt, 10);  // the warp scan
  Cta::Shared<std::int64_t> warp_totals(c, c.warps());
  const V<std::int64_t> warp = c.threadIdx_x() / 32;
  warp_totals.store(warp, offset);  // the last lane's write stands for the warp's total
  c.syncthreads();
  (void)warp_totals.load(warp);
  c.charge(InstrClass::kInt, 10);  // the scan of the warps' totals
  c.syncthreads();
  return {std::move(offset), running};
}

// What LonestarGPU's two worklist SSSPs share: the weighted graph in CSR arrays, the distances, and two
// worklists (in and out, swapped each iteration) of `per_edge` items an edge entry, with their ends.
class SsspApp : public Application {
 protected:
  SsspApp(const Args& a, const std::string& input, const std::string& name, std::uint64_t per_edge)
      : Application(a, input), graph_(sssp::weighted_graph(a, input, name)), per_edge_(per_edge) {
    row_.values.assign(graph_.row_ptr.begin(), graph_.row_ptr.end());
    col_.values.assign(graph_.col.begin(), graph_.col.end());
    weight_.values = std::move(graph_.weight);
    graph_ = CsrGraph{};  // the arrays hold it now
  }

  CsrGraph graph_;  // the input, until the arrays hold it
  std::uint64_t per_edge_;
  std::int64_t n_ = graph_.vertices;
  Data<std::int32_t> row_{this, "row_ptr", graph_.row_ptr.size()};
  Data<std::int32_t> col_{this, "col", graph_.edges()};
  Data<std::int32_t> weight_{this, "weight", graph_.edges()};
  Data<std::int32_t> dist_{this, "dist", std::uint64_t(n_), sssp::kInfinity};
  Data<std::int32_t> wl_[2] = {{this, "wl_in", per_edge_* std::max<std::uint64_t>(graph_.edges(), 1)},
                               {this, "wl_out", per_edge_* std::max<std::uint64_t>(graph_.edges(), 1)}};
  Data<std::int32_t> size_{this, "wl_size", 2};  // the two worklists' ends
};

}  // namespace numagpu::kernels::worklist
