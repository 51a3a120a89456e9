// parboil/spmv (application): Parboil's spmv, CUDA version (learned from its source, written here anew):
// y = A x with A in the jagged diagonal storage (JDS) format, launched `iterations` times as the benchmark's
// host loop does (it repeats the product for its timing). The rows are sorted by length, longest first
// (perm maps a sorted row to its original one); diagonal k holds the k-th entry of every row that has one,
// padded to a multiple of 32 rows (zeros pointing at column 0), so a warp reads a contiguous stretch of it.
// One thread per sorted row: bound = sh_zcnt[warp] (its warp's longest row; constant memory, as is jds_ptr),
// then per k < bound: j = jds_ptr[k] + row, loads index[j] and data[j] and gathers x[index[j]]; finally
// y[perm[row]] = sum. The indices and perm carry data (addresses); the values do not.
//
// Input: a METIS graph as the matrix's pattern (every edge an off-diagonal entry, plus the diagonal: the
// structure of a finite-element stiffness matrix on that mesh), default copter2.graph of libmetis-doc (a
// helicopter's 3-D mesh, 55,476 vertices, 352,238 edges) extruded to 8 layers (kernels/metis_graph.hpp):
// 443,808 rows, 6,856,280 entries (55 MiB of data and indices with the padding). Blocks of 192 threads (the
// block size is this model's choice; Parboil's host picks it for its device).
#include <algorithm>
#include <numeric>

#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBlock = 192;
constexpr std::int64_t kWarp = 32;

class SpmvApp : public Application {
 public:
  SpmvApp(const Args& a, const std::string& input)
      : Application(a, input),
        iterations_(a["iterations"]),
        jds_(jds_of(load_graph(input, std::uint32_t(a["layers"])))) {
    index_.values = std::move(jds_.index);
    perm_.values = std::move(jds_.perm);
  }

  void host() override {
    for (std::int64_t i = 0; i < iterations_; ++i)
      launch("spmv_jds", spmv());
  }

