// ubench/ops: one instruction, repeated in dependent chains, for its latency and its throughput (the method
// of Wong et al., ISPASS 2010, and Jia et al., arXiv:1804.06826: a chain of dependent instructions timed by
// one warp gives the latency, many independent chains at full occupancy the throughput). `numagpu bench-sm`
// runs it (docs/microbenchmarks.md).
//
// Every thread runs `chains` independent chains of `length` steps; each step is one operation `op` on the
// chain's value, which reads the value the step before wrote, so a chain's steps wait for one another and the
// chains do not. The loop over steps is unrolled in the source (plain C++), as the published benchmarks
// unroll theirs: no loop counter or branch is issued. The values are computed (the dependency model needs
// values, not their numbers); they overflow or stall at harmless fixed points, which does not change what is
// issued.
//
// What the model can say about an opcode is its instruction class: FFMA, FADD and FMUL are fp32; IMAD, IADD3,
// LOP3, shifts and SHFL are int (the PTX front end classes shfl so, ptx/flatten.cpp), SHFL also taking a
// pass of the SM's shared pipe and its own latency (Cta::shuffle_xor); MUFU and the int-float conversions
// are sfu (the XU); F2F and DFMA are fp64; an HMMA step is tensor.
// The divisions issue nvcc's sequences (docs/kernels.md, "Timing"), so one division is one step of a chain.
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

// The operations, by the `op` argument's value (docs/microbenchmarks.md lists them too).
enum class Op : int {
  kFfma = 0,
  kFadd,
  kFmul,
  kImad,
  kIadd3,
  kLop3,
  kShift,
  kMufu,
  kDfma,
  kHmma,
  kI2fF2i,  // a step is two conversions, I2F then F2I: the chain must come back to an integer
  kF2f,     // a step is two conversions, float to double and back
  kShfl,
  kIdiv,
  kFdiv,
  kDdiv,
  kFfmaIadd3,  // a step is an FFMA on a float chain and an IADD3 on an int chain: two pipes, two instructions
  // An FFMA whose three register sources lie in one register bank, none held by the reuse cache (Jia et
  // al.'s FFMA R6, R97, R99, RX with RX odd): Cta::sources_in_one_register_bank.
  kFfmaBankConflict,
  kCount
};

