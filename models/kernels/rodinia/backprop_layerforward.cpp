// rodinia/backprop_layerforward: bpnn_layerforward_CUDA of Rodinia 3.1's backprop (learned from its
// backprop_cuda_kernel.cu and backprop_cuda.cu, written here anew). The forward pass from the input layer
// (`in` units) to the hidden layer (hid = 16 units): the weights form an (in + 1) x (hid + 1) row-major float
// matrix (row 0 and column 0 are the bias). The grid is 1 x in/16 CTAs of 16 x 16 threads; CTA `by` takes
// the 16 input rows 16 by + 1 .. 16 by + 16 and all 16 hidden columns: the threads with tx == 0 load the
// 16 input units into shared memory, every thread loads its weight, multiplies it by its row's input, and
// the 16 rows are summed by a tree reduction over ty in shared memory (4 steps, a barrier after each);
// every thread writes its (partly reduced) weight back, and the threads with tx == 0 write row 0 of the
// tile (the 16 column sums) to hidden_partial_sum[by * hid + ty].
// Reference run of the GV100 study: `backprop 65536` (in = 65,536, hid = 16: 4,096 CTAs of 256 threads).
// Input data: the program fills the input units and weights with rand() / RAND_MAX; no value steers an
// address or a branch, so the arrays carry no data. output_hidden_cuda is an argument the kernel never
// touches (it is not modelled).
// Simplifications: none of the arithmetic is charged without a value: the products, the reduction's adds
// and the loop's __log2f / __powf(2, i) / modulo chain are computed with values (the weights carry no data:
// zeros; only the dataflow matters); the loop's back edge is a charged branch.
#include <cmath>

#include "kernels/library.hpp"
#include "kernels/rodinia/backprop_common.hpp"

namespace numagpu::kernels {

namespace {

using backprop::kHeight;
using backprop::kWidth;

class BackpropLayerforward : public Kernel {
 public:
  explicit BackpropLayerforward(const Args& a)
      : Kernel(a),
        in_(backprop::checked_in(a["in"])),
        hid_(a["hid"]),
        input_(array<float>("input_cuda", std::uint64_t(in_ + 1))),
        weights_(array<float>("input_hidden_cuda", std::uint64_t((in_ + 1) * (hid_ + 1)), in_ + 1, hid_ + 1)),
        partial_(array<float>("hidden_partial_sum", std::uint64_t(in_ / kHeight * kWidth))) {}

  Launch launch() override {
    Launch l = backprop::launch(in_);
    l.regs_per_thread = 16;  // an estimate (no sm_70 compile at hand); occupancy is set by the threads
    l.shared_bytes = (kHeight + kHeight * kWidth) * 4;  // input_node[16], weight_matrix[16][16]
    l.body = [this](Cta& c) { body(c); };
    // LASP's index terms: the weights at weight_index, the input units at unit_index, the partial sums at
    // ty + by * hid: blockIdx.y only, no loop (row 2, backprop_common.hpp).
    l.accesses = {lasp_access(weights_, backprop::kRowOfCta), lasp_access(input_, backprop::kRowOfCta),
                  lasp_access(partial_, backprop::kRowOfCta)};
    return l;
  }

 private:
  void body(Cta& c) {
    const std::int64_t by = c.blockIdx.y;
    const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y();
    // index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1): row 16 by + ty + 1, column tx
    // + 1.
    const V<std::int64_t> index = backprop::weight_index(c, hid_, tx, ty);
    const V<std::int64_t> index_in = backprop::unit_index(c, ty);
    Cta::Shared<float> input_node(c, kHeight), weight_matrix(c, kHeight * kWidth);
    const V<std::int64_t> cell = ty * kWidth + tx;  // weight_matrix[ty][tx]

    c.if_(tx == 0, [&] { input_node.store(ty, c.load(input_, index_in)); });
    c.syncthreads();
    weight_matrix.store(cell, c.load(weights_, index));
    c.syncthreads();
    weight_matrix.store(cell, weight_matrix.load(cell) * input_node.load(ty));
    c.syncthreads();

    // for (i = 1; i <= __log2f(HEIGHT); i++): 4 trips; each evaluates __log2f (sfu) against i converted to
    // float (a conversion, on the XU, and an fp32 compare) and power_two = __powf(2, i) (lg2 and ex2 on the
    // sfu, an fp32 multiply, a conversion back to int on the XU).
    // Computed with values: the loop test (i to float, compared with __log2f(HEIGHT)) and the chain i ->
    // float -> * lg2(2) -> ex2 -> int -> ty % power_two -> the compare the branch reads.
    for (std::int64_t i = 1, power_two = 2; power_two <= kHeight; ++i, power_two *= 2) {
      const V<float> fi = convert<float>(c.uniform(i));  // I2F
      const V<float> log2_height = sfu(V<float>(c, float(kHeight)), [](float v) { return std::log2(v); });
      (void)(fi <= log2_height);  // the loop test
      const V<float> lg2 = sfu(V<float>(c, 2.0f), [](float v) { return std::log2(v); });
      const V<float> pow2 = sfu(fi * lg2, [](float v) { return std::exp2(v); });  // __powf(2, i)
      const V<std::int64_t> pt = convert<std::int64_t>(pow2);                     // F2I
      // ty % power_two: one instruction. power_two is __powf(2, i) of the loop counter, and the trip count
      // is __log2f(HEIGHT) of a constant: whether nvcc folds them (the remainder then a mask) or issues a
      // remainder sequence by a run-time value (irem, 24 instructions a trip) is not known here without the
      // SASS (docs/kernels.md, "What is not modelled").
      const V<std::int64_t> rem =
          zip(ty, pt, InstrClass::kInt, [](std::int64_t v, std::int64_t p) { return p > 0 ? v % p : v; });
      c.if_(rem == 0, [&] {
        weight_matrix.store(
            cell, weight_matrix.load(cell) + weight_matrix.load((ty + power_two / 2) * kWidth + tx));
      });
      c.syncthreads();
      c.charge(InstrClass::kBranch);  // the loop's back edge
    }

    c.store(weights_, index, weight_matrix.load(cell));
    c.syncthreads();
    c.if_(tx == 0, [&] { c.store(partial_, ty + by * hid_, weight_matrix.load(tx * kWidth + ty)); });
  }

  template <class F>
  static V<float> sfu(const V<float>& a, F f) {  // an SFU instruction (MUFU.LG2, MUFU.EX2)
    return map(a, InstrClass::kSfu, f);
  }

  std::int64_t in_, hid_;
  Array<float> input_, weights_, partial_;
};

}  // namespace

LibraryEntry rodinia_backprop_layerforward() {
  return {"rodinia/backprop_layerforward",
          "Rodinia 3.1 backprop, kernel bpnn_layerforward_CUDA; GV100 study input: 65536 (hidden 16)",
          backprop::args(), [](const Args& a) { return std::make_unique<BackpropLayerforward>(a); }};
}

}  // namespace numagpu::kernels
