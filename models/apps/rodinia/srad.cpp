// rodinia/srad (application): Rodinia 3.1 srad_v1, CUDA version (main.cu and its kernels; learned from them,
// written here anew): speckle-reducing anisotropic diffusion of an Nr x Nc image (column-major). The host
// program runs extract once, then per iteration: prepare (each element's value and square into the two sum
// arrays), reduce launched until one block is left (each launch sums 512 partial sums a block in shared
// memory, the blocks' results `mul` elements apart, the grid shrinking 512-fold: ceil(log512(Ne)) launches
// whose sizes the host computes from the previous ones), the host's q0sqr from the sums, then srad (the
// library kernel rodinia/srad_v1_srad: derivatives and diffusion coefficient) and srad2 (the divergence
// update of the image from the coefficients of the element and its south and east neighbours); finally
// compress. Every kernel is one thread per element, 512 a block (NUMBER_THREADS). The index arrays iS and jE
// carry data (srad2's addresses); the image's values steer nothing here.
//
// Reference: the GV100 study's `srad 100 0.5 502 458`; the suite scales the image to 2048 x 2048 (16 MiB an
// array, 10 arrays) with fewer iterations.
#include <functional>
#include <initializer_list>

#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 512;  // NUMBER_THREADS

class SradApp : public Application {
 public:
  SradApp(const Args& a, const std::string& input)
      : Application(a, input), nr_(a["rows"]), nc_(a["cols"]), ne_(nr_ * nc_), iterations_(a["iterations"]) {
    for (std::int64_t i = 0; i < nr_; ++i)
      i_s_.values[std::size_t(i)] = int(i == nr_ - 1 ? nr_ - 1 : i + 1);
    for (std::int64_t j = 0; j < nc_; ++j)
      j_e_.values[std::size_t(j)] = int(j == nc_ - 1 ? nc_ - 1 : j + 1);
  }

  void host() override {
    launch("extract", elementwise(4, {image_}, [this](Cta& c, const V<std::int64_t>& ei) {
             c.store(image_, ei, exp(c.load(image_, ei) / 255.0f));
           }));
    for (std::int64_t it = 0; it < iterations_; ++it) {
      launch("prepare", elementwise(8, {image_, sums_, sums2_}, [this](Cta& c, const V<std::int64_t>& ei) {
               const V<float> v = c.load(image_, ei);
               c.store(sums_, ei, v);
               c.store(sums2_, ei, v * v);
             }));
      // The reduction's launches, as the host computes them.
      std::int64_t blocks = (ne_ + kThreads - 1) / kThreads, no = ne_, mul = 1;
      while (blocks != 0) {
        launch("reduce", reduce(blocks, no, mul));
        no = blocks;
        if (blocks == 1) {
          blocks = 0;
        } else {
          mul *= kThreads;
          blocks = (blocks + kThreads - 1) / kThreads;
        }
      }
      launch("srad", library_kernel("rodinia/srad_v1_srad",
                                    "rows=" + std::to_string(nr_) + " cols=" + std::to_string(nc_),
                                    {{"I", bind(image_)},
                                     {"iN", bind(i_n_)},
                                     {"iS", bind(i_s_)},
                                     {"jW", bind(j_w_)},
                                     {"jE", bind(j_e_)},
                                     {"dN", bind(derivatives_[0])},
                                     {"dS", bind(derivatives_[1])},
                                     {"dW", bind(derivatives_[2])},
                                     {"dE", bind(derivatives_[3])},
                                     {"c", bind(derivatives_[4])}}));
      launch("srad2", srad2());
    }
    launch("compress", elementwise(4, {image_}, [this](Cta& c, const V<std::int64_t>& ei) {
             c.store(image_, ei, c.load(image_, ei) * 255.0f);
             c.charge(InstrClass::kSfu);  // log
           }));
  }