class Ops : public Kernel {
 public:
  explicit Ops(const Args& a)
      : Kernel(a),
        op_(static_cast<Op>(a["op"])),
        length_(a["length"]),
        chains_(a["chains"]),
        threads_(ubench::whole_warps(a["threads"])),
        ctas_(a["ctas"]) {}

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.body = [this](Cta& c) {
      switch (op_) {
        case Op::kFfma:
          run<float>(c, [&c](const V<float>& x) { return fma(x, V<float>(c, 1.0f), V<float>(c, 0.5f)); });
          break;
        case Op::kFadd:
          run<float>(c, [](const V<float>& x) { return x + 1.0f; });
          break;
        case Op::kFmul:
          run<float>(c, [](const V<float>& x) { return x * 1.0001f; });
          break;
        case Op::kImad:
          run<std::int64_t>(c, [&c](const V<std::int64_t>& x) {
            return fma(x, V<std::int64_t>(c, 1),
                       V<std::int64_t>(c, 0));  // x stays x: no overflow on the host
          });
          break;
        case Op::kIadd3:
          run<std::int64_t>(c, [](const V<std::int64_t>& x) { return x + 3; });
          break;
        case Op::kLop3:
          run<std::int64_t>(
              c, [](const V<std::int64_t>& x) { return int_op(x, [](std::int64_t v) { return v ^ 0x5A; }); });
          break;
        case Op::kShift:
          run<std::int64_t>(c, [](const V<std::int64_t>& x) {
            return int_op(x, [](std::int64_t v) { return (v << 1) & 0xFFFF; });
          });
          break;
        case Op::kMufu:
          run<float>(c, [](const V<float>& x) { return sqrt(x); });
          break;
        case Op::kDfma:
          run<double>(c, [&c](const V<double>& x) { return fma(x, V<double>(c, 1.0), V<double>(c, 0.5)); });
          break;
        case Op::kHmma:
          run<float>(
              c, [&c](const V<float>& acc) { return fragment_op<float>(c, InstrClass::kTensor, 1, acc); });
          break;
        case Op::kI2fF2i:
          run<std::int64_t>(
              c, [](const V<std::int64_t>& x) { return convert<std::int64_t>(convert<float>(x)); });
          break;
        case Op::kF2f:
          run<float>(c, [](const V<float>& x) { return convert<float>(convert<double>(x)); });
          break;
        case Op::kShfl:
          run<std::int64_t>(c, [&c](const V<std::int64_t>& x) { return c.shuffle_xor(x, 1); });
          break;
        case Op::kIdiv:
          run<std::int64_t>(c, [](const V<std::int64_t>& x) { return idiv(x, 3); });
          break;
        case Op::kFdiv:
          run<float>(c, [&c](const V<float>& x) { return x / V<float>(c, 1.5f); });
          break;
        case Op::kDdiv:
          run<double>(c, [&c](const V<double>& x) { return x / V<double>(c, 1.5); });
          break;
        case Op::kFfmaIadd3:
          run_mixed(c);
          break;
        case Op::kFfmaBankConflict:
          run<float>(c, [&c](const V<float>& x) {
            V<float> r = fma(x, V<float>(c, 1.0f), V<float>(c, 0.5f));
            c.sources_in_one_register_bank();
            return r;
          });
          break;
        case Op::kCount:
          break;
      }
    };
    return l;
  }

 private:
  // One integer instruction the operators do not spell (a logic operation, a shift).
  template <class F>
  static V<std::int64_t> int_op(const V<std::int64_t>& x, F f) {
    return map(x, InstrClass::kInt, f);
  }
  // `chains` independent chains of `length` steps of `step`, interleaved as an unrolled loop issues them.
  template <class T, class Step>
  void run(Cta& c, const Step& step) {
    std::vector<V<T>> values;
    values.reserve(static_cast<std::size_t>(chains_));
    for (std::int64_t k = 0; k < chains_; ++k)
      values.emplace_back(c, static_cast<T>(k + 1));
    for (std::int64_t i = 0; i < length_; ++i)
      for (V<T>& v : values)
        v = step(v);
  }

  // `chains` pairs of chains, a float one of FFMAs and an int one of IADD3s, interleaved: instructions of two
  // classes that no dependency orders, for the issue width.
  void run_mixed(Cta& c) {
    std::vector<V<float>> f;
    std::vector<V<std::int64_t>> i;
    for (std::int64_t k = 0; k < chains_; ++k) {
      f.emplace_back(c, 1.0f);
      i.emplace_back(c, k);
    }
    for (std::int64_t n = 0; n < length_; ++n) {
      for (std::int64_t k = 0; k < chains_; ++k) {
        f[k] = fma(f[k], V<float>(c, 1.0f), V<float>(c, 0.5f));
        i[k] = i[k] + 3;
      }
    }
  }

  Op op_;
  std::int64_t length_, chains_, threads_, ctas_;
};

}  // namespace

LibraryEntry ubench_ops() {
  return {
      "ubench/ops",
      "microbenchmark: dependent chains of one operation (latency with one warp, throughput at full "
      "occupancy; "
      "docs/microbenchmarks.md)",
      {{"op", 0, 0, static_cast<std::int64_t>(Op::kCount) - 1,
        "0 ffma, 1 fadd, 2 fmul, 3 imad, 4 iadd3, 5 lop3, 6 shift, 7 mufu, 8 dfma, 9 hmma, 10 i2f+f2i, "
        "11 f2f pair, 12 shfl, 13 idiv, 14 fdiv, 15 ddiv, 16 ffma+iadd3 pair, 17 ffma with its sources in "
        "one register bank"},
       {"length", 64, 1, 1 << 16, "steps per chain"},
       {"chains", 1, 1, 64, "independent chains per thread"},
       ubench::threads_arg(32),
       ubench::ctas_arg()},
      [](const Args& a) { return std::make_unique<Ops>(a); }};
}

}  // namespace numagpu::kernels
