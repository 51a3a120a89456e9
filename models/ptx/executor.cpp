// Kernel::execute_cta: every thread of one CTA run functionally, one warp at a time, each warp until it
// reaches a barrier or exits, with a SIMT stack per warp that reconverges at immediate post-dominators.
// Each warp instruction is reported to the WarpSink (its class, its memory accesses) with the ready cycle of
// its operands. Registers are laid out [warp][register][lane] as 64-bit words; immediates are registers of a
// shared read-only table, so every operand read is one pointer.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ptx/kernel_impl.hpp"
#include "ptx/numeric.hpp"

namespace numagpu::ptx {

namespace {

// Set bits of a lane mask (a portable popcount: the build targets no particular x86 level).
inline unsigned lanes_in(std::uint32_t m) {
  if (m == ~0u) return kWarpLanes;  // the common case: a full warp
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

// f(lane) for each lane of the mask; a full warp as a plain loop the compiler can vectorize.
template <class F>
inline void each_lane(std::uint32_t mask, F&& f) {
  if (mask == ~0u) {
    for (unsigned l = 0; l < kWarpLanes; ++l)
      f(l);
    return;
  }
  for (std::uint32_t m = mask; m; m &= m - 1)
    f(static_cast<unsigned>(__builtin_ctz(m)));
}

template <class T>
inline T as(std::uint64_t v) {
  if constexpr (std::is_same_v<T, float>)
    return bits_to_float(static_cast<std::uint32_t>(v));
  else if constexpr (std::is_same_v<T, double>)
    return bits_to_double(v);
  else
    return static_cast<T>(v);
}
template <class T>
inline std::uint64_t bits(T v) {
  if constexpr (std::is_same_v<T, float>)
    return float_to_bits(v);
  else if constexpr (std::is_same_v<T, double>)
    return double_to_bits(v);
  else if constexpr (std::is_same_v<T, bool>)
    return v ? 1 : 0;
  else
    return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

// Calls f(T{}) with T the C++ type of an integer PTX type.
template <class F>
inline bool with_int(Type t, F&& f) {
  switch (t) {
    case Type::kB8:
    case Type::kU8:
      f(std::uint8_t{});
      return true;
    case Type::kB16:
    case Type::kU16:
      f(std::uint16_t{});
      return true;
    case Type::kB32:
    case Type::kU32:
      f(std::uint32_t{});
      return true;
    case Type::kB64:
    case Type::kU64:
      f(std::uint64_t{});
      return true;
    case Type::kS8:
      f(std::int8_t{});
      return true;
    case Type::kS16:
      f(std::int16_t{});
      return true;
    case Type::kS32:
      f(std::int32_t{});
      return true;
    case Type::kS64:
      f(std::int64_t{});
      return true;
    default:
      return false;
  }
}
// Calls f(T{}) with T float or double for f32 and f64.
template <class F>
inline bool with_float(Type t, F&& f) {
  if (t == Type::kF32) {
    f(float{});
    return true;
  }
  if (t == Type::kF64) {
    f(double{});
    return true;
  }
  return false;
}
// Calls f(T{}) for a float or an integer PTX type.
template <class F>
inline bool with_number(Type t, F&& f) {
  return with_float(t, f) || with_int(t, f);
}

int fe_mode(Round r) {
  switch (r) {
    case Round::kRz:
    case Round::kRzi:
      return FE_TOWARDZERO;
    case Round::kRm:
    case Round::kRmi:
      return FE_DOWNWARD;
    case Round::kRp:
    case Round::kRpi:
      return FE_UPWARD;
    default:
      return FE_TONEAREST;
  }
}
// Evaluates f() in the host's floating-point rounding mode for `r` (this file is built with -frounding-math).
template <class F>
inline auto rounded(Round r, F&& f) {
  if (r == Round::kDefault || r == Round::kRn || r == Round::kRni) return f();
  const int old = std::fegetround();
  std::fesetround(fe_mode(r));
  auto v = f();
  std::fesetround(old);
  return v;
}

template <class T>
inline T flush(T v, bool ftz) {
  if constexpr (std::is_same_v<T, float>) {
    if (ftz && std::fpclassify(v) == FP_SUBNORMAL) return std::copysign(0.0f, v);
  }
  return v;
}
template <class T>
inline T saturate(T v, bool sat) {
  if (!sat) return v;
  if (std::isnan(v)) return T(0);
  return std::min(T(1), std::max(T(0), v));
}

// min/max as PTX defines them: a NaN operand yields the other one; -0 is below +0.
template <class T>
inline T fp_min(T a, T b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class T>
inline T fp_max(T a, T b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

template <class T>
inline bool compare(Cmp c, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool unordered = std::isnan(a) || std::isnan(b);
    switch (c) {
      case Cmp::kEq:
        return !unordered && a == b;
      case Cmp::kNe:
        return !unordered && a != b;
      case Cmp::kLt:
        return !unordered && a < b;
      case Cmp::kLe:
        return !unordered && a <= b;
      case Cmp::kGt:
        return !unordered && a > b;
      case Cmp::kGe:
        return !unordered && a >= b;
      case Cmp::kEqu:
        return unordered || a == b;
      case Cmp::kNeu:
        return unordered || a != b;
      case Cmp::kLtu:
        return unordered || a < b;
      case Cmp::kLeu:
        return unordered || a <= b;
      case Cmp::kGtu:
        return unordered || a > b;
      case Cmp::kGeu:
        return unordered || a >= b;
      case Cmp::kNum:
        return !unordered;
      case Cmp::kNan:
        return unordered;
      default:
        return false;
    }
  } else {
    using U = std::make_unsigned_t<T>;
    switch (c) {
      case Cmp::kEq:
        return a == b;
      case Cmp::kNe:
        return a != b;
      case Cmp::kLt:
        return a < b;
      case Cmp::kLe:
        return a <= b;
      case Cmp::kGt:
        return a > b;
      case Cmp::kGe:
        return a >= b;
      case Cmp::kLo:
        return U(a) < U(b);
      case Cmp::kLs:
        return U(a) <= U(b);
      case Cmp::kHi:
        return U(a) > U(b);
      case Cmp::kHs:
        return U(a) >= U(b);
      default:
        return false;
    }
  }
}

// A float to an integer type as cvt does: rounded per `r` (rni by default), saturated to the type's range,
// NaN to 0.
template <class I, class F>
inline I float_to_int(F v, Round r) {
  if (std::isnan(v)) return 0;
  F x;
  switch (r) {
    case Round::kRzi:
    case Round::kRz:
      x = std::trunc(v);
      break;
    case Round::kRmi:
    case Round::kRm:
      x = std::floor(v);
      break;
    case Round::kRpi:
    case Round::kRp:
      x = std::ceil(v);
      break;
    default:
      x = std::nearbyint(v);
      break;  // the host's default mode: to nearest even
  }
  const long double lo = static_cast<long double>(std::numeric_limits<I>::min());
  const long double hi = static_cast<long double>(std::numeric_limits<I>::max());
  if (static_cast<long double>(x) <= lo) return std::numeric_limits<I>::min();
  if (static_cast<long double>(x) >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(x);
}

template <class T>
inline T round_integral(T v, Round r) {
  switch (r) {
    case Round::kRzi:
      return std::trunc(v);
    case Round::kRmi:
      return std::floor(v);
    case Round::kRpi:
      return std::ceil(v);
    case Round::kRni:
      return std::nearbyint(v);
    default:
      return v;
  }
}

int half_mode(Round r) {
  switch (r) {
    case Round::kRz:
      return 1;
    case Round::kRm:
      return 2;
    case Round::kRp:
      return 3;
    default:
      return 0;
  }
}

// ---- fast paths ----
// The instructions compilers emit most, with nothing to decide per lane: one function per operation and
// type, picked once per instruction when the kernel is decoded (fast_compute_of), each computing exactly what
// the general path (CtaRun::compute) computes for it, without its dispatch on the operation, the type and
// the modifiers at every execution.
using U64 = std::uint64_t;

template <class F>
void fast_unary(U64* d, U64*, const U64* a, const U64*, const U64*, std::uint32_t active) {
  each_lane(active, [&](unsigned l) { d[l] = F::f(a[l]); });
}
template <class F>
void fast_binary(U64* d, U64*, const U64* a, const U64* b, const U64*, std::uint32_t active) {
  each_lane(active, [&](unsigned l) { d[l] = F::f(a[l], b[l]); });
}
template <class F>
void fast_ternary(U64* d, U64*, const U64* a, const U64* b, const U64* c, std::uint32_t active) {
  each_lane(active, [&](unsigned l) { d[l] = F::f(a[l], b[l], c[l]); });
}

struct FastMov {
  static U64 f(U64 x) { return x; }
};
template <class T>
struct FastIntAdd {
  using U = std::make_unsigned_t<T>;
  static U64 f(U64 x, U64 y) { return bits<T>(T(U(as<T>(x)) + U(as<T>(y)))); }
};
template <class T>
struct FastIntSub {
  using U = std::make_unsigned_t<T>;
  static U64 f(U64 x, U64 y) { return bits<T>(T(U(as<T>(x)) - U(as<T>(y)))); }
};
template <class T>
struct FastIntMin {
  static U64 f(U64 x, U64 y) { return bits<T>(std::min(as<T>(x), as<T>(y))); }
};
template <class T>
struct FastIntMax {
  static U64 f(U64 x, U64 y) { return bits<T>(std::max(as<T>(x), as<T>(y))); }
};
template <class T>
struct FastIntMulLo {  // 32- and 64-bit types: the product's low half is the unsigned product's
  using U = std::make_unsigned_t<T>;
  static U64 f(U64 x, U64 y) { return bits<T>(T(U(as<T>(x)) * U(as<T>(y)))); }
};
template <class T>
struct FastIntMadLo {
  using U = std::make_unsigned_t<T>;
  static U64 f(U64 x, U64 y, U64 z) { return bits<T>(T(U(U(as<T>(x)) * U(as<T>(y))) + U(as<T>(z)))); }
};
template <class T>
struct FastMulWide {  // 32-bit sources, a 64-bit product
  using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
  static U64 f(U64 x, U64 y) { return bits<W>(W(as<T>(x)) * W(as<T>(y))); }
};
template <class T>
struct FastMadWide {
  using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
  using UW = std::make_unsigned_t<W>;
  static U64 f(U64 x, U64 y, U64 z) { return bits<W>(W(UW(W(as<T>(x)) * W(as<T>(y))) + UW(as<W>(z)))); }
};
template <class T>
struct FastFAdd {
  static U64 f(U64 x, U64 y) { return bits<T>(as<T>(x) + as<T>(y)); }
};
template <class T>
struct FastFSub {
  static U64 f(U64 x, U64 y) { return bits<T>(as<T>(x) - as<T>(y)); }
};
template <class T>
struct FastFMul {
  static U64 f(U64 x, U64 y) { return bits<T>(as<T>(x) * as<T>(y)); }
};
template <class T>
struct FastFma {
  static U64 f(U64 x, U64 y, U64 z) { return bits<T>(T(std::fma(as<T>(x), as<T>(y), as<T>(z)))); }
};
template <class T>
struct FastRcp {
  static U64 f(U64 x) { return bits<T>(T(T(1) / as<T>(x))); }
};
template <class T>
struct FastIntNeg {
  using U = std::make_unsigned_t<T>;
  static U64 f(U64 x) { return bits<T>(T(U(0) - U(as<T>(x)))); }
};
template <class T>
struct FastFNeg {
  static U64 f(U64 x) { return bits<T>(T(-as<T>(x))); }
};
template <bool kNeg>
struct FastSelp {
  static U64 f(U64 x, U64 y, U64 c) { return ((c != 0) != kNeg) ? x : y; }
};
// and/or/xor/not of b32 and b64 (kWidth bits), and of predicates without negated operands (kWidth 1).
template <Op kOp, unsigned kWidth>
struct FastLogic {
  static constexpr U64 kMask = kWidth == 64 ? ~0ull : (1ull << kWidth) - 1;
  static U64 norm(U64 x) { return kWidth == 1 ? U64(x != 0) : x; }
  static U64 f(U64 x) { return ~norm(x) & kMask; }  // not
  static U64 f(U64 x, U64 y) {
    x = norm(x);
    y = norm(y);
    return (kOp == Op::kAnd ? x & y : kOp == Op::kOr ? x | y : x ^ y) & kMask;
  }
};
template <class T, bool kLeft>
struct FastShift {
  using U = std::make_unsigned_t<T>;
  static constexpr unsigned kWidth = 8 * sizeof(T);
  static U64 f(U64 a, U64 b) {
    const std::uint32_t n = static_cast<std::uint32_t>(b);
    const T x = as<T>(a);
    T r;
    if (kLeft)
      r = n >= kWidth ? T(0) : T(U(x) << n);
    else if (n >= kWidth)
      r = (std::is_signed_v<T> && x < 0) ? T(-1) : T(0);
    else
      r = T(x >> n);
    return bits<T>(r);
  }
};
template <class S, class D>
struct FastCvtInt {  // integer to integer, not saturated
  static U64 f(U64 x) { return bits<D>(static_cast<D>(as<S>(x))); }
};
template <class S, class D>
struct FastCvtFloat {  // to or from a float type, to nearest, no flush or saturation
  static U64 f(U64 x) { return bits<D>(static_cast<D>(as<S>(x))); }
};
template <std::uint64_t kBase, bool kTo>
struct FastCvta {
  static U64 f(U64 x) { return kTo ? x - kBase : x + kBase; }
};

// setp with no combining predicate: p to the first destination, !p to the second if any.
template <class T, Cmp kCmp>
void fast_setp(U64* d, U64* q, const U64* a, const U64* b, const U64*, std::uint32_t active) {
  if (q)
    each_lane(active, [&](unsigned l) {
      const bool p = compare(kCmp, as<T>(a[l]), as<T>(b[l]));
      d[l] = p;
      q[l] = !p;
    });
  else
    each_lane(active, [&](unsigned l) { d[l] = compare(kCmp, as<T>(a[l]), as<T>(b[l])); });
}
template <class T>
FastCompute fast_setp_of(Cmp c) {
  switch (c) {
    case Cmp::kEq:
      return &fast_setp<T, Cmp::kEq>;
    case Cmp::kNe:
      return &fast_setp<T, Cmp::kNe>;
    case Cmp::kLt:
      return &fast_setp<T, Cmp::kLt>;
    case Cmp::kLe:
      return &fast_setp<T, Cmp::kLe>;
    case Cmp::kGt:
      return &fast_setp<T, Cmp::kGt>;
    case Cmp::kGe:
      return &fast_setp<T, Cmp::kGe>;
    default:
      break;
  }
  if constexpr (std::is_floating_point_v<T>) {
    switch (c) {
      case Cmp::kEqu:
        return &fast_setp<T, Cmp::kEqu>;
      case Cmp::kNeu:
        return &fast_setp<T, Cmp::kNeu>;
      case Cmp::kLtu:
        return &fast_setp<T, Cmp::kLtu>;
      case Cmp::kLeu:
        return &fast_setp<T, Cmp::kLeu>;
      case Cmp::kGtu:
        return &fast_setp<T, Cmp::kGtu>;
      case Cmp::kGeu:
        return &fast_setp<T, Cmp::kGeu>;
      case Cmp::kNum:
        return &fast_setp<T, Cmp::kNum>;
      case Cmp::kNan:
        return &fast_setp<T, Cmp::kNan>;
      default:
        return nullptr;
    }
  } else {
    switch (c) {
      case Cmp::kLo:
        return &fast_setp<T, Cmp::kLo>;
      case Cmp::kLs:
        return &fast_setp<T, Cmp::kLs>;
      case Cmp::kHi:
        return &fast_setp<T, Cmp::kHi>;
      case Cmp::kHs:
        return &fast_setp<T, Cmp::kHs>;
      default:
        return nullptr;
    }
  }
}

// Calls f(T{}) for the 32- and 64-bit integer types (where unsigned arithmetic does not promote to int).
template <class F>
inline bool with_wide_int(Type t, F&& f) {
  switch (t) {
    case Type::kB32:
    case Type::kU32:
      f(std::uint32_t{});
      return true;
    case Type::kS32:
      f(std::int32_t{});
      return true;
    case Type::kB64:
    case Type::kU64:
      f(std::uint64_t{});
      return true;
    case Type::kS64:
      f(std::int64_t{});
      return true;
    default:
      return false;
  }
}

struct Entry {
  std::uint32_t pc, rpc, mask;
};

struct WarpState {
  std::vector<Entry> stack;
  std::uint32_t valid = 0, exited = 0;
  bool waiting = false;
  std::uint32_t barrier_pc = 0;
  std::uint64_t clock = 0;
};

// A CTA's registers and memories, kept by each host thread from one CTA to the next so that running one
// allocates nothing once they have grown.
struct CtaScratch {
  std::vector<std::uint64_t> regs;
  std::vector<std::uint32_t> ready;
  std::vector<std::uint8_t> shared, local, frame;
  std::vector<WarpState> states;
};

class CtaRun {
 public:
  CtaRun(const Kernel::Impl& k, const LaunchSpec& launch, Dim3 block, GlobalMemory& memory, WarpSink& sink,
         const std::vector<std::uint64_t>& variable_addresses, CtaScratch& scratch)
      : k_(k),
        launch_(launch),
        block_(block),
        memory_(memory),
        sink_(sink),
        vars_(k.vars),
        regs_(scratch.regs),
        ready_(scratch.ready),
        shared_(scratch.shared),
        local_(scratch.local),
        frame_(scratch.frame),
        states_(scratch.states) {
    batch_ = !sink.models_latencies();
    threads_ = static_cast<std::uint32_t>(launch.block.count());
    warps_ = (threads_ + kWarpLanes - 1) / kWarpLanes;
    // Only the registers a thread may read before writing start at zero (Kernel::Impl::zeroed_registers):
    // the rest keep what the previous CTA left, never read.
    const std::size_t words = std::size_t(warps_) * vars_ * kWarpLanes;
    if (regs_.size() < words) regs_.resize(words);
    if (!batch_) ready_.assign(std::size_t(warps_) * vars_, 0);
    shared_bytes_ = k.static_shared;
    if (k.dynamic_shared_align)
      shared_bytes_ =
          (k.static_shared + k.dynamic_shared_align - 1) / k.dynamic_shared_align * k.dynamic_shared_align +
          launch.dynamic_shared_bytes;
    shared_.assign(shared_bytes_, 0);
    local_.assign(std::size_t(threads_) * k.local_bytes, 0);
    frame_.assign(std::size_t(threads_) * k.frame_bytes, 0);
    states_.resize(warps_);
    for (WarpState& st : states_) {
      st.stack.clear();
      st.exited = 0;
      st.waiting = false;
      st.barrier_pc = 0;
      st.clock = 0;
    }
    const std::uint64_t cta_linear =
        block.x + std::uint64_t(launch.grid.x) * (block.y + std::uint64_t(launch.grid.y) * block.z);
    first_thread_ = cta_linear * launch.block.count();
    for (unsigned w = 0; w < warps_; ++w) {
      WarpState& s = states_[w];
      const std::uint32_t in_warp = std::min<std::uint32_t>(kWarpLanes, threads_ - w * kWarpLanes);
      s.valid = in_warp == 32 ? ~0u : (1u << in_warp) - 1;
      s.stack.reserve(16);
      s.stack.push_back({0, static_cast<std::uint32_t>(k.code.size()), s.valid});
      for (std::uint32_t reg : k.zeroed_registers)
        std::fill_n(reg_ptr(w, reg), kWarpLanes, 0);
      if (!k.special_registers.empty()) fill_special_registers(w);
      for (const auto& [reg, var] : k.variable_registers) {
        if (var >= variable_addresses.size())
          throw ExecutionError(
              ExecutionError::Kind::kUnsupported,
              "kernel '" + k.name + "': no address for variable '" + k.module->variables[var].name + "'");
        std::fill_n(reg_ptr(w, reg), kWarpLanes, variable_addresses[var]);
      }
    }
  }

  CtaCost run() {
    for (;;) {
      bool any_live = false;
      for (unsigned w = 0; w < warps_; ++w) {
        WarpState& s = states_[w];
        if (s.stack.empty() || s.waiting) continue;
        run_warp(w, s);
      }
      // Every warp is now done or waiting at a barrier.
      std::uint32_t barrier_pc = ~0u;
      for (unsigned w = 0; w < warps_; ++w) {
        WarpState& s = states_[w];
        if (s.stack.empty()) continue;
        any_live = true;
        if (barrier_pc == ~0u) barrier_pc = s.barrier_pc;
        if (s.barrier_pc != barrier_pc) {
          const Instr& a = k_.code[barrier_pc];
          const Instr& b = k_.code[s.barrier_pc];
          throw ExecutionError(ExecutionError::Kind::kBarrierDiverged,
                               where(b) + ": warps wait at different barriers (" + location(a) + " and " +
                                   location(b) + ") " +
                                   who(w, static_cast<unsigned>(__builtin_ctz(s.valid & ~s.exited))));
        }
      }
      if (!any_live) break;
      for (unsigned w = 0; w < warps_; ++w)
        states_[w].waiting = false;
    }
    return cost_;
  }

 private:
  // ---- registers ----
  std::uint64_t* reg_ptr(unsigned w, std::uint32_t r) {
    return &regs_[(std::size_t(w) * vars_ + r) * kWarpLanes];
  }
  const std::uint64_t* src_ptr(unsigned w, const Operand& o) {
    return o.reg < vars_ ? reg_ptr(w, o.reg) : &k_.constants[std::size_t(o.reg - vars_) * kWarpLanes];
  }

  // The special registers of warp w, each lane's value (special_value), the thread's index counted
  // lane by lane rather than divided out in each.
  void fill_special_registers(unsigned w) {
    const Dim3& b = launch_.block;
    std::uint64_t tid[3][kWarpLanes];
    const std::uint32_t t0 = w * kWarpLanes;
    std::uint32_t x = t0 % b.x, y = t0 / b.x % b.y, z = t0 / (b.x * b.y);
    for (unsigned l = 0; l < kWarpLanes; ++l) {
      tid[0][l] = x;
      tid[1][l] = y;
      tid[2][l] = z;
      if (++x == b.x) {
        x = 0;
        if (++y == b.y) {
          y = 0;
          ++z;
        }
      }
    }
    for (const auto& [reg, sp] : k_.special_registers) {
      std::uint64_t* r = reg_ptr(w, reg);
      if (sp == Special::kTidX || sp == Special::kTidY || sp == Special::kTidZ) {
        std::copy_n(tid[sp == Special::kTidX ? 0 : sp == Special::kTidY ? 1 : 2], kWarpLanes, r);
        continue;
      }
      for (unsigned l = 0; l < kWarpLanes; ++l)
        r[l] = special_value(sp, w, l);
    }
  }

  std::uint64_t special_value(Special sp, unsigned w, unsigned lane) const {
    const std::uint32_t t = w * kWarpLanes + lane;
    const Dim3& b = launch_.block;
    switch (sp) {
      case Special::kTidX:
        return t % b.x;
      case Special::kTidY:
        return t / b.x % b.y;
      case Special::kTidZ:
        return t / (b.x * b.y);
      case Special::kNtidX:
        return b.x;
      case Special::kNtidY:
        return b.y;
      case Special::kNtidZ:
        return b.z;
      case Special::kCtaidX:
        return block_.x;
      case Special::kCtaidY:
        return block_.y;
      case Special::kCtaidZ:
        return block_.z;
      case Special::kNctaidX:
        return launch_.grid.x;
      case Special::kNctaidY:
        return launch_.grid.y;
      case Special::kNctaidZ:
        return launch_.grid.z;
      case Special::kLaneid:
        return lane;
      case Special::kWarpid:
        return w;
      case Special::kNwarpid:
        return warps_;
      case Special::kLanemaskEq:
        return 1u << lane;
      case Special::kLanemaskLe:
        return lane == 31 ? ~0u : (2u << lane) - 1;
      case Special::kLanemaskLt:
        return (1u << lane) - 1;
      case Special::kLanemaskGe:
        return ~((1u << lane) - 1) & 0xffffffffu;
      case Special::kLanemaskGt:
        return lane == 31 ? 0u : ~((2u << lane) - 1) & 0xffffffffu;
      default:
        return 0;  // %smid, %nsmid, %gridid: one SM's view is not modelled here
    }
  }

  // ---- messages ----
  std::string location(const Instr& in) const {
    return k_.module->file + ":" + std::to_string(in.line) + ":" + std::to_string(in.column);
  }
  std::string where(const Instr& in) const { return location(in); }
  std::string who(unsigned w, unsigned lane) const {
    const std::uint32_t t = w * kWarpLanes + lane;
    const Dim3& b = launch_.block;
    return "in kernel '" + k_.name + "', CTA (" + std::to_string(block_.x) + "," + std::to_string(block_.y) +
           "," + std::to_string(block_.z) + "), thread (" + std::to_string(t % b.x) + "," +
           std::to_string(t / b.x % b.y) + "," + std::to_string(t / (b.x * b.y)) + ")";
  }
  [[noreturn]] void fail(ExecutionError::Kind kind, const Instr& in, unsigned w, unsigned lane,
                         const std::string& what) const {
    throw ExecutionError(kind, location(in) + ": " + what + " " + who(w, lane));
  }
  static std::string hex(std::uint64_t a) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
    return buf;
  }
  static const char* space_name(Space s) {
    switch (s) {
      case Space::kGlobal:
        return "global";
      case Space::kShared:
        return "shared";
      case Space::kLocal:
        return "local";
      case Space::kConst:
        return "const";
      case Space::kParam:
      case Space::kFrame:
        return "param";
      default:
        return "generic";
    }
  }
  [[noreturn]] void bad_access(ExecutionError::Kind kind, const Instr& in, unsigned w, unsigned lane,
                               Space space, std::uint64_t address, unsigned bytes) const {
    const char* what = in.op == Op::kLd ? "load" : in.op == Op::kSt ? "store" : "atomic";
    fail(kind, in, w, lane,
         std::string(kind == ExecutionError::Kind::kMisaligned ? "misaligned " : "out-of-bounds ") +
             space_name(space) + " " + what + " of " + std::to_string(bytes) + " bytes at address " +
             hex(address));
  }

  // ---- the warp loop ----
  void run_warp(unsigned w, WarpState& s);
  bool exec(unsigned w, WarpState& s, Entry& e, const Instr& in, const InstrMeta& mt, std::uint32_t active);
  void compute(const Instr& in, unsigned w, std::uint32_t active);
  void memory(const Instr& in, const InstrMeta& mt, unsigned w, std::uint32_t active, std::uint32_t ready);
  void access(const Instr& in, unsigned w, Space space, std::uint32_t lanes, const std::uint64_t* addr,
              std::uint32_t ready);
  void convert(const Instr& in, std::uint64_t* d, const std::uint64_t* a, std::uint32_t active, unsigned w);
  void exit_lanes(WarpState& s, std::uint32_t lanes) {
    s.exited |= lanes;
    for (Entry& x : s.stack)
      x.mask &= ~lanes;
  }
  std::uint32_t operands_ready(unsigned w, const InstrMeta& mt) const {
    if (batch_) return 0;  // a sink without latencies: every ready cycle is 0
    std::uint32_t r = 0;
    const std::uint32_t* rd = &ready_[std::size_t(w) * vars_];
    for (unsigned i = 0; i < mt.nreads; ++i)
      r = std::max(r, rd[mt.reads[i]]);
    return r;
  }
  // One compute instruction to the sink (its result's ready cycle), or into the pending run.
  std::uint32_t report_compute(unsigned w, const InstrMeta& mt, InstrClass cls, std::uint32_t lanes,
                               unsigned latency = ~0u) {
    if (batch_ && latency == ~0u) {
      if (pending_n_ != 0 && pending_warp_ == w && pending_cls_ == cls && pending_lanes_ == lanes) {
        ++pending_n_;
        return 0;
      }
      report_pending();
      pending_warp_ = w;
      pending_cls_ = cls;
      pending_lanes_ = lanes;
      pending_n_ = 1;
      return 0;  // what the sink returns without latencies
    }
    report_pending();
    return sink_.compute(w, cls, lanes, operands_ready(w, mt), latency);
  }
  void report_pending() {
    if (pending_n_ == 0) return;
    const unsigned n = pending_n_;
    pending_n_ = 0;
    sink_.compute_run(pending_warp_, pending_cls_, pending_lanes_, n);
  }
  void set_ready(unsigned w, const Instr& in, std::uint32_t cycle) {
    if (batch_) return;  // nothing reads them (operands_ready)
    std::uint32_t* rd = &ready_[std::size_t(w) * vars_];
    for (unsigned d = 0; d < in.ndst; ++d)
      if (in.dst[d] != kNoReg) rd[in.dst[d]] = cycle;
  }

  const Kernel::Impl& k_;
  const LaunchSpec& launch_;
  Dim3 block_;
  GlobalMemory& memory_;
  WarpSink& sink_;
  std::uint32_t vars_;
  std::uint32_t threads_ = 0, warps_ = 0;
  std::uint64_t first_thread_ = 0;
  std::vector<std::uint64_t>& regs_;
  std::vector<std::uint32_t>& ready_;
  std::vector<std::uint8_t>&shared_, &local_, &frame_;
  std::uint64_t shared_bytes_ = 0;
  std::vector<WarpState>& states_;
  CtaCost cost_;
  std::uint64_t lane_addr_[kWarpLanes];
  // Without latencies in the sink: the run of compute instructions (one warp, class and lanes) not yet
  // reported, reported as one compute_run before anything else reaches the sink.
  bool batch_ = false;
  unsigned pending_warp_ = 0, pending_n_ = 0;
  InstrClass pending_cls_ = InstrClass::kInt;
  std::uint32_t pending_lanes_ = 0;
};

void CtaRun::run_warp(unsigned w, WarpState& s) {
  const Instr* code = k_.code.data();
  const InstrMeta* meta = k_.meta.data();
  const std::uint32_t end = static_cast<std::uint32_t>(k_.code.size());
  while (!s.stack.empty()) {
    Entry& e = s.stack.back();
    if (e.mask == 0 || e.pc == e.rpc) {
      s.stack.pop_back();
      continue;
    }
    if (e.pc >= end) {  // ran to the end: those lanes exit
      exit_lanes(s, e.mask);
      continue;
    }
    const Instr& in = code[e.pc];
    std::uint32_t active = e.mask;
    if (in.guard != kNoReg) {
      const std::uint64_t* g = reg_ptr(w, in.guard);
      const bool neg = in.flags & kGuardNeg;
      std::uint32_t on = 0;
      each_lane(active, [&](unsigned l) { on |= std::uint32_t((g[l] != 0) != neg) << l; });
      active = on;
    }
    if (!exec(w, s, e, in, meta[e.pc], active)) return;  // at a barrier (reported: nothing pending)
  }
  report_pending();  // the warp has exited
}

// Executes one instruction for `active` lanes of the top entry `e`; false when the warp stops at a barrier.
bool CtaRun::exec(unsigned w, WarpState& s, Entry& e, const Instr& in, const InstrMeta& mt,
                  std::uint32_t active) {
  if (in.op == Op::kBar && active != 0 && active == e.mask && active != (s.valid & ~s.exited) &&
      s.stack.size() >= 2) {
    // Part of the warp is at the barrier. The lanes missing may be on the other path of a branch whose
    // paths meet only at the kernel's end (an early return: `if (i >= n) return; ... __syncthreads()`),
    // pushed below this entry with the same reconvergence point: that path runs first (its lanes exit or
    // come to a barrier). Two such paths at the same barrier are one entry again.
    Entry& other = s.stack[s.stack.size() - 2];
    if (other.rpc == e.rpc && (other.mask & e.mask) == 0 && other.mask != 0) {
      if (other.pc == e.pc) {
        other.mask |= e.mask;
        s.stack.pop_back();
        return true;
      }
      if (other.pc >= k_.code.size() || k_.code[other.pc].op != Op::kBar) {
        std::swap(other, e);
        return true;
      }
    }
  }
  const bool is_branch = in.op == Op::kBra || in.op == Op::kRet;
  if (active == 0 && !is_branch) {
    // Predicated off in every lane: does nothing, and is not reported (WarpSink instructions have at
    // least one lane; docs/cuda.md on predication).
    ++e.pc;
    return true;
  }
  ++cost_.warp_instructions;
  cost_.thread_instructions += lanes_in(is_branch ? e.mask : active);
  ++s.clock;
  const InstrCost& c = mt.cost;
  switch (in.op) {
    case Op::kBra:
    case Op::kRet: {  // kRet: a flattened callee's return, a jump past its body
      // A branch issues for the whole warp, taken by some lanes or none.
      report_compute(w, mt, InstrClass::kBranch, e.mask);
      const std::uint32_t not_taken = e.mask & ~active;
      if (active == 0) {
        ++e.pc;
      } else if (not_taken == 0) {
        e.pc = in.target;
      } else {
        // Diverged: this entry waits at the reconvergence point; the fall-through and then the taken
        // path run first (the taken path on top).
        const std::uint32_t rpc = mt.reconverge;
        const std::uint32_t next = e.pc + 1;
        e.pc = rpc;
        s.stack.push_back({next, rpc, not_taken});
        s.stack.push_back({in.target, rpc, active});
      }
      return true;
    }
    case Op::kExit:
      report_compute(w, mt, InstrClass::kBranch, active);
      ++e.pc;
      exit_lanes(s, active);
      return true;
    case Op::kTrap: {
      fail(ExecutionError::Kind::kTrap, in, w, static_cast<unsigned>(__builtin_ctz(active)), "trap");
    }
    case Op::kCall:
      report_compute(w, mt, InstrClass::kBranch, active);
      ++e.pc;
      return true;
    case Op::kBar: {
      const std::uint32_t live = s.valid & ~s.exited;
      if (active != live) {
        const std::uint32_t missing = live & ~active;
        fail(ExecutionError::Kind::kBarrierDiverged, in, w, static_cast<unsigned>(__builtin_ctz(missing)),
             "barrier not reached by every thread of the warp (diverged)");
      }
      report_pending();
      sink_.barrier(w, active);
      ++e.pc;
      s.waiting = true;
      s.barrier_pc = static_cast<std::uint32_t>(&in - k_.code.data());
      return false;
    }
    case Op::kLd:
    case Op::kSt:
    case Op::kAtom:
    case Op::kRed:
      memory(in, mt, w, active, operands_ready(w, mt));
      ++e.pc;
      return true;
    case Op::kMovClock: {
      std::uint64_t* d = reg_ptr(w, in.dst[0]);
      each_lane(active, [&](unsigned l) {
        d[l] = in.type == Type::kU32 || in.type == Type::kB32 ? s.clock & 0xffffffffu : s.clock;
      });
      set_ready(w, in, report_compute(w, mt, InstrClass::kInt, active));
      ++e.pc;
      return true;
    }
    case Op::kActivemask: {
      std::uint64_t* d = reg_ptr(w, in.dst[0]);
      each_lane(active, [&](unsigned l) { d[l] = e.mask; });
      break;
    }
    case Op::kVote: {
      const std::uint64_t* a = src_ptr(w, in.src[0]);
      const bool neg = in.src[0].negate;
      std::uint32_t ballot = 0;
      each_lane(active, [&](unsigned l) { ballot |= std::uint32_t((a[l] != 0) != neg) << l; });
      std::uint64_t r = 0;
      switch (static_cast<VoteMode>(in.mode)) {
        case VoteMode::kAll:
          r = ballot == active;
          break;
        case VoteMode::kAny:
          r = ballot != 0;
          break;
        case VoteMode::kUni:
          r = ballot == 0 || ballot == active;
          break;
        case VoteMode::kBallot:
          r = ballot;
          break;
      }
      std::uint64_t* d = reg_ptr(w, in.dst[0]);
      each_lane(active, [&](unsigned l) { d[l] = r; });
      break;
    }
    case Op::kShfl: {
      const std::uint64_t* a = src_ptr(w, in.src[0]);
      const std::uint64_t* b = src_ptr(w, in.src[1]);
      const std::uint64_t* cc = src_ptr(w, in.src[2]);
      std::uint64_t value[kWarpLanes];
      std::uint8_t valid[kWarpLanes];
      each_lane(active, [&](unsigned l) {
        const std::uint32_t bval = b[l] & 31, cval = cc[l] & 31, mask = (cc[l] >> 8) & 31;
        const std::uint32_t max_lane = (l & mask) | (cval & ~mask), min_lane = l & mask;
        int j = 0;
        bool p = false;
        switch (static_cast<ShflMode>(in.mode)) {
          case ShflMode::kUp:
            j = int(l) - int(bval);
            p = j >= int(max_lane);
            break;
          case ShflMode::kDown:
            j = int(l) + int(bval);
            p = j <= int(max_lane);
            break;
          case ShflMode::kBfly:
            j = int(l ^ bval);
            p = j <= int(max_lane);
            break;
          case ShflMode::kIdx:
            j = int(min_lane | (bval & ~mask));
            p = j <= int(max_lane);
            break;
        }
        if (!p) j = int(l);
        value[l] =
            a[j] & 0xffffffffu;  // an inactive source lane's register: undefined in PTX, its value here
        valid[l] = p;
      });
      std::uint64_t* d = reg_ptr(w, in.dst[0]);
      each_lane(active, [&](unsigned l) { d[l] = value[l]; });
      if (in.ndst > 1 && in.dst[1] != kNoReg) {
        std::uint64_t* p = reg_ptr(w, in.dst[1]);
        each_lane(active, [&](unsigned l) { p[l] = valid[l]; });
      }
      break;
    }
    default:
      if (mt.fast)
        mt.fast(reg_ptr(w, in.dst[0]), in.ndst > 1 && in.dst[1] != kNoReg ? reg_ptr(w, in.dst[1]) : nullptr,
                in.nsrc > 0 ? src_ptr(w, in.src[0]) : nullptr, in.nsrc > 1 ? src_ptr(w, in.src[1]) : nullptr,
                in.nsrc > 2 ? src_ptr(w, in.src[2]) : nullptr, active);
      else
        compute(in, w, active);
      break;
  }
  if (c.kind == InstrCost::Kind::kCompute) set_ready(w, in, report_compute(w, mt, c.cls, active, c.latency));
  ++e.pc;
  return true;
}

void CtaRun::compute(const Instr& in, unsigned w, std::uint32_t active) {
  std::uint64_t* d = in.ndst ? reg_ptr(w, in.dst[0]) : nullptr;
  if (in.ndst && in.dst[0] == kNoReg) d = nullptr;
  const std::uint64_t* a = in.nsrc > 0 ? src_ptr(w, in.src[0]) : nullptr;
  const std::uint64_t* b = in.nsrc > 1 ? src_ptr(w, in.src[1]) : nullptr;
  const std::uint64_t* c = in.nsrc > 2 ? src_ptr(w, in.src[2]) : nullptr;
  const std::uint64_t* e = in.nsrc > 3 ? src_ptr(w, in.src[3]) : nullptr;
  const bool ftz = in.flags & kFtz, sat = in.flags & kSat;
  const Round rnd = static_cast<Round>(in.mode);
  const Type t = in.type;
  auto unsupported = [&]() {
    fail(ExecutionError::Kind::kUnsupported, in, w, static_cast<unsigned>(__builtin_ctz(active)),
         "unsupported instruction '" + k_.module->opcodes[in.text] + "'");
  };
  if (!d && in.op != Op::kNop && in.op != Op::kMembar && in.op != Op::kWarpSync && in.op != Op::kSetp &&
      in.op != Op::kUnpack)
    return;  // a sink destination `_`

  // Unary and binary arithmetic over T, with f(x[, y]) per lane.
  auto unary = [&](auto tag, auto f) {
    using T = decltype(tag);
    each_lane(active, [&](unsigned l) { d[l] = bits<T>(f(as<T>(a[l]))); });
  };
  auto binary = [&](auto tag, auto f) {
    using T = decltype(tag);
    each_lane(active, [&](unsigned l) { d[l] = bits<T>(f(as<T>(a[l]), as<T>(b[l]))); });
  };
  auto ternary = [&](auto tag, auto f) {
    using T = decltype(tag);
    each_lane(active, [&](unsigned l) { d[l] = bits<T>(f(as<T>(a[l]), as<T>(b[l]), as<T>(c[l]))); });
  };
  // An f16 or f16x2 operation computed in float (exact for add/sub/mul; fma in double: one rounding).
  auto half_op = [&](auto f) {
    const unsigned halves = t == Type::kF16x2 ? 2 : 1;
    each_lane(active, [&](unsigned l) {
      std::uint64_t r = 0;
      for (unsigned h = 0; h < halves; ++h) {
        const auto x = half_to_float(static_cast<std::uint16_t>(a[l] >> (16 * h)));
        const auto y = b ? half_to_float(static_cast<std::uint16_t>(b[l] >> (16 * h))) : 0.0f;
        const auto z = c ? half_to_float(static_cast<std::uint16_t>(c[l] >> (16 * h))) : 0.0f;
        double v = f(double(x), double(y), double(z));
        if (sat) v = std::isnan(v) ? 0.0 : std::min(1.0, std::max(0.0, v));
        r |= std::uint64_t(float_to_half(static_cast<float>(v), half_mode(rnd))) << (16 * h);
      }
      d[l] = r;
    });
  };
  const bool half = t == Type::kF16 || t == Type::kF16x2;

  if (in.flags & (kCarryIn | kCarryOut)) {
    // A carry chain (add.cc, addc, sub.cc, subc, mad.cc, madc): the sum one bit wider than the type; the
    // carry register CC.CF is the last source (carry in) and the last destination (carry out). Subtraction
    // borrows: subc is a - (b + CC.CF).
    using U128 = unsigned __int128;
    const unsigned width = type_bytes(t) * 8;
    const U128 mask = (U128(1) << width) - 1;
    const std::uint64_t* cf = (in.flags & kCarryIn) ? src_ptr(w, in.src[in.nsrc - 1]) : nullptr;
    std::uint64_t* co = (in.flags & kCarryOut) ? reg_ptr(w, in.dst[in.ndst - 1]) : nullptr;
    const bool hi = static_cast<MulMode>(in.mode) == MulMode::kHi, sgn = is_signed(t);
    each_lane(active, [&](unsigned l) {
      const U128 x = a[l] & mask, y = b[l] & mask, cin = cf ? (cf[l] & 1) : 0;
      U128 r;
      bool carry;
      if (in.op == Op::kSub) {
        r = (x - y - cin) & mask;
        carry = x < y + cin;
      } else {
        U128 term = y;
        if (in.op == Op::kMad) {
          __int128 p;
          if (sgn)
            p = width == 64 ? __int128(std::int64_t(a[l])) * std::int64_t(b[l])
                            : __int128(std::int64_t(std::int32_t(a[l])) * std::int32_t(b[l]));
          else
            p = __int128(x * y);
          term = (hi ? U128(p) >> width : U128(p)) & mask;
          term += c[l] & mask;
        } else {
          term = y;
        }
        r = x * (in.op == Op::kMad ? 0 : 1) + term + cin;
        carry = (r >> width) & 1;
        r &= mask;
      }
      d[l] = static_cast<std::uint64_t>(r);
      if (co) co[l] = carry;
    });
    return;
  }

  switch (in.op) {
    case Op::kNop:
    case Op::kMembar:
    case Op::kWarpSync:
      return;
    case Op::kMov:
      each_lane(active, [&](unsigned l) { d[l] = a[l]; });
      return;
    case Op::kPack: {
      const unsigned part = type_bytes(t) * 8 / in.nsrc;
      const std::uint64_t m = part == 64 ? ~0ull : (1ull << part) - 1;
      const std::uint64_t* s[4] = {a, b, c, e};
      each_lane(active, [&](unsigned l) {
        std::uint64_t r = 0;
        for (unsigned i = 0; i < in.nsrc; ++i)
          r |= (s[i][l] & m) << (part * i);
        d[l] = r;
      });
      return;
    }
    case Op::kUnpack: {
      const unsigned part = type_bytes(t) * 8 / in.ndst;
      const std::uint64_t m = part == 64 ? ~0ull : (1ull << part) - 1;
      for (unsigned i = 0; i < in.ndst; ++i) {
        if (in.dst[i] == kNoReg) continue;
        std::uint64_t* di = reg_ptr(w, in.dst[i]);
        each_lane(active, [&](unsigned l) { di[l] = (a[l] >> (part * i)) & m; });
      }
      return;
    }
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kMin:
    case Op::kMax: {
      const Op op = in.op;
      if (half) {
        if (op == Op::kMin || op == Op::kMax)
          return half_op(
              [&](double x, double y, double) { return op == Op::kMin ? fp_min(x, y) : fp_max(x, y); });
        return half_op([&](double x, double y, double) {
          return op == Op::kAdd ? x + y : op == Op::kSub ? x - y : x * y;
        });
      }
      if (t == Type::kF32 || t == Type::kF64) {
        const bool plain = !ftz && !sat && (rnd == Round::kDefault || rnd == Round::kRn);
        const bool nan_out = in.flags & kNaN;
        auto go = [&](auto tag) {
          using T = decltype(tag);
          if (plain && op != Op::kMin && op != Op::kMax) {  // the common case: IEEE to nearest, as the host
            if (op == Op::kAdd)
              binary(tag, [](T x, T y) { return x + y; });
            else if (op == Op::kSub)
              binary(tag, [](T x, T y) { return x - y; });
            else
              binary(tag, [](T x, T y) { return x * y; });
            return;
          }
          binary(tag, [&](T x, T y) {
            x = flush(x, ftz);
            y = flush(y, ftz);
            T r;
            switch (op) {
              case Op::kAdd:
                r = rounded(rnd, [&] {
                  volatile T p = x;
                  return T(p + y);
                });
                break;
              case Op::kSub:
                r = rounded(rnd, [&] {
                  volatile T p = x;
                  return T(p - y);
                });
                break;
              case Op::kMul:
                r = rounded(rnd, [&] {
                  volatile T p = x;
                  return T(p * y);
                });
                break;
              case Op::kMin:
                r = nan_out && (std::isnan(x) || std::isnan(y)) ? std::numeric_limits<T>::quiet_NaN()
                                                                : fp_min(x, y);
                break;
              default:
                r = nan_out && (std::isnan(x) || std::isnan(y)) ? std::numeric_limits<T>::quiet_NaN()
                                                                : fp_max(x, y);
                break;
            }
            return saturate(flush(r, ftz), sat);
          });
        };
        if (t == Type::kF32)
          go(float{});
        else
          go(double{});
        return;
      }
      if (op == Op::kMul) {
        const auto mode = static_cast<MulMode>(in.mode);
        if (mode == MulMode::kWide) {  // in.type2: the inputs; in.type: the double-width result
          if (!with_int(in.type2, [&](auto tag) {
                using T = decltype(tag);
                using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
                each_lane(active, [&](unsigned l) { d[l] = bits<W>(W(as<T>(a[l])) * W(as<T>(b[l]))); });
              }))
            unsupported();
          return;
        }
        if (!with_int(t, [&](auto tag) {
              using T = decltype(tag);
              if constexpr (sizeof(T) == 8) {
                using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
                binary(tag, [&](T x, T y) {
                  const W p = W(x) * W(y);
                  return mode == MulMode::kHi ? T(p >> 64) : T(p);
                });
              } else {
                using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
                binary(tag, [&](T x, T y) {
                  const W p = W(x) * W(y);
                  return mode == MulMode::kHi ? T(p >> (8 * sizeof(T))) : T(p);
                });
              }
            }))
          unsupported();
        return;
      }
      if (!with_int(t, [&](auto tag) {
            using T = decltype(tag);
            using U = std::make_unsigned_t<T>;
            binary(tag, [&](T x, T y) -> T {
              switch (op) {
                case Op::kAdd:
                  if (sat && std::is_same_v<T, std::int32_t>) {
                    const std::int64_t s = std::int64_t(x) + std::int64_t(y);
                    return T(std::min<std::int64_t>(INT32_MAX, std::max<std::int64_t>(INT32_MIN, s)));
                  }
                  return T(U(x) + U(y));
                case Op::kSub:
                  if (sat && std::is_same_v<T, std::int32_t>) {
                    const std::int64_t s = std::int64_t(x) - std::int64_t(y);
                    return T(std::min<std::int64_t>(INT32_MAX, std::max<std::int64_t>(INT32_MIN, s)));
                  }
                  return T(U(x) - U(y));
                case Op::kMin:
                  return std::min(x, y);
                default:
                  return std::max(x, y);
              }
            });
          }))
        unsupported();
      return;
    }
    case Op::kMad:
    case Op::kFma: {
      if (half) return half_op([](double x, double y, double z) { return x * y + z; });
      if ((t == Type::kF32 || t == Type::kF64) && !ftz && !sat &&
          (rnd == Round::kDefault || rnd == Round::kRn)) {
        if (t == Type::kF32)
          ternary(float{}, [](float x, float y, float z) { return std::fma(x, y, z); });
        else
          ternary(double{}, [](double x, double y, double z) { return std::fma(x, y, z); });
        return;
      }
      if (t == Type::kF32 || t == Type::kF64) {
        auto go = [&](auto tag) {
          using T = decltype(tag);
          ternary(tag, [&](T x, T y, T z) {
            x = flush(x, ftz);
            y = flush(y, ftz);
            z = flush(z, ftz);
            const T r = rounded(rnd, [&] {
              volatile T p = x;
              return T(std::fma(T(p), y, z));
            });
            return saturate(flush(r, ftz), sat);
          });
        };
        if (t == Type::kF32)
          go(float{});
        else
          go(double{});
        return;
      }
      const auto mode = static_cast<MulMode>(in.mode);
      if (mode == MulMode::kWide) {
        if (!with_int(in.type2, [&](auto tag) {
              using T = decltype(tag);
              using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
              using UW = std::make_unsigned_t<W>;
              each_lane(active, [&](unsigned l) {
                d[l] = bits<W>(W(UW(W(as<T>(a[l])) * W(as<T>(b[l]))) + UW(as<W>(c[l]))));
              });
            }))
          unsupported();
        return;
      }
      if (!with_int(t, [&](auto tag) {
            using T = decltype(tag);
            using U = std::make_unsigned_t<T>;
            using W =
                std::conditional_t<sizeof(T) == 8,
                                   std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>,
                                   std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;
            ternary(tag, [&](T x, T y, T z) -> T {
              const W p = W(x) * W(y);
              if (mode == MulMode::kHi) {
                const T hi = T(p >> (8 * sizeof(T)));
                if (sat && std::is_same_v<T, std::int32_t>) {
                  const std::int64_t s = std::int64_t(hi) + std::int64_t(z);
                  return T(std::min<std::int64_t>(INT32_MAX, std::max<std::int64_t>(INT32_MIN, s)));
                }
                return T(U(hi) + U(z));
              }
              return T(U(T(p)) + U(z));
            });
          }))
        unsupported();
      return;
    }
    case Op::kMul24:
    case Op::kMad24: {
      const bool is_s = is_signed(t);
      const bool hi = static_cast<MulMode>(in.mode) == MulMode::kHi;
      each_lane(active, [&](unsigned l) {
        std::int64_t x, y;
        if (is_s) {
          x = std::int32_t(std::uint32_t(a[l]) << 8) >> 8;
          y = std::int32_t(std::uint32_t(b[l]) << 8) >> 8;
        } else {
          x = a[l] & 0xffffff;
          y = b[l] & 0xffffff;
        }
        const std::uint64_t p = static_cast<std::uint64_t>(x * y);
        std::uint32_t r = hi ? std::uint32_t(p >> 16) : std::uint32_t(p);
        if (in.op == Op::kMad24) r += std::uint32_t(c[l]);
        d[l] = r;
      });
      return;
    }
    case Op::kSad:
      if (!with_int(t, [&](auto tag) {
            using T = decltype(tag);
            using U = std::make_unsigned_t<T>;
            ternary(tag, [](T x, T y, T z) { return T(U(x < y ? U(y) - U(x) : U(x) - U(y)) + U(z)); });
          }))
        unsupported();
      return;
    case Op::kDiv:
    case Op::kRem: {
      if (t == Type::kF32 || t == Type::kF64) {
        if (in.op == Op::kRem) unsupported();
        auto go = [&](auto tag) {
          using T = decltype(tag);
          binary(tag, [&](T x, T y) {
            x = flush(x, ftz);
            y = flush(y, ftz);
            return flush(rounded(rnd,
                                 [&] {
                                   volatile T p = x;
                                   return T(p / y);
                                 }),
                         ftz);
          });
        };
        if (t == Type::kF32)
          go(float{});
        else
          go(double{});
        return;
      }
      const bool rem = in.op == Op::kRem;
      if (!with_int(t, [&](auto tag) {
            using T = decltype(tag);
            binary(tag, [&](T x, T y) -> T {
              if (y == 0) return rem ? x : T(~T(0));  // what the GPU's sequence gives for a zero divisor
              if constexpr (std::is_signed_v<T>) {
                if (y == T(-1))
                  return rem ? T(0) : T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(x));
              }
              return rem ? T(x % y) : T(x / y);
            });
          }))
        unsupported();
      return;
    }
    case Op::kAbs:
    case Op::kNeg: {
      const bool neg = in.op == Op::kNeg;
      if (half) {
        const std::uint64_t sign = t == Type::kF16x2 ? 0x80008000u : 0x8000u;
        each_lane(active, [&](unsigned l) { d[l] = neg ? a[l] ^ sign : a[l] & ~sign; });
        return;
      }
      if (t == Type::kF32) {
        unary(float{}, [&](float x) {
          x = flush(x, ftz);
          return neg ? -x : std::fabs(x);
        });
        return;
      }
      if (t == Type::kF64) {
        unary(double{}, [&](double x) { return neg ? -x : std::fabs(x); });
        return;
      }
      if (!with_int(t, [&](auto tag) {
            using T = decltype(tag);
            using U = std::make_unsigned_t<T>;
            unary(tag, [&](T x) { return (neg || x < 0) ? T(U(0) - U(x)) : x; });
          }))
        unsupported();
      return;
    }
    case Op::kCopysign:
      if (t == Type::kF32)
        binary(float{}, [](float x, float y) { return std::copysign(y, x); });
      else
        binary(double{}, [](double x, double y) { return std::copysign(y, x); });
      return;
    case Op::kTestp: {
      auto test = [&](auto v) -> bool {
        switch (in.mode) {
          case 0:
            return std::isfinite(v);
          case 1:
            return std::isinf(v);
          case 2:
            return !std::isnan(v);
          case 3:
            return std::isnan(v);
          case 4:
            return std::isnormal(v);
          default:
            return std::fpclassify(v) == FP_SUBNORMAL;
        }
      };
      each_lane(active,
                [&](unsigned l) { d[l] = t == Type::kF32 ? test(as<float>(a[l])) : test(as<double>(a[l])); });
      return;
    }
    case Op::kPopc:
    case Op::kClz:
    case Op::kBrev:
    case Op::kBfind: {
      const unsigned width = type_bytes(t) * 8;
      const bool s = is_signed(t);
      each_lane(active, [&](unsigned l) {
        const std::uint64_t x = width == 64 ? a[l] : a[l] & 0xffffffffu;
        switch (in.op) {
          case Op::kPopc:
            d[l] = static_cast<unsigned>(__builtin_popcountll(x));
            break;
          case Op::kClz:
            d[l] = x == 0 ? width : static_cast<unsigned>(__builtin_clzll(x)) - (64 - width);
            break;
          case Op::kBrev: {
            std::uint64_t r = 0;
            for (unsigned i = 0; i < width; ++i)
              r |= ((x >> i) & 1) << (width - 1 - i);
            d[l] = r;
            break;
          }
          default: {
            std::uint64_t y = x;
            if (s && (x >> (width - 1) & 1)) y = ~x & (width == 64 ? ~0ull : 0xffffffffull);
            if (y == 0) {
              d[l] = 0xffffffffu;
            } else {
              const unsigned msb = 63 - static_cast<unsigned>(__builtin_clzll(y));
              d[l] = in.mode == 1 ? width - 1 - msb : msb;
            }
          }
        }
      });
      return;
    }
    case Op::kBfe: {
      const unsigned width = type_bytes(t) * 8;
      const bool s = is_signed(t);
      each_lane(active, [&](unsigned l) {
        const unsigned pos = b[l] & 0xff, len = c[l] & 0xff;
        const std::uint64_t x = a[l];
        const bool sbit = s && len != 0 && ((x >> std::min(pos + len - 1, width - 1)) & 1);
        std::uint64_t r = 0;
        for (unsigned i = 0; i < width; ++i) {
          const bool bit = (i < len && pos + i < width) ? ((x >> (pos + i)) & 1) : sbit;
          r |= std::uint64_t(bit) << i;
        }
        d[l] = r;
      });
      return;
    }
    case Op::kBfi: {
      const unsigned width = type_bytes(t) * 8;
      each_lane(active, [&](unsigned l) {
        const unsigned pos = c[l] & 0xff, len = e[l] & 0xff;
        std::uint64_t r = b[l];
        for (unsigned i = 0; i < len && pos + i < width; ++i) {
          r &= ~(1ull << (pos + i));
          r |= ((a[l] >> i) & 1) << (pos + i);
        }
        d[l] = width == 64 ? r : r & 0xffffffffu;
      });
      return;
    }
    case Op::kPrmt:
      if (in.mode != 0) {
        // The modes pick bytes d.b0..d.b3 of {b, a} by c[1:0] (the PTX ISA's table, one row per selector).
        static constexpr std::uint8_t kModes[6][4][4] = {
            {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},   // f4e
            {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},   // b4e
            {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},   // rc8
            {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},   // ecl
            {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},   // ecr
            {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}};  // rc16
        each_lane(active, [&](unsigned l) {
          const std::uint64_t bytes = (a[l] & 0xffffffffu) | (b[l] & 0xffffffffu) << 32;
          const std::uint8_t* row = kModes[in.mode - 1][c[l] & 3];
          std::uint32_t r = 0;
          for (unsigned i = 0; i < 4; ++i)
            r |= std::uint32_t((bytes >> (8 * row[i])) & 0xff) << (8 * i);
          d[l] = r;
        });
        return;
      }
      each_lane(active, [&](unsigned l) {
        const std::uint64_t bytes = (a[l] & 0xffffffffu) | (b[l] & 0xffffffffu) << 32;
        std::uint32_t r = 0;
        for (unsigned i = 0; i < 4; ++i) {
          const unsigned sel = (c[l] >> (4 * i)) & 0xf;
          std::uint32_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
          if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
          r |= byte << (8 * i);
        }
        d[l] = r;
      });
      return;
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
    case Op::kNot:
    case Op::kCnot:
    case Op::kLop3: {
      const unsigned width = t == Type::kPred ? 1 : type_bytes(t) * 8;
      const std::uint64_t m = width == 64 ? ~0ull : (1ull << width) - 1;
      const bool na = in.nsrc > 0 && in.src[0].negate, nb = in.nsrc > 1 && in.src[1].negate;
      each_lane(active, [&](unsigned l) {
        std::uint64_t x = a[l], y = b ? b[l] : 0;
        if (t == Type::kPred) {
          x = (x != 0) != na;
          y = (y != 0) != nb;
        }
        std::uint64_t r;
        switch (in.op) {
          case Op::kAnd:
            r = x & y;
            break;
          case Op::kOr:
            r = x | y;
            break;
          case Op::kXor:
            r = x ^ y;
            break;
          case Op::kNot:
            r = ~x;
            break;
          case Op::kCnot:
            r = (x & m) == 0;
            break;
          default: {
            const std::uint64_t z = c[l];
            const unsigned lut = e[l] & 0xff;
            r = 0;
            for (unsigned i = 0; i < 8; ++i)
              if (lut >> i & 1) r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
          }
        }
        d[l] = r & m;
      });
      return;
    }
    case Op::kShl:
    case Op::kShr: {
      const unsigned width = type_bytes(t) * 8;
      const bool left = in.op == Op::kShl;
      if (!with_int(t, [&](auto tag) {
            using T = decltype(tag);
            using U = std::make_unsigned_t<T>;
            each_lane(active, [&](unsigned l) {
              const std::uint32_t n = static_cast<std::uint32_t>(b[l]);
              const T x = as<T>(a[l]);
              T r;
              if (left)
                r = n >= width ? T(0) : T(U(x) << n);
              else if (n >= width)
                r = (std::is_signed_v<T> && x < 0) ? T(-1) : T(0);
              else
                r = T(x >> n);
              d[l] = bits<T>(r);
            });
          }))
        unsupported();
      return;
    }
    case Op::kShf: {
      const bool right = in.flags & kShfRight, clamp = in.flags & kShfClamp;
      each_lane(active, [&](unsigned l) {
        const std::uint32_t n =
            clamp ? std::min<std::uint32_t>(std::uint32_t(c[l]), 32) : std::uint32_t(c[l]) & 31;
        const std::uint64_t pair = (a[l] & 0xffffffffu) | (b[l] & 0xffffffffu) << 32;  // b:a
        d[l] = right ? std::uint32_t(pair >> n) : std::uint32_t((pair << n) >> 32);
      });
      return;
    }
    case Op::kSetp:
    case Op::kSet: {
      const Cmp cmp = static_cast<Cmp>(in.mode);
      const auto bop = static_cast<BoolOp>(in.bool_op);
      const bool negc = in.nsrc > 2 && in.src[2].negate;
      std::uint64_t* q =
          (in.op == Op::kSetp && in.ndst > 1 && in.dst[1] != kNoReg) ? reg_ptr(w, in.dst[1]) : nullptr;
      auto combine = [&](bool r, unsigned l) {
        if (bop == BoolOp::kNone) return r;
        const bool cv = (c[l] != 0) != negc;
        return bop == BoolOp::kAnd ? (r && cv) : bop == BoolOp::kOr ? (r || cv) : (r != cv);
      };
      auto store = [&](unsigned l, bool r) {
        const bool p = combine(r, l), np = combine(!r, l);
        if (in.op == Op::kSetp) {
          if (d) d[l] = p;
          if (q) q[l] = np;
        } else if (t == Type::kF32) {
          d[l] = p ? float_to_bits(1.0f) : 0;
        } else {
          d[l] = p ? (type_bytes(t) == 8 ? ~0ull : 0xffffffffull) : 0;
        }
      };
      const Type ct = in.type2;
      if (ct == Type::kF16 || ct == Type::kF16x2) {
        if (ct == Type::kF16x2) unsupported();
        each_lane(active, [&](unsigned l) {
          store(l, compare(cmp, half_to_float(std::uint16_t(a[l])), half_to_float(std::uint16_t(b[l]))));
        });
        return;
      }
      if (!with_number(ct, [&](auto tag) {
            using T = decltype(tag);
            each_lane(active, [&](unsigned l) {
              store(l, compare(cmp, flush(as<T>(a[l]), ftz), flush(as<T>(b[l]), ftz)));
            });
          }))
        unsupported();
      return;
    }
    case Op::kSelp: {
      const bool neg = in.src[2].negate;
      each_lane(active, [&](unsigned l) { d[l] = ((c[l] != 0) != neg) ? a[l] : b[l]; });
      return;
    }
    case Op::kSlct:
      each_lane(active, [&](unsigned l) {
        const bool pick_a =
            in.type2 == Type::kF32 ? flush(as<float>(c[l]), ftz) >= 0.0f : as<std::int32_t>(c[l]) >= 0;
        d[l] = pick_a ? a[l] : b[l];
      });
      return;
    case Op::kCvt:
      convert(in, d, a, active, w);
      return;
    case Op::kCvta: {
      const bool to = in.flags & kToSpace;
      std::uint64_t base = 0;
      if (in.space == Space::kShared) base = kSharedWindow;
      if (in.space == Space::kLocal) base = kLocalWindow;
      each_lane(active, [&](unsigned l) { d[l] = to ? a[l] - base : a[l] + base; });
      return;
    }
    case Op::kRcp:
    case Op::kSqrt:
    case Op::kRsqrt:
    case Op::kSin:
    case Op::kCos:
    case Op::kLg2:
    case Op::kEx2:
    case Op::kTanh: {
      const Op op = in.op;
      auto go = [&](auto tag) {
        using T = decltype(tag);
        unary(tag, [&](T x) {
          x = flush(x, ftz);
          T r;
          switch (op) {
            case Op::kRcp:
              r = rounded(rnd, [&] {
                volatile T p = x;
                return T(T(1) / p);
              });
              break;
            case Op::kSqrt:
              r = rounded(rnd, [&] {
                volatile T p = x;
                return T(std::sqrt(T(p)));
              });
              break;
            case Op::kRsqrt:
              r = T(1) / std::sqrt(x);
              break;
            case Op::kSin:
              r = std::sin(x);
              break;
            case Op::kCos:
              r = std::cos(x);
              break;
            case Op::kLg2:
              r = std::log2(x);
              break;
            case Op::kEx2:
              r = std::exp2(x);
              break;
            default:
              r = std::tanh(x);
              break;
          }
          return flush(r, ftz);
        });
      };
      if (half) {
        if (op != Op::kEx2 && op != Op::kTanh) unsupported();
        return half_op(
            [&](double x, double, double) { return op == Op::kEx2 ? std::exp2(x) : std::tanh(x); });
      }
      if (t == Type::kF32)
        go(float{});
      else if (t == Type::kF64)
        go(double{});
      else
        unsupported();
      return;
    }
    default:
      unsupported();
  }
}

// cvt between any two of the integer and floating-point types.
void CtaRun::convert(const Instr& in, std::uint64_t* d, const std::uint64_t* a, std::uint32_t active,
                     unsigned w) {
  const Type dt = in.type, st = in.type2;
  const Round rnd = static_cast<Round>(in.mode);
  const bool ftz = in.flags & kFtz, sat = in.flags & kSat;
  // Reads the source as a double (exact for every source type but 64-bit integers, handled apart).
  const bool src_float = is_float(st), dst_float = is_float(dt);
  auto read_float = [&](unsigned l) -> double {
    if (st == Type::kF16) return half_to_float(static_cast<std::uint16_t>(a[l]));
    if (st == Type::kF32) return flush(as<float>(a[l]), ftz);
    return as<double>(a[l]);
  };
  if (src_float && dst_float) {
    each_lane(active, [&](unsigned l) {
      const double x = read_float(l);
      if (dt == Type::kF16) {
        double v = round_integral(x, rnd);
        if (sat) v = std::isnan(v) ? 0.0 : std::min(1.0, std::max(0.0, v));
        // f32 -> f16 in one rounding. An f64 goes through an f32 rounded to odd (truncated, its last bit set
        // when inexact), which keeps the one rounding to f16's 11 bits correct.
        float f = static_cast<float>(v);
        if (st == Type::kF64 && !std::isnan(v)) {
          f = rounded(Round::kRz, [&] {
            volatile double p = v;
            return static_cast<float>(p);
          });
          if (static_cast<double>(f) != v) f = bits_to_float(float_to_bits(f) | 1u);
        }
        d[l] = float_to_half(f, half_mode(rnd));
      } else if (dt == Type::kF32) {
        float v;
        if (st == Type::kF64)
          v = rounded(rnd, [&] {
            volatile double p = x;
            return static_cast<float>(p);
          });
        else
          v = static_cast<float>(round_integral(x, rnd));
        d[l] = float_to_bits(saturate(flush(v, ftz), sat));
      } else {
        d[l] = double_to_bits(saturate(round_integral(x, rnd), sat));
      }
    });
    return;
  }
  if (src_float) {  // float -> integer: rounded, saturated to the range, NaN -> 0
    const Round r = rnd == Round::kDefault ? Round::kRni : rnd;
    if (!with_int(dt, [&](auto tag) {
          using I = decltype(tag);
          each_lane(active, [&](unsigned l) {
            if (st == Type::kF64)
              d[l] = bits<I>(float_to_int<I>(as<double>(a[l]), r));
            else
              d[l] = bits<I>(float_to_int<I>(static_cast<float>(read_float(l)), r));
          });
        }))
      fail(ExecutionError::Kind::kUnsupported, in, w, 0, "unsupported conversion");
    return;
  }
  if (dst_float) {  // integer -> float, rounded per rnd (rn by default)
    if (!with_int(st, [&](auto tag) {
          using I = decltype(tag);
          each_lane(active, [&](unsigned l) {
            const I x = as<I>(a[l]);
            if (dt == Type::kF64) {
              d[l] = double_to_bits(saturate(rounded(rnd,
                                                     [&] {
                                                       volatile I p = x;
                                                       return static_cast<double>(p);
                                                     }),
                                             sat));
            } else if (dt == Type::kF32) {
              d[l] = float_to_bits(saturate(rounded(rnd,
                                                    [&] {
                                                      volatile I p = x;
                                                      return static_cast<float>(p);
                                                    }),
                                            sat));
            } else {
              float v = rounded(rnd, [&] {
                volatile I p = x;
                return static_cast<float>(p);
              });
              if (sat) v = std::min(1.0f, std::max(0.0f, v));
              d[l] = float_to_half(v, half_mode(rnd));
            }
          });
        }))
      fail(ExecutionError::Kind::kUnsupported, in, w, 0, "unsupported conversion");
    return;
  }
  // integer -> integer: extended or truncated; .sat clamps to the destination's range
  bool ok = with_int(st, [&](auto stag) {
    using S = decltype(stag);
    ok = with_int(dt, [&](auto dtag) {
      using D = decltype(dtag);
      each_lane(active, [&](unsigned l) {
        const S x = as<S>(a[l]);
        D r = static_cast<D>(x);
        if (sat) {
          if constexpr (std::is_signed_v<S>) {
            if (x < 0 && !std::is_signed_v<D>)
              r = 0;
            else if (static_cast<__int128>(x) < static_cast<__int128>(std::numeric_limits<D>::min()))
              r = std::numeric_limits<D>::min();
            else if (static_cast<__int128>(x) > static_cast<__int128>(std::numeric_limits<D>::max()))
              r = std::numeric_limits<D>::max();
          } else {
            if (static_cast<unsigned __int128>(x) >
                static_cast<unsigned __int128>(std::numeric_limits<D>::max()))
              r = std::numeric_limits<D>::max();
          }
        }
        d[l] = bits<D>(r);
      });
    });
  });
  if (!ok) fail(ExecutionError::Kind::kUnsupported, in, w, 0, "unsupported conversion");
}

void CtaRun::memory(const Instr& in, const InstrMeta&, unsigned w, std::uint32_t active,
                    std::uint32_t ready) {
  const std::uint64_t* base = in.addr.reg != kNoReg ? reg_ptr(w, in.addr.reg) : nullptr;
  const auto offset = static_cast<std::uint64_t>(in.addr.imm);
  each_lane(active, [&](unsigned l) { lane_addr_[l] = (base ? base[l] : 0) + offset; });
  if (in.space != Space::kGeneric) {
    access(in, w, in.space, active, lane_addr_, ready);
    return;
  }
  // A generic address: the shared and local windows, else global; each space's lanes as one access.
  std::uint32_t shared = 0, local = 0;
  each_lane(active, [&](unsigned l) {
    const std::uint64_t a = lane_addr_[l];
    if (a - kSharedWindow < kWindowBytes)
      shared |= 1u << l;
    else if (a - kLocalWindow < kWindowBytes)
      local |= 1u << l;
  });
  const std::uint32_t global = active & ~shared & ~local;
  if (global) access(in, w, Space::kGlobal, global, lane_addr_, ready);
  if (shared || local) {
    std::uint64_t translated[kWarpLanes];
    each_lane(shared, [&](unsigned l) { translated[l] = lane_addr_[l] - kSharedWindow; });
    each_lane(local, [&](unsigned l) { translated[l] = lane_addr_[l] - kLocalWindow; });
    if (shared) access(in, w, Space::kShared, shared, translated, ready);
    if (local) access(in, w, Space::kLocal, local, translated, ready);
  }
}

namespace {

template <class T>
T load_as(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <unsigned kSize>
void store_value(std::uint8_t* p, std::uint64_t v) {  // little-endian host
  std::memcpy(p, &v, kSize);
}

template <class T>
T atomic_apply(AtomOp op, T old, T b, T c) {
  switch (op) {
    case AtomOp::kAdd:
      if constexpr (std::is_floating_point_v<T>)
        return old + b;
      else
        return T(std::make_unsigned_t<T>(old) + std::make_unsigned_t<T>(b));
    case AtomOp::kMin:
      return std::is_floating_point_v<T> ? fp_min(old, b) : std::min(old, b);
    case AtomOp::kMax:
      return std::is_floating_point_v<T> ? fp_max(old, b) : std::max(old, b);
    case AtomOp::kExch:
      return b;
    case AtomOp::kCas:
      return old == b ? c : old;
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const U o = U(old), x = U(b);
    switch (op) {
      case AtomOp::kAnd:
        return T(o & x);
      case AtomOp::kOr:
        return T(o | x);
      case AtomOp::kXor:
        return T(o ^ x);
      case AtomOp::kInc:
        return T(o >= x ? 0 : o + 1);
      case AtomOp::kDec:
        return T((o == 0 || o > x) ? x : o - 1);
      default:
        break;
    }
  }
  return old;
}

}  // namespace

// One lane's loaded value of PTX type `t` (`size` bytes at p): signed types sign-extended, as access() loads.
std::uint64_t load_value(Type t, unsigned size, const std::uint8_t* p) {
  switch (t) {
    case Type::kS8:
      return std::uint64_t(std::int64_t(load_as<std::int8_t>(p)));
    case Type::kS16:
      return std::uint64_t(std::int64_t(load_as<std::int16_t>(p)));
    case Type::kS32:
      return std::uint64_t(std::int64_t(load_as<std::int32_t>(p)));
    default:
      switch (size) {
        case 1:
          return p[0];
        case 2:
          return load_as<std::uint16_t>(p);
        case 4:
          return load_as<std::uint32_t>(p);
        default:
          return load_as<std::uint64_t>(p);
      }
  }
}

void CtaRun::access(const Instr& in, unsigned w, Space space, std::uint32_t lanes, const std::uint64_t* addr,
                    std::uint32_t ready) {
  const unsigned size = type_bytes(in.type);
  const unsigned bytes = size * in.vec;
  const bool load = in.op == Op::kLd, store = in.op == Op::kSt;
  std::uint64_t sim[kWarpLanes];  // what the sink sees (local: the interleaved simulated address)
  std::uint8_t* host[kWarpLanes];
  const std::uint64_t misaligned = bytes - 1;  // sizes are powers of two
  if (space == Space::kParam && load && in.addr.reg == kNoReg) {
    // A parameter at a fixed offset (the usual ld.param): the same bytes for every lane, checked and read
    // once (the first active lane is the one a failing check names, as lane by lane).
    const unsigned first = static_cast<unsigned>(__builtin_ctz(lanes));
    const std::uint64_t a = addr[first];
    if (a & misaligned) bad_access(ExecutionError::Kind::kMisaligned, in, w, first, space, a, bytes);
    if (!(a < launch_.params.size() && a + bytes <= launch_.params.size()))
      bad_access(ExecutionError::Kind::kOutOfBounds, in, w, first, space, a, bytes);
    for (unsigned i = 0; i < in.vec; ++i) {
      if (in.dst[i] == kNoReg) continue;
      const std::uint64_t v = load_value(in.type, size, launch_.params.data() + a + i * size);
      std::uint64_t* d = reg_ptr(w, in.dst[i]);
      each_lane(lanes, [&](unsigned l) { d[l] = v; });
    }
    set_ready(w, in, 0);  // parameters: constant-bank operands in SASS, no access the SM model sees
    return;
  }
  auto check = [&](unsigned l, std::uint8_t* p) {
    if (!p) bad_access(ExecutionError::Kind::kOutOfBounds, in, w, l, space, addr[l], bytes);
    host[l] = p;
  };
  each_lane(lanes, [&](unsigned l) {
    if (addr[l] & misaligned) bad_access(ExecutionError::Kind::kMisaligned, in, w, l, space, addr[l], bytes);
  });
  switch (space) {
    case Space::kGlobal:
    case Space::kConst: {
      // The lanes' span first: when one allocation holds it (a coalesced access does), one look-up serves
      // every lane (its bytes are contiguous on the host); else each lane's own, to name the one outside.
      std::uint64_t lo = ~std::uint64_t(0), hi = 0;
      each_lane(lanes, [&](unsigned l) {
        sim[l] = addr[l];
        lo = std::min(lo, addr[l]);
        hi = std::max(hi, addr[l]);
      });
      if (std::uint8_t* p =
              hi - lo < (std::uint64_t(1) << 32) ? memory_.resolve(lo, hi - lo + bytes) : nullptr) {
        each_lane(lanes, [&](unsigned l) { host[l] = p + (addr[l] - lo); });
        break;
      }
      each_lane(lanes, [&](unsigned l) { check(l, memory_.resolve(addr[l], bytes)); });
      break;
    }
    case Space::kShared:
      each_lane(lanes, [&](unsigned l) {
        const std::uint64_t a = addr[l];
        sim[l] = a;
        check(l, a < shared_bytes_ && a + bytes <= shared_bytes_ ? &shared_[a] : nullptr);
      });
      break;
    case Space::kLocal:
      each_lane(lanes, [&](unsigned l) {
        const std::uint64_t a = addr[l];
        const std::uint32_t t = w * kWarpLanes + l;
        // Local memory as the GPU interleaves it: 4-byte words of a warp's 32 threads side by side.
        const std::uint64_t thread = first_thread_ + t;
        sim[l] = launch_.local_base + thread / kWarpLanes * k_.local_bytes * kWarpLanes + a / 4 * 128 +
                 thread % kWarpLanes * 4 + a % 4;
        check(l, a < k_.local_bytes && a + bytes <= k_.local_bytes
                     ? &local_[std::size_t(t) * k_.local_bytes + a]
                     : nullptr);
      });
      break;
    case Space::kParam:
      each_lane(lanes, [&](unsigned l) {
        const std::uint64_t a = addr[l];
        check(l, !store && a < launch_.params.size() && a + bytes <= launch_.params.size()
                     ? const_cast<std::uint8_t*>(launch_.params.data()) + a
                     : nullptr);
      });
      break;
    case Space::kFrame:
      each_lane(lanes, [&](unsigned l) {
        const std::uint64_t a = addr[l];
        check(l, a < k_.frame_bytes && a + bytes <= k_.frame_bytes
                     ? &frame_[std::size_t(w * kWarpLanes + l) * k_.frame_bytes + a]
                     : nullptr);
      });
      break;
    default:
      each_lane(lanes, [&](unsigned l) { check(l, nullptr); });
  }
  if (load) {
    for (unsigned i = 0; i < in.vec; ++i) {
      if (in.dst[i] == kNoReg) continue;
      std::uint64_t* d = reg_ptr(w, in.dst[i]);
      const unsigned at = i * size;
      switch (in.type) {
        case Type::kS8:
          each_lane(lanes, [&](unsigned l) {
            d[l] = std::uint64_t(std::int64_t(load_as<std::int8_t>(host[l] + at)));
          });
          break;
        case Type::kS16:
          each_lane(lanes, [&](unsigned l) {
            d[l] = std::uint64_t(std::int64_t(load_as<std::int16_t>(host[l] + at)));
          });
          break;
        case Type::kS32:
          each_lane(lanes, [&](unsigned l) {
            d[l] = std::uint64_t(std::int64_t(load_as<std::int32_t>(host[l] + at)));
          });
          break;
        default:
          switch (size) {
            case 1:
              each_lane(lanes, [&](unsigned l) { d[l] = host[l][at]; });
              break;
            case 2:
              each_lane(lanes, [&](unsigned l) { d[l] = load_as<std::uint16_t>(host[l] + at); });
              break;
            case 4:
              each_lane(lanes, [&](unsigned l) { d[l] = load_as<std::uint32_t>(host[l] + at); });
              break;
            default:
              each_lane(lanes, [&](unsigned l) { d[l] = load_as<std::uint64_t>(host[l] + at); });
              break;
          }
      }
    }
  } else if (store) {
    for (unsigned i = 0; i < in.vec; ++i) {
      const std::uint64_t* v = src_ptr(w, in.src[i]);
      const unsigned at = i * size;
      switch (size) {
        case 1:
          each_lane(lanes, [&](unsigned l) { host[l][at] = static_cast<std::uint8_t>(v[l]); });
          break;
        case 2:
          each_lane(lanes, [&](unsigned l) { store_value<2>(host[l] + at, v[l]); });
          break;
        case 4:
          each_lane(lanes, [&](unsigned l) { store_value<4>(host[l] + at, v[l]); });
          break;
        default:
          each_lane(lanes, [&](unsigned l) { store_value<8>(host[l] + at, v[l]); });
          break;
      }
    }
  } else {  // atom, red: lane by lane, in lane order
    const auto op = static_cast<AtomOp>(in.mode);
    const std::uint64_t* b = src_ptr(w, in.src[0]);
    const std::uint64_t* c = in.nsrc > 1 ? src_ptr(w, in.src[1]) : b;
    std::uint64_t* d = (in.op == Op::kAtom && in.dst[0] != kNoReg) ? reg_ptr(w, in.dst[0]) : nullptr;
    auto go = [&](auto tag) {
      using T = decltype(tag);
      each_lane(lanes, [&](unsigned l) {
        T old;
        std::memcpy(&old, host[l], sizeof(T));
        const T r = atomic_apply<T>(op, old, as<T>(b[l]), as<T>(c[l]));
        std::memcpy(host[l], &r, sizeof(T));
        if (d) d[l] = bits<T>(old);
      });
    };
    switch (in.type) {
      case Type::kF32:
        go(float{});
        break;
      case Type::kF64:
        go(double{});
        break;
      case Type::kS32:
        go(std::int32_t{});
        break;
      case Type::kS64:
        go(std::int64_t{});
        break;
      case Type::kU64:
      case Type::kB64:
        go(std::uint64_t{});
        break;
      default:
        go(std::uint32_t{});
        break;
    }
  }
  // What the SM model sees.
  report_pending();
  const Step::Kind kind = load ? Step::Kind::kLoad : store ? Step::Kind::kStore : Step::Kind::kAtomic;
  std::uint32_t done = 0;
  switch (space) {
    case Space::kGlobal:
    case Space::kLocal:
      sink_.global_access(w, kind, lanes, sim, bytes, ready);
      break;
    case Space::kShared:
      done = sink_.shared_access(w, lanes, sim, bytes, ready);
      break;
    case Space::kConst:
      done = sink_.constant_access(w, lanes, sim, ready);
      break;
    default:
      break;  // parameters: constant-bank operands and registers in SASS (docs/cuda.md)
  }
  if (!store) set_ready(w, in, done);
}

}  // namespace

FastCompute fast_compute_of(const Instr& in) {
  if ((in.flags & (kCarryIn | kCarryOut)) || in.ndst == 0 || in.dst[0] == kNoReg) return nullptr;
  const bool ftz = in.flags & kFtz, sat = in.flags & kSat;
  const Round rnd = static_cast<Round>(in.mode);
  const bool nearest = rnd == Round::kDefault || rnd == Round::kRn;
  const bool plain_float = !ftz && !sat && nearest;
  const Type t = in.type;
  const auto mul_mode = static_cast<MulMode>(in.mode);
  const bool wide_source = in.type2 == Type::kS32 || in.type2 == Type::kU32 || in.type2 == Type::kB32;
  FastCompute f = nullptr;
  switch (in.op) {
    case Op::kMov:
      if (in.nsrc == 1) f = &fast_unary<FastMov>;
      break;
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kMin:
    case Op::kMax:
      if (in.nsrc != 2) break;
      if (is_float(t)) {
        if (!plain_float || in.op == Op::kMin || in.op == Op::kMax) break;
        with_float(t, [&](auto tag) {
          using T = decltype(tag);
          f = in.op == Op::kAdd   ? &fast_binary<FastFAdd<T>>
              : in.op == Op::kSub ? &fast_binary<FastFSub<T>>
                                  : &fast_binary<FastFMul<T>>;
        });
        break;
      }
      if (sat) break;
      if (in.op == Op::kMul) {
        if (mul_mode == MulMode::kLo)
          with_wide_int(t, [&](auto tag) { f = &fast_binary<FastIntMulLo<decltype(tag)>>; });
        else if (mul_mode == MulMode::kWide && wide_source)
          with_wide_int(in.type2, [&](auto tag) {
            if constexpr (sizeof(tag) == 4) f = &fast_binary<FastMulWide<decltype(tag)>>;
          });
        break;
      }
      with_wide_int(t, [&](auto tag) {
        using T = decltype(tag);
        f = in.op == Op::kAdd   ? &fast_binary<FastIntAdd<T>>
            : in.op == Op::kSub ? &fast_binary<FastIntSub<T>>
            : in.op == Op::kMin ? &fast_binary<FastIntMin<T>>
                                : &fast_binary<FastIntMax<T>>;
      });
      break;
    case Op::kMad:
    case Op::kFma:
      if (in.nsrc != 3) break;
      if (is_float(t)) {
        if (plain_float) with_float(t, [&](auto tag) { f = &fast_ternary<FastFma<decltype(tag)>>; });
        break;
      }
      if (sat) break;
      if (mul_mode == MulMode::kLo)
        with_wide_int(t, [&](auto tag) { f = &fast_ternary<FastIntMadLo<decltype(tag)>>; });
      else if (mul_mode == MulMode::kWide && wide_source)
        with_wide_int(in.type2, [&](auto tag) {
          if constexpr (sizeof(tag) == 4) f = &fast_ternary<FastMadWide<decltype(tag)>>;
        });
      break;
    case Op::kNeg:
      if (in.nsrc != 1) break;
      if (t == Type::kF32 && !ftz)
        f = &fast_unary<FastFNeg<float>>;
      else if (t == Type::kF64)
        f = &fast_unary<FastFNeg<double>>;
      else
        with_wide_int(t, [&](auto tag) { f = &fast_unary<FastIntNeg<decltype(tag)>>; });
      break;
    case Op::kRcp:
      if (in.nsrc == 1 && !ftz && nearest)
        with_float(t, [&](auto tag) { f = &fast_unary<FastRcp<decltype(tag)>>; });
      break;
    case Op::kSelp:
      if (in.nsrc == 3) f = in.src[2].negate ? &fast_ternary<FastSelp<true>> : &fast_ternary<FastSelp<false>>;
      break;
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
    case Op::kNot: {
      const bool unary = in.op == Op::kNot;
      if (in.nsrc != (unary ? 1u : 2u)) break;
      if (t == Type::kPred && (in.src[0].negate || (!unary && in.src[1].negate))) break;
      auto pick = [&](auto width) {
        constexpr unsigned kW = decltype(width)::value;
        switch (in.op) {
          case Op::kAnd:
            return &fast_binary<FastLogic<Op::kAnd, kW>>;
          case Op::kOr:
            return &fast_binary<FastLogic<Op::kOr, kW>>;
          case Op::kXor:
            return &fast_binary<FastLogic<Op::kXor, kW>>;
          default:
            return &fast_unary<FastLogic<Op::kNot, kW>>;
        }
      };
      if (t == Type::kPred)
        f = pick(std::integral_constant<unsigned, 1>{});
      else if (t == Type::kB32)
        f = pick(std::integral_constant<unsigned, 32>{});
      else if (t == Type::kB64)
        f = pick(std::integral_constant<unsigned, 64>{});
      break;
    }
    case Op::kShl:
    case Op::kShr:
      if (in.nsrc == 2)
        with_wide_int(t, [&](auto tag) {
          using T = decltype(tag);
          f = in.op == Op::kShl ? &fast_binary<FastShift<T, true>> : &fast_binary<FastShift<T, false>>;
        });
      break;
    case Op::kSetp:
      if (in.nsrc != 2 || static_cast<BoolOp>(in.bool_op) != BoolOp::kNone) break;
      if (in.type2 == Type::kF64 || (in.type2 == Type::kF32 && !ftz))
        with_float(in.type2, [&](auto tag) { f = fast_setp_of<decltype(tag)>(static_cast<Cmp>(in.mode)); });
      else
        with_int(in.type2, [&](auto tag) { f = fast_setp_of<decltype(tag)>(static_cast<Cmp>(in.mode)); });
      break;
    case Op::kCvt: {
      if (in.nsrc != 1 || sat) break;
      const Type dt = in.type, st = in.type2;
      if (!is_float(st) && !is_float(dt)) {
        with_int(st, [&](auto stag) {
          with_int(dt, [&](auto dtag) { f = &fast_unary<FastCvtInt<decltype(stag), decltype(dtag)>>; });
        });
      } else if (st == Type::kF32 && dt == Type::kF64 && !ftz && nearest) {
        f = &fast_unary<FastCvtFloat<float, double>>;
      } else if (st == Type::kF64 && dt == Type::kF32 && !ftz && nearest) {
        f = &fast_unary<FastCvtFloat<double, float>>;
      } else if (!is_float(st) && (dt == Type::kF32 || dt == Type::kF64) && nearest) {
        with_int(st, [&](auto stag) {
          with_float(dt, [&](auto dtag) { f = &fast_unary<FastCvtFloat<decltype(stag), decltype(dtag)>>; });
        });
      }
      break;
    }
    case Op::kCvta: {
      if (in.nsrc != 1) break;
      const bool to = in.flags & kToSpace;
      if (in.space == Space::kShared)
        f = to ? &fast_unary<FastCvta<kSharedWindow, true>> : &fast_unary<FastCvta<kSharedWindow, false>>;
      else if (in.space == Space::kLocal)
        f = to ? &fast_unary<FastCvta<kLocalWindow, true>> : &fast_unary<FastCvta<kLocalWindow, false>>;
      else
        f = &fast_unary<FastMov>;  // the other spaces share the generic addresses
      break;
    }
    default:
      break;
  }
  return f;
}

CtaCost Kernel::execute_cta(const LaunchSpec& launch, Dim3 block_idx, GlobalMemory& memory, WarpSink& sink,
                            const std::vector<std::uint64_t>& variable_addresses) const {
  if (launch.block.count() == 0 || launch.block.count() > 1024)
    throw ExecutionError(ExecutionError::Kind::kUnsupported, "kernel '" + impl_->name + "': a CTA of " +
                                                                 std::to_string(launch.block.count()) +
                                                                 " threads (1 to 1024)");
  thread_local CtaScratch scratch;
  CtaRun run(*impl_, launch, block_idx, memory, sink, variable_addresses, scratch);
  return run.run();
}

}  // namespace numagpu::ptx
