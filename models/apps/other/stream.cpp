// other/stream (application): BabelStream's CUDA implementation (the STREAM kernels on a GPU, learned from
// its CUDAStream.cu, written here anew), the paper's Other-Stream-Triad: per iteration copy (c = a), mul
// (b = s c), add (c = a + b), triad (a = b + s c) and dot (sum of a b: each CTA strides over the arrays,
// reduces its threads' partial sums in shared memory, and writes one partial sum; the host adds them),
// `iterations` times, on three arrays of doubles. Blocks of 1,024 threads (TBSIZE), one element a thread for
// the four streaming kernels; dot uses 256 CTAs (DOT_NUM_BLOCKS). Values steer nothing.
//
// Reference: 2^23 doubles an array (64 MiB; BabelStream's default is 2^25), so 192 MiB in all.
#include <functional>
#include <initializer_list>

#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kTb = 1024;        // TBSIZE
constexpr std::int64_t kDotBlocks = 256;  // DOT_NUM_BLOCKS

class StreamApp : public Application {
 public:
  StreamApp(const Args& a, const std::string& input)
      : Application(a, input), n_(a["elements"]), iterations_(a["iterations"]) {
    if (n_ % kTb) throw KernelError("argument 'elements': must be a multiple of 1024 (TBSIZE)");
  }

  void host() override {
    for (std::int64_t k = 0; k < iterations_; ++k) {
      launch("copy", streaming({a_, c_},
                               [this](Cta& c, const V<std::int64_t>& i) { c.store(c_, i, c.load(a_, i)); }));
      launch("mul", streaming({c_, b_}, [this](Cta& c, const V<std::int64_t>& i) {
               c.store(b_, i, c.load(c_, i) * 0.4);
             }));
      launch("add", streaming({a_, b_, c_}, [this](Cta& c, const V<std::int64_t>& i) {
               c.store(c_, i, c.load(a_, i) + c.load(b_, i));
             }));
      launch("triad", streaming({c_, b_, a_}, [this](Cta& c, const V<std::int64_t>& i) {
               c.store(a_, i, fma(V<double>(c, 0.4), c.load(c_, i), c.load(b_, i)));
             }));
      launch("dot", dot());
    }
  }

 private:
  // `arrays`: the ones `f` reads and writes, each at i = tx + bx * TBSIZE (LASP's index terms: invariant in
  // bx, no loop: no datablock locality, LADM Table II row 1, as its VecAdd), a CTA's datablock TBSIZE
  // doubles.
  Launch streaming(std::initializer_list<std::reference_wrapper<const Array<double>>> arrays,
                   std::function<void(Cta&, const V<std::int64_t>&)> f) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(n_ / kTb), 1, 1};
    l.block = {kTb, 1, 1};
    l.regs_per_thread = 16;
    l.body = [f = std::move(f)](Cta& c) { f(c, c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kTb); };
    for (const Array<double>& a : arrays)
      l.accesses.push_back(lasp_access(a, runtime::terms::kPerThread, kTb * 8));
    return l;
  }

  Launch dot() {
    Launch l;
    l.grid = {kDotBlocks, 1, 1};
    l.block = {kTb, 1, 1};
    l.regs_per_thread = 24;
    l.shared_bytes = kTb * 8;
    // LASP's index terms: a[i] and b[i] at i = tx + bx * TBSIZE + m * TBSIZE * gridDim.x (the grid-stride
    // loop): invariant in bx, a whole grid's elements per m: no datablock locality strided by TBSIZE x
    // DOT_NUM_BLOCKS doubles (Table II row 1, as the paper's ScalarProd); sums[bx]: no loop.
    using runtime::LoopVariant;
    const std::uint64_t stride = std::uint64_t(kTb * kDotBlocks);
    l.accesses = {lasp_access(a_, {true, false, false, LoopVariant::kMGridDimX, stride}, kTb * 8),
                  lasp_access(b_, {true, false, false, LoopVariant::kMGridDimX, stride}, kTb * 8),
                  lasp_access(sums_, runtime::terms::kPerThread, 8)};
    l.body = [this](Cta& c) {
      const V<std::int64_t> tx = c.threadIdx_x();
      V<double> sum(c, 0.0);
      // for (i = blockDim.x * blockIdx.x + tx; i < n; i += blockDim.x * gridDim.x): the same trip count for
      // every thread (n is a multiple of 1,024 x 256 here, else the last trip diverges)
      const std::int64_t stride = kTb * kDotBlocks;
      for (std::int64_t base = std::int64_t(c.blockIdx.x) * kTb; base < n_; base += stride) {
        const V<std::int64_t> i = tx + base;
        c.if_(i < n_, [&] { sum = fma(c.load(a_, i), c.load(b_, i), sum); });
        c.charge(InstrClass::kBranch);
      }
      Cta::Shared<double> tb_sum(c, kTb);
      tb_sum.store(tx, sum);
      for (std::int64_t offset = kTb / 2; offset > 0; offset /= 2) {
        c.syncthreads();
        c.if_(tx < offset, [&] { tb_sum.store(tx, tb_sum.load(tx) + tb_sum.load(tx + offset)); });
      }
      c.if_(tx == 0, [&] { c.store(sums_, c.uniform(c.blockIdx.x), tb_sum.load(tx)); });
    };
    return l;
  }

  std::int64_t n_, iterations_;
  Array<double> a_ = array<double>("a", std::uint64_t(n_));
  Array<double> b_ = array<double>("b", std::uint64_t(n_));
  Array<double> c_ = array<double>("c", std::uint64_t(n_));
  Array<double> sums_ = array<double>("sums", kDotBlocks);
};

}  // namespace

ApplicationEntry app_other_stream() {
  return {"other/stream",
          "BabelStream (CUDA): copy, mul, add, triad and dot per iteration on three arrays of doubles; "
          "reference 2^23 doubles an array",
          {{"elements", 1 << 23, 1024, std::int64_t(1) << 28, "doubles per array (a multiple of 1024)"},
           {"iterations", 2, 1, 100000, "iterations (5 launches each)"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<StreamApp>(a, input); }};
}

}  // namespace numagpu::kernels
