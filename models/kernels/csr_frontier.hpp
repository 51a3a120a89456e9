// Graph kernels on compressed sparse rows: a thread's walk over its vertex's edges, and the frontier of a
// level-synchronous traversal as Harish and Narayanan's GPU BFS and SSSP keep it ("Accelerating large graph
// algorithms on the GPU using CUDA", HiPC 2007: rodinia/bfs, lonestar/sssp). Written once so that the
// applications that walk a graph issue the same instructions for the same step.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "kernels/simt.hpp"

namespace numagpu::kernels {

// Each thread visits the edges [e, end) of its vertex, one loop trip per edge (threads of a warp with
// shorter lists wait: the divergence of a CSR walk), calling visit(edge) and then stepping to the next.
template <class Visit>
void for_each_edge(Cta& c, V<std::int64_t> e, const V<std::int64_t>& end, Visit&& visit) {
  c.while_([&] { return e < end; },
           [&] {
             visit(static_cast<const V<std::int64_t>&>(e));
             e = e + 1;
           });
}

// The frontier: a byte mask over the vertices (1: expand it this iteration) and a one-byte flag that a vertex
// joining the next frontier raises. The host repeats an iteration (expand the frontier, then form the next)
// while the flag was raised.
class CsrFrontier {
 public:
  CsrFrontier(Array<std::uint8_t> mask, Array<std::uint8_t> flag)
      : mask_(std::move(mask)), flag_(std::move(flag)) {}

  // In a kernel of one thread per vertex: the threads whose vertex v is in the frontier take it out of the
  // mask and run `expand` (typically a for_each_edge over v's edges).
  template <class Expand>
  void expand(Cta& c, const V<std::int64_t>& v, Expand&& expand) const {
    c.if_(c.load(mask_, v) != 0, [&] {
      c.store(mask_, v, V<std::uint8_t>(c, 0));
      expand();
    });
  }
  // The threads' vertices v join the next frontier (their mask entries set).
  void join(Cta& c, const V<std::int64_t>& v) const { c.store(mask_, v, V<std::uint8_t>(c, 1)); }
  // Says the host must run another iteration (the flag raised).
  void raise(Cta& c) const { c.store(flag_, V<std::int64_t>(c, 0), V<std::uint8_t>(c, 1)); }

  // The host loop: `iteration` (its launches) run again while one of them raised the flag, lowered before
  // each (cudaMemcpy of false to the device's flag; reading it back is the loop's test).
  void repeat_while_raised(const std::function<void()>& iteration) const {
    do {
      (*flag_.data)[0] = 0;
      iteration();
    } while ((*flag_.data)[0]);
  }

  // The most launches a correct traversal of n vertices takes at two launches an iteration: at most n
  // iterations that reach something new (BFS: a level each; Bellman-Ford: n - 1 rounds settle every
  // distance), and one that finds nothing. With its reason, for Application::set_launch_bound.
  static std::pair<std::uint64_t, std::string> launch_bound(std::int64_t n) {
    const std::uint64_t launches = 2 * std::uint64_t(n + 1);
    return {launches,
            "2 (n + 1) = " + std::to_string(launches) + " for n = " + std::to_string(n) + " vertices"};
  }

 private:
  Array<std::uint8_t> mask_, flag_;
};

}  // namespace numagpu::kernels
