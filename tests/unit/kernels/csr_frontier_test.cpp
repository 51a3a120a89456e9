// The CSR walk and frontier of the graph applications (kernels/csr_frontier.hpp), on a graph of 4 vertices
// small enough to follow by hand.
#include <gtest/gtest.h>

#include "kernels/csr_frontier.hpp"
#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::Traffic;

// Vertex 0 -> 1, 2, 3; vertex 1 -> 0; vertex 2 -> none; vertex 3 -> 0, 1 (row_ptr {0, 3, 4, 4, 6}). The
// frontier holds 0, 2 and 3. One warp of 32 threads, thread v for vertex v (threads 4.. exit): the frontier's
// vertices leave the mask and walk their edges, writing their own number at each edge they visit.
class ExpandKernel : public Kernel {
 public:
  explicit ExpandKernel(const Args& a) : Kernel(a) {}
  std::vector<std::int32_t> row_values{0, 3, 4, 4, 6}, col_values{1, 2, 3, 0, 0, 1},
      visitor_values{-1, -1, -1, -1, -1, -1};
  std::vector<std::uint8_t> mask_values{1, 0, 1, 1}, flag_values{0};
  Array<std::int32_t> row = array<std::int32_t>("row_ptr", 5, 0, 0, &row_values);
  Array<std::int32_t> col = array<std::int32_t>("col", 6, 0, 0, &col_values);
  Array<std::int32_t> visitor = array<std::int32_t>("visitor", 6, 0, 0, &visitor_values);
  CsrFrontier frontier{array<std::uint8_t>("mask", 4, 0, 0, &mask_values),
                       array<std::uint8_t>("flag", 1, 0, 0, &flag_values)};
  // The second launch: instead of expanding, the odd vertices join the next frontier and raise the flag.
  bool join_odd = false;

  Launch launch() override {
    Launch l;
    l.grid = {1, 1, 1};
    l.block = {32, 1, 1};
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = c.threadIdx_x();
      c.exit_if(v >= 4);
      if (join_odd) {
        c.if_(v == 1 || v == 3, [&] {
          frontier.join(c, v);
          frontier.raise(c);
        });
        return;
      }
      frontier.expand(c, v, [&] {
        V<std::int64_t> e = convert<std::int64_t>(c.load(row, v));
        const V<std::int64_t> end = convert<std::int64_t>(c.load(row, v + 1));
        for_each_edge(c, std::move(e), end,
                      [&](const V<std::int64_t>& edge) { c.store(visitor, edge, convert<std::int32_t>(v)); });
      });
    };
    return l;
  }
};

// Runs the kernel's one CTA; `check` sees the kernel and its traffic while the program still holds it.
void run(std::unique_ptr<ExpandKernel> k,
         const std::function<void(const ExpandKernel&, const Traffic&)>& check) {
  const ExpandKernel& kernel = *k;
  CppKernelProgram p("expand", std::move(k), testing::kTrafficLine);
  check(kernel, testing::walk(p, {}));
}

// Expanding: 0, 2 and 3 leave the mask (1 stays out); 0 visits edges 0..2, 3 visits 4 and 5, 2 has none and
// 1's edge 3 is not visited (1 is not in the frontier). Steps of the warp: the mask (1 load), then for the
// frontier's threads the mask cleared (1 store), the row bounds (2 loads), and one trip per edge of the
// longest list (vertex 0's 3): 3 visitor stores; the flag is not raised.
TEST(CsrFrontier, ExpandsTheFrontiersVerticesAlongTheirEdges) {
  run(std::make_unique<ExpandKernel>(Args({}, "", 0)), [](const ExpandKernel& kernel, const Traffic& t) {
    EXPECT_EQ(kernel.mask_values, (std::vector<std::uint8_t>{0, 0, 0, 0}));
    EXPECT_EQ(kernel.visitor_values, (std::vector<std::int32_t>{0, 0, 0, -1, 3, 3}));
    EXPECT_EQ(kernel.flag_values[0], 0);
    EXPECT_EQ(t.load_steps, 1u + 2u);
    EXPECT_EQ(t.store_steps, 1u + 3u);
  });
}

// Joining: vertices 1 and 3 set their mask entries and raise the flag (1 store each: mask, flag).
TEST(CsrFrontier, JoiningVerticesEnterTheMaskAndRaiseTheFlag) {
  auto k = std::make_unique<ExpandKernel>(Args({}, "", 0));
  k->mask_values = {0, 0, 0, 0};
  k->join_odd = true;
  run(std::move(k), [](const ExpandKernel& kernel, const Traffic& t) {
    EXPECT_EQ(kernel.mask_values, (std::vector<std::uint8_t>{0, 1, 0, 1}));
    EXPECT_EQ(kernel.flag_values[0], 1);
    EXPECT_EQ(t.store_steps, 2u);
    EXPECT_EQ(t.load_steps, 0u);
  });
}

// The host loop lowers the flag before every iteration and stops after the first that leaves it down: an
// iteration that raises it twice, then one that does not, is three iterations.
TEST(CsrFrontier, TheHostRepeatsWhileAnIterationRaisedTheFlag) {
  std::vector<std::uint8_t> flag_values{1};
  Array<std::uint8_t> flag;
  flag.data = &flag_values;
  const CsrFrontier frontier(Array<std::uint8_t>{}, flag);
  int iterations = 0;
  frontier.repeat_while_raised([&] {
    EXPECT_EQ(flag_values[0], 0) << "the flag is lowered before iteration " << iterations;
    if (++iterations < 3) flag_values[0] = 1;
  });
  EXPECT_EQ(iterations, 3);
  // 2 (n + 1) launches for n vertices: n iterations that reach something, one that does not, two launches
  // each.
  EXPECT_EQ(CsrFrontier::launch_bound(5).first, 12u);
  EXPECT_EQ(CsrFrontier::launch_bound(5).second, "2 (n + 1) = 12 for n = 5 vertices");
}

}  // namespace
}  // namespace numagpu::kernels
