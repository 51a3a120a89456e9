// rodinia/backprop_adjust_weights: bpnn_adjust_weights_cuda of Rodinia 3.1's backprop (learned from its
// backprop_cuda_kernel.cu and backprop_cuda.cu, written here anew). The weight update of the input-to-hidden
// layer: on the same (in + 1) x (hid + 1) row-major float matrices as layerforward (the weights w and their
// previous changes oldw), with the same grid of 1 x in/16 CTAs of 16 x 16 threads, each thread updates the
// weight of row 16 by + ty + 1, column tx + 1:
//   w[index] += ETA * delta[tx + 1] * ly[16 by + ty + 1] + MOMENTUM * oldw[index];
//   oldw[index] = ETA * delta[tx + 1] * ly[16 by + ty + 1] + MOMENTUM * oldw[index];
// then, after a barrier, the 16 threads with ty == 0 of CTA 0 update the bias row (index tx + 1) likewise.
// ETA and MOMENTUM are double literals (0.3) in backprop.h, so the arithmetic is fp64 with float
// conversions. The pointers are not restrict: after the store to w the compiler must load delta, ly and
// oldw again for the second statement, and so does the model (the same lines, L1 hits on the hardware).
// Reference run of the GV100 study: `backprop 65536` (in = 65,536, hid = 16: 4,096 CTAs of 256 threads).
// Input data: rand() / RAND_MAX weights and units, and the hidden deltas; no value steers an address or a
// branch, so the arrays carry no data.
// Simplifications: the fp64 update is computed with values (the conversions, ETA * delta * ly, the DFMA
// with MOMENTUM * oldw, the DADD into w, the conversion back), so each store waits for its chain; nothing
// is charged without a value.
#include "kernels/library.hpp"
#include "kernels/rodinia/backprop_common.hpp"

namespace numagpu::kernels {

namespace {

using backprop::kHeight;
using backprop::kWidth;

class BackpropAdjustWeights : public Kernel {
 public:
  explicit BackpropAdjustWeights(const Args& a)
      : Kernel(a),
        in_(backprop::checked_in(a["in"])),
        hid_(a["hid"]),
        delta_(array<float>("hidden_delta_cuda", std::uint64_t(hid_ + 1))),
        ly_(array<float>("input_cuda", std::uint64_t(in_ + 1))),
        w_(array<float>("input_hidden_cuda", std::uint64_t((in_ + 1) * (hid_ + 1)), in_ + 1, hid_ + 1)),
        oldw_(array<float>("input_prev_weights_cuda", std::uint64_t((in_ + 1) * (hid_ + 1)), in_ + 1,
                           hid_ + 1)) {}

  Launch launch() override {
    Launch l = backprop::launch(in_);
    l.regs_per_thread = 22;  // an estimate (no sm_70 compile at hand): fp64 temporaries
    l.shared_bytes = 0;
    l.body = [this](Cta& c) { body(c); };
    // LASP's index terms: the weights and their previous values at weight_index, the input units at
    // unit_index (row 2, backprop_common.hpp); hidden_delta[tx + 1] holds no block id (unclassified).
    l.accesses = {lasp_access(w_, backprop::kRowOfCta), lasp_access(oldw_, backprop::kRowOfCta),
                  lasp_access(ly_, backprop::kRowOfCta),
                  lasp_access(delta_, {false, false, false, runtime::LoopVariant::kNone, 0})};
    return l;
  }

 private:
  // ETA * delta[x] * ly[y] + MOMENTUM * old (no ly factor in the bias row): the float operands converted to
  // double (F2F.F64.F32, fp64 instructions), two (one) DMUL and a DFMA, computed with values: the chain
  // delta -> ETA * delta -> * ly -> + MOMENTUM * old. The values are zeros (no data); only the dataflow
  // matters.
  static V<double> change(const V<float>& delta, const V<float>* ly, const V<float>& old) {
    Cta& c = delta.cta();
    const V<double> d = to_double(delta);
    const V<double> l = ly ? to_double(*ly) : V<double>(c, 0.0);
    const V<double> o = to_double(old);
    V<double> product = d * kEta;
    if (ly) product = product * l;
    return fma(V<double>(c, kMomentum), o, product);
  }
  static V<double> to_double(const V<float>& v) { return convert<double>(v); }  // F2F.F64.F32 (FP64 unit)
  static V<float> to_float(const V<double>& v) { return convert<float>(v); }    // F2F.F32.F64 (FP64 unit)

  static constexpr double kEta = 0.3, kMomentum = 0.3;  // ETA, MOMENTUM of backprop.h

  void body(Cta& c) {
    const std::int64_t by = c.blockIdx.y;
    const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y();
    const V<std::int64_t> index = backprop::weight_index(c, hid_, tx, ty);
    const V<std::int64_t> index_y = backprop::unit_index(c, ty);
    const V<std::int64_t> index_x = tx + 1;

    // w[index] += ...: loads of delta, ly, oldw and w; the fp64 update; the conversion back; the store.
    update(c, index_x, &index_y, index, true);
    // oldw[index] = ...: the operands loaded again (w may alias them).
    update(c, index_x, &index_y, index, false);
    c.syncthreads();
    // if (ty == 0 && by == 0): the bias row (index tx + 1), by the 16 threads of the first half of CTA 0's
    // warp 0.
    c.if_((ty == 0) && (c.uniform(by) == 0), [&] {
      update(c, index_x, nullptr, index_x, true);
      update(c, index_x, nullptr, index_x, false);
    });
  }

  // One of the two statements: loads delta[x] (and ly[*y]) and oldw[i]; for w (`to_w`) also w[i], then
  // w[i] += change, else oldw[i] = change.
  void update(Cta& c, const V<std::int64_t>& x, const V<std::int64_t>* y, const V<std::int64_t>& i,
              bool to_w) {
    const V<float> delta = c.load(delta_, x);
    const V<float> ly = y ? c.load(ly_, *y) : V<float>(c, 0.0f);
    const V<float> old = c.load(oldw_, i);
    const V<double> ch = change(delta, y ? &ly : nullptr, old);
    if (to_w) {
      const V<float> w = c.load(w_, i);
      c.store(w_, i, to_float(to_double(w) + ch));  // w to double, the DADD, back to float
    } else {
      c.store(oldw_, i, to_float(ch));  // back to float
    }
  }

  std::int64_t in_, hid_;
  Array<float> delta_, ly_, w_, oldw_;
};

}  // namespace

LibraryEntry rodinia_backprop_adjust_weights() {
  return {"rodinia/backprop_adjust_weights",
          "Rodinia 3.1 backprop, kernel bpnn_adjust_weights_cuda; GV100 study input: 65536 (hidden 16)",
          backprop::args(), [](const Args& a) { return std::make_unique<BackpropAdjustWeights>(a); }};
}

}  // namespace numagpu::kernels