 private:
  // `arrays`: the ones `f` reads and writes at ei = tx + 512 bx (LASP's index terms: invariant in bx, no
  // loop: Table II row 1, each CTA 512 floats, 2 KiB, of each).
  Launch elementwise(unsigned regs, std::initializer_list<std::reference_wrapper<const Array<float>>> arrays,
                     std::function<void(Cta&, const V<std::int64_t>&)> f) {
    Launch l;
    for (const Array<float>& a : arrays)
      l.accesses.push_back(lasp_access(a, runtime::terms::kPerThread, kThreads * 4));
    l.grid = {static_cast<std::uint32_t>((ne_ + kThreads - 1) / kThreads), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = regs;
    l.body = [this, f = std::move(f)](Cta& c) {
      const V<std::int64_t> ei = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.if_(ei < ne_, [&] { f(c, ei); });
    };
    return l;
  }

  // One reduce launch: `blocks` CTAs sum `no` partial sums `mul` elements apart, 512 a CTA, into the first
  // element of their range. The last CTA of a partial grid reduces its power-of-two part by the tree, and its
  // thread df - 1 adds the rest serially.
  Launch reduce(std::int64_t blocks, std::int64_t no, std::int64_t mul) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(blocks), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 16;
    l.shared_bytes = 2 * kThreads * 4;
    // LASP: sums[ei mul] and sums2[ei mul] with ei = tx + 512 bx (mul a kernel argument): blockIdx.x in the
    // loop-invariant group, no loop: row 1 without a stride (the two stores at bx mul 512 too). A CTA reads
    // 512 floats mul apart: its datablock is 512 x mul floats (2 KiB at the first launch, mul = 1).
    for (const Array<float>* a : {&sums_, &sums2_})
      l.accesses.push_back(lasp_access(*a, runtime::terms::kPerThread, std::uint64_t(kThreads * 4 * mul)));
    l.body = [this, blocks, no, mul](Cta& c) {
      const std::int64_t bx = c.blockIdx.x;
      const V<std::int64_t> tx = c.threadIdx_x();
      const V<std::int64_t> ei = tx + bx * kThreads;
      const std::int64_t nf = kThreads - (blocks * kThreads - no);
      Cta::Shared<float> psum(c, kThreads), psum2(c, kThreads);
      c.if_(ei < no, [&] {
        psum.store(tx, c.load(sums_, ei * mul));
        psum2.store(tx, c.load(sums2_, ei * mul));
      });
      c.syncthreads();
      const bool full = nf == kThreads || bx != blocks - 1;
      std::int64_t df = 0;
      for (std::int64_t i = 2; i <= kThreads; i *= 2)
        if (nf >= i) df = i;
      const std::int64_t top = full ? kThreads : df;
      for (std::int64_t i = 2; i <= top; i *= 2) {
        const V<std::int64_t> t1 = tx + 1;
        c.if_((t1 - (t1 / i) * i == 0) && (tx < top), [&] {
          psum.store(tx, psum.load(tx) + psum.load(tx - i / 2));
          psum2.store(tx, psum2.load(tx) + psum2.load(tx - i / 2));
        });
        c.syncthreads();
      }
      c.if_(tx == top - 1, [&] {
        if (!full) {
          for (std::int64_t i = df; i < nf; ++i) {  // the tail beyond the power of two, one by one
            (void)psum.load(c.uniform(i));
            (void)psum2.load(c.uniform(i));
          }
        }
        c.store(sums_, c.uniform(bx * mul * kThreads), psum.load(tx));
        c.store(sums2_, c.uniform(bx * mul * kThreads), psum2.load(tx));
      });
    };
    return l;
  }

  Launch srad2() {
    // The coefficients c are also read at a neighbour's index (iS[row] + col Nr, row + jE[col] Nr); their
    // own element's two reads classify them (row 1), as srad's kernel states the image.
    return elementwise(
        24, {image_, derivatives_[4], derivatives_[0], derivatives_[1], derivatives_[2], derivatives_[3]},
        [this](Cta& c, const V<std::int64_t>& ei) {
          const V<std::int64_t> e1 = ei + 1;
          // Nr is a kernel argument: a division by a run-time value (idiv), and the remainder beside it from
          // its quotient (one IMAD), as the compiler computes the source's / and % of the same operands.
          V<std::int64_t> col = idiv(e1, nr_);
          V<std::int64_t> row = remainder_of_quotient(e1, col, nr_) - 1;
          c.if_(row == -1, [&] {  // (ei + 1) % Nr == 0: the last row
            row = V<std::int64_t>(c, nr_ - 1);
            col = col - 1;
          });
          const Array<float>& cc = derivatives_[4];
          V<float> d = c.load(cc, ei) * c.load(derivatives_[0], ei);
          d = d +
              c.load(cc, convert<std::int64_t>(c.load(i_s_, row)) + col * nr_) * c.load(derivatives_[1], ei);
          d = d + c.load(cc, ei) * c.load(derivatives_[2], ei);
          d = d +
              c.load(cc, row + convert<std::int64_t>(c.load(j_e_, col)) * nr_) * c.load(derivatives_[3], ei);
          c.store(image_, ei, c.load(image_, ei) + d * 0.125f);
        });
  }

  // An array of the image's shape (nc x nr). Every array has a 2-D shape (the index arrays one row), so that
  // LADM's row and column placements apply.
  Array<float> image_array(const std::string& name) {
    return array<float>(name, std::uint64_t(ne_), std::uint64_t(nc_), std::uint64_t(nr_));
  }

  std::int64_t nr_, nc_, ne_, iterations_;
  Array<float> image_ = image_array("I");
  Array<float> sums_ = image_array("sums");
  Array<float> sums2_ = image_array("sums2");
  Array<int> i_n_ = array<int>("iN", std::uint64_t(nr_), 1, std::uint64_t(nr_));
  Data<int> i_s_{this, "iS", std::uint64_t(nr_), 0, 1, std::uint64_t(nr_)};
  Array<int> j_w_ = array<int>("jW", std::uint64_t(nc_), 1, std::uint64_t(nc_));
  Data<int> j_e_{this, "jE", std::uint64_t(nc_), 0, 1, std::uint64_t(nc_)};
  std::vector<Array<float>> derivatives_ = {image_array("dN"), image_array("dS"), image_array("dW"),
                                            image_array("dE"), image_array("c")};
};

}  // namespace

ApplicationEntry app_rodinia_srad() {
  return {
      "rodinia/srad",
      "Rodinia 3.1 srad_v1 (CUDA): extract, then per iteration prepare, reduce until one block, srad, srad2; "
      "then compress",
      {{"rows", 2048, 2, 1 << 15, "image rows Nr"},
       {"cols", 2048, 2, 1 << 15, "image columns Nc"},
       {"iterations", 2, 1, 100000, "diffusion iterations"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<SradApp>(a, input); }};
}

}  // namespace numagpu::kernels
