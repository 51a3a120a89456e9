// ml/conv (application): a convolution layer's forward pass as Caffe computes it on a GPU (learned from
// Caffe's conv_layer.cu and im2col.cu, written here anew): per image of the batch, im2col_gpu_kernel unrolls
// the image's Cin x K x K receptive fields into a column buffer (Cin K K rows of H W columns), then a GEMM
// multiplies the weights (Cout x Cin K K) by it into the image's Cout x H W outputs. Caffe calls cuBLAS for
// the GEMM; here it is Parboil's mysgemmNT (the library kernel parboil/sgemm_mysgemmNT) with m = H W,
// n = Cout, k = Cin K K: its A (m x k, column-major) is exactly the column buffer, its C (m x n,
// column-major) the image's output; its B is the weights, stored as the NT kernel reads them. The host loops
// over the images, as Caffe's Forward_gpu does. im2col: one thread per (channel, output row, output column),
// blocks of 512 (CAFFE_CUDA_NUM_THREADS); each thread reads its K x K window (zero padding: reads skipped
// outside the image) and writes K x K column entries, H W apart. Stride 1, padding (K - 1) / 2, no dilation.
//
// Reference: a VGG-style 3 x 3 layer of 128 to 128 channels on 64 x 64 maps (an ImageNet network's early
// layers): the column buffer 1,152 x 4,096 floats (18 MiB) exceeds the L2 by itself.
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 512;  // CAFFE_CUDA_NUM_THREADS

class ConvApp : public Application {
 public:
  ConvApp(const Args& a, const std::string& input)
      : Application(a, input),
        batch_(a["batch"]),
        cin_(a["cin"]),
        cout_(a["cout"]),
        hw_(a["hw"]),
        k_(a["kernel"]) {
    if (k_ % 2 == 0)
      throw KernelError("argument 'kernel': odd sizes only (padding (K - 1) / 2 keeps the map's size)");
    if ((hw_ * hw_) % 128)
      throw KernelError("argument 'hw': hw x hw must be a multiple of 128 (the GEMM's m)");
    if (cout_ % 16) throw KernelError("argument 'cout': must be a multiple of 16 (the GEMM's n)");
    if ((cin_ * k_ * k_) % 8)
      throw KernelError("arguments 'cin' x 'kernel'^2 must be a multiple of 8 (the GEMM's k)");
  }

  void host() override {
    const std::int64_t map = hw_ * hw_;
    const std::string gemm =
        "m=" + std::to_string(map) + " n=" + std::to_string(cout_) + " k=" + std::to_string(cin_ * k_ * k_);
    for (std::int64_t b = 0; b < batch_; ++b) {
      launch("im2col", im2col(b));
      BoundArray out = bind(top_);
      out.base += std::uint64_t(b * cout_ * map) * sizeof(float);
      out.bytes = std::uint64_t(cout_ * map) * sizeof(float);
      launch("sgemm", library_kernel("parboil/sgemm_mysgemmNT", gemm,
                                     {{"A", bind(col_)}, {"B", bind(weights_)}, {"C", out}}));
    }
  }

 private:
  Launch im2col(std::int64_t image) {
    const std::int64_t n = cin_ * hw_ * hw_;
    Launch l;
    l.grid = {static_cast<std::uint32_t>((n + kThreads - 1) / kThreads), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 24;
    l.body = [this, n, image](Cta& c) {
      const V<std::int64_t> index = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(index >= n);
      const std::int64_t pad = (k_ - 1) / 2, map = hw_ * hw_;
      // hw_ is a kernel argument: two divisions by a run-time value (idiv) and the remainders beside them
      // from their quotients (one IMAD each), as the compiler computes the source's / and % pairs.
      const V<std::int64_t> h_index = idiv(index, hw_);
      const V<std::int64_t> c_im = idiv(h_index, hw_);
      const V<std::int64_t> h_col = remainder_of_quotient(h_index, c_im, hw_);
      const V<std::int64_t> w_col = remainder_of_quotient(index, h_index, hw_);
      const V<std::int64_t> h_off = h_col - pad, w_off = w_col - pad;
      const V<std::int64_t> col0 = (c_im * k_ * k_ * hw_ + h_col) * hw_ + w_col;
      const V<std::int64_t> im0 = ((c_im + image * cin_) * hw_ + h_off) * hw_ + w_off;
      for (std::int64_t i = 0; i < k_; ++i) {
        for (std::int64_t j = 0; j < k_; ++j) {  // unrolled by nvcc for a constant K; here a plain loop
          const V<std::int64_t> h = h_off + i, w = w_off + j;
          const V<bool> inside = (h >= 0) && (w >= 0) && (h < hw_) && (w < hw_);
          V<float> v(c, 0.0f);
          c.if_(inside, [&] { v = c.load(images_, im0 + i * hw_ + j); });
          c.store(col_, col0 + (i * k_ + j) * map, v);
        }
      }
    };
    // LASP's index terms (LADM §III-C). In Caffe the body runs in CUDA_KERNEL_LOOP, a grid-stride loop
    // whose induction variable is `index` (one trip at CAFFE_GET_BLOCKS's grid): both arrays' indices hold
    // index / width, index / width / height and their remainders (c_im, h_col, w_col), a division of the
    // induction variable, which is no stride x m (as hpgmg's k / 2): no row of Table II (row 7) for the
    // image and the column buffer, whatever the inner i, j loops add. The column buffer, the larger (Cin K^2
    // rows of H W against Cin planes of H W), chooses: kernel-wide, RTWICE; its datablock for H-CODA: the
    // CTA's 512 consecutive columns of a row for each (i, j), 2 KiB.
    constexpr runtime::IndexTerms kDivided{true, false, false, runtime::LoopVariant::kIrregular, 0};
    l.accesses = {lasp_access(images_, kDivided), lasp_access(col_, kDivided, kThreads * 4)};
    return l;
  }

  std::int64_t batch_, cin_, cout_, hw_, k_;
  std::uint64_t map_ = std::uint64_t(hw_ * hw_);
  Array<float> images_ = array<float>("bottom", std::uint64_t(batch_) * cin_ * map_,
                                      std::uint64_t(batch_) * cin_ * hw_, std::uint64_t(hw_));
  Array<float> col_ =
      array<float>("col_buffer", std::uint64_t(cin_) * k_ * k_ * map_, std::uint64_t(cin_) * k_ * k_, map_);
  Array<float> weights_ =
      array<float>("weights", std::uint64_t(cout_) * cin_ * k_ * k_, std::uint64_t(cin_) * k_ * k_,
                   std::uint64_t(cout_));  // as the GEMM's B: k rows of n
  Array<float> top_ =
      array<float>("top", std::uint64_t(batch_) * cout_ * map_, std::uint64_t(batch_) * cout_, map_);
};

}  // namespace

ApplicationEntry app_ml_conv() {
  return {"ml/conv",
          "A convolution layer's forward pass as Caffe runs it: per image, im2col_gpu_kernel then a GEMM "
          "(Parboil's mysgemmNT); reference: 3 x 3, 128 -> 128 channels, 64 x 64 maps",
          {{"batch", 4, 1, 4096, "images (an im2col and a GEMM launch each)"},
           {"cin", 128, 1, 4096, "input channels"},
           {"cout", 128, 16, 4096, "output channels (a multiple of 16)"},
           {"hw", 64, 8, 4096, "map height and width (hw^2 a multiple of 128)"},
           {"kernel", 3, 1, 11, "filter size K (odd)"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<ConvApp>(a, input); }};
}

}  // namespace numagpu::kernels