 private:
  // The matrix in JDS: its rows, the sorted rows' original numbers (perm), each warp's longest row (zcnt),
  // where each diagonal starts (ptr) and the column of every padded entry (index).
  struct Jds {
    std::int64_t rows = 0;
    std::vector<std::int32_t> perm, index;
    std::vector<std::int64_t> zcnt, ptr;
  };
  static Jds jds_of(const CsrGraph& g) {
    Jds j;
    j.rows = g.vertices;
    // Row r: the diagonal, then its neighbours.
    std::vector<std::uint32_t> order(static_cast<std::size_t>(j.rows));
    std::iota(order.begin(), order.end(), 0u);
    auto length = [&](std::uint32_t r) { return g.row_ptr[r + 1] - g.row_ptr[r] + 1; };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return length(x) > length(y); });
    j.perm.assign(order.begin(), order.end());
    const std::int64_t warps = (j.rows + kWarp - 1) / kWarp;
    j.zcnt.assign(std::size_t(warps), 0);
    for (std::int64_t w = 0; w < warps; ++w)
      j.zcnt[std::size_t(w)] =
          std::int64_t(length(order[std::size_t(w * kWarp)]));  // sorted: the first is the longest
    const std::int64_t diagonals = j.zcnt.empty() ? 0 : j.zcnt[0];
    std::int64_t total = 0;
    for (std::int64_t k = 0; k < diagonals; ++k) {
      j.ptr.push_back(total);
      std::int64_t rows_k = 0;  // rows with more than k entries (a prefix of the sorted rows)
      while (rows_k < j.rows && std::int64_t(length(order[std::size_t(rows_k)])) > k)
        ++rows_k;
      total += (rows_k + kWarp - 1) / kWarp * kWarp;
    }
    j.index.assign(std::size_t(total), 0);
    for (std::int64_t s = 0; s < j.rows; ++s) {
      const std::uint32_t r = order[std::size_t(s)];
      j.index[std::size_t(j.ptr[0] + s)] = std::int32_t(r);
      for (std::uint32_t e = g.row_ptr[r], k = 1; e < g.row_ptr[r + 1]; ++e, ++k)
        j.index[std::size_t(j.ptr[k] + s)] = std::int32_t(g.col[e]);
    }
    return j;
  }

  Launch spmv() {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((rows_ + kBlock - 1) / kBlock), 1, 1};
    l.block = {kBlock, 1, 1};
    l.regs_per_thread = 20;
    // LASP's index terms of spmv_jds (LADM §III-C): data[jds_ptr[k] + ix] and index[jds_ptr[k] + ix] with
    // ix = tx + 192 bx: the loop's offset is read from a table (jds_ptr, constant memory), not stride x k,
    // so the access matches no row of Table II: row 7 (the paper's Table IV lists SpMV-jds as ITL, which
    // this index does not show: k does not walk a thread's own elements). A CTA reads 192 consecutive
    // entries of a diagonal per iteration (768 B, the datablock H-CODA's batches follow). perm[ix]: row 1,
    // no loop; x[index[j]] and y[perm[ix]]: gathered, row 7. data, stated first of the two largest, decides:
    // kernel-wide, RTWICE.
    l.accesses = {lasp_access(data_, runtime::terms::kTableStepped, kBlock * 4),
                  lasp_access(index_, runtime::terms::kTableStepped, kBlock * 4),
                  lasp_access(perm_, runtime::terms::kPerThread, kBlock * 4),
                  lasp_access(x_, runtime::terms::kGathered), lasp_access(y_, runtime::terms::kGathered)};
    l.body = [this](Cta& c) {
      const V<std::int64_t> ix = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kBlock;
      c.exit_if(ix >= rows_);
      // Warps are whole within a block (192 = 6 x 32): a warp's bound is uniform over its threads.
      V<std::int64_t> bound(c, 0);
      for (unsigned t = 0; t < c.threads(); ++t)
        bound[t] = jds_.zcnt[std::size_t(std::min<std::int64_t>(ix[t], rows_ - 1) / kWarp)];
      c.charge(InstrClass::kInt);  // the constant-memory read of sh_zcnt
      V<float> sum(c, 0.0f);
      V<std::int64_t> k(c, 0);
      c.while_(
          [&] { return k < bound; },
          [&] {
            V<std::int64_t> j(c, 0);
            for (unsigned t = 0; t < c.threads(); ++t)
              j[t] = jds_.ptr[std::size_t(std::min<std::int64_t>(k[t], std::int64_t(jds_.ptr.size()) - 1))] +
                     ix[t];
            c.charge(InstrClass::kInt, 2);  // jds_ptr from constant memory, the add
            const V<std::int64_t> in = convert<std::int64_t>(c.load(index_, j));
            sum = fma(c.load(data_, j), c.load(x_, in), sum);
            k = k + 1;
          });
      c.store(y_, convert<std::int64_t>(c.load(perm_, ix)), sum);
    };
    return l;
  }

  std::int64_t iterations_;
  Jds jds_;  // its index and perm move into the arrays
  std::int64_t rows_ = jds_.rows;
  Array<float> data_ = array<float>("data", jds_.index.size());
  Data<std::int32_t> index_{this, "index", jds_.index.size()};
  Data<std::int32_t> perm_{this, "perm", std::uint64_t(rows_)};
  Array<float> x_ = array<float>("x", std::uint64_t(rows_));
  Array<float> y_ = array<float>("y", std::uint64_t(rows_));
};

}  // namespace

ApplicationEntry app_parboil_spmv() {
  return {"parboil/spmv",
          "Parboil spmv (CUDA, JDS format), spmv_jds launched `iterations` times, on a METIS mesh's pattern "
          "plus the diagonal (default copter2.graph extruded to 8 layers)",
          {{"layers", 8, 1, 64, "copies of the mesh stacked as an extruded volume (kernels/metis_graph.hpp)"},
           {"iterations", 8, 1, 100000, "products y = A x (launches)"}},
          "/usr/share/doc/libmetis-dev/examples/graphs/copter2.graph",
          [](const Args& a, const std::string& input) { return std::make_unique<SpmvApp>(a, input); }};
}

}  // namespace numagpu::kernels
