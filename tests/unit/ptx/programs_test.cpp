// Whole kernels compiled by clang 14 (tests/data/ptx/*.cu -> *.clang.ptx) run end to end: their values and
// the global accesses the SM model is given.
#include <gtest/gtest.h>

#include <cmath>

#include "ptx/numeric.hpp"
#include "ptx_test_support.hpp"

namespace numagpu::ptx::test {
namespace {

TEST(PtxPrograms, ClangSaxpyComputesAndReportsEachWarpsCoalescedAccesses) {
  auto m = parse_module(read_data("saxpy.clang.ptx"), "saxpy.clang.ptx");
  Kernel k(m, "_Z5saxpyifPKfPf");
  const int n = 200;  // 2 CTAs of 128 threads: the last 56 threads of CTA 1 are past n
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  VectorMemory mem;
  const std::uint64_t xa = mem.add(x), ya = mem.add(y);
  LaunchSpec launch;
  launch.grid = {2, 1, 1};
  launch.block = {128, 1, 1};
  launch.params = Params().add(k, 0, n).add(k, 1, 2.0f).add(k, 2, xa).add(k, 3, ya).bytes;
  RecordingSink sink;
  CtaCost total;
  for (std::uint32_t b = 0; b < 2; ++b) {
    const CtaCost c = k.execute_cta(launch, {b, 0, 0}, mem, sink, {});
    total.warp_instructions += c.warp_instructions;
  }
  const auto out = mem.get<float>(ya);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * float(i) + 1.0f) << i;
  // Each in-range warp loads x, loads y and stores y: 3 accesses of 32 lanes x 4 bytes at consecutive
  // addresses. In-range warps: CTA 0's 4, CTA 1's first 2 (threads 128..191) and its third partly (192..199:
  // 8 lanes); its fourth has no thread below n and branches past.
  ASSERT_EQ(sink.globals.size(), 3u * 7);
  EXPECT_EQ(sink.globals[0].kind, Step::Kind::kLoad);
  EXPECT_EQ(sink.globals[0].addresses.front(), xa);
  EXPECT_EQ(sink.globals[0].addresses.back(), xa + 31 * 4);
  EXPECT_EQ(sink.globals[2].kind, Step::Kind::kStore);
  EXPECT_EQ(sink.globals[2].addresses.front(), ya);
  const auto& partial = sink.globals[3 * 6];  // CTA 1, warp 2: threads 192..199
  EXPECT_EQ(partial.lanes, 0xffu);
  EXPECT_EQ(partial.addresses.front(), xa + 192 * 4);
  // Instructions per warp (the 4 ld.param and 2 cvta count as executed, though not charged): in range, 7 up
  // to the branch + 12 after it + ret = 20 (the partly in-range warp too: its taken lanes wait at the ret);
  // out of range, 7 + ret = 8.
  EXPECT_EQ(total.warp_instructions, 7u * 20 + 1u * 8);
  // Charged per in-range warp: int: 3 mov, mad, setp, mul.wide, 2 add = 8; fp32: fma; branch: bra, ret.
  EXPECT_EQ(sink.count(InstrClass::kInt), 7u * 8 + 5u);
  EXPECT_EQ(sink.count(InstrClass::kFp32), 7u);
  EXPECT_EQ(sink.count(InstrClass::kBranch), 8u * 2);
}

TEST(PtxPrograms, SharedMemoryReductionFromClangAndNvccSumsEachCtasElements) {
  for (const char* file : {"reduce.clang.ptx", "reduce.nvcc.ptx"}) {
    auto m = parse_module(read_data(file), file);
    Kernel k(m, "_Z6reducePKfPf");
    std::vector<float> in(512);
    for (unsigned i = 0; i < 512; ++i)
      in[i] = float(i % 7);
    VectorMemory mem;
    const std::uint64_t ia = mem.add(in), oa = mem.add(std::vector<float>(2));
    LaunchSpec launch;
    launch.grid = {2, 1, 1};
    launch.block = {256, 1, 1};
    launch.params = Params().add(k, 0, ia).add(k, 1, oa).bytes;
    RecordingSink sink;
    for (std::uint32_t b = 0; b < 2; ++b)
      k.execute_cta(launch, {b, 0, 0}, mem, sink, {});
    // Sums of i % 7 over 0..255 and 256..511: 36 full cycles of 0..6 (21 each) plus the rest.
    float expect[2] = {0, 0};
    for (unsigned i = 0; i < 512; ++i)
      expect[i / 256] += float(i % 7);
    const auto out = mem.get<float>(oa);
    EXPECT_EQ(out[0], expect[0]) << file;
    EXPECT_EQ(out[1], expect[1]) << file;
    // Per CTA: each of 8 warps loads its 32 consecutive floats (one 128-byte line: in + 1024 b + 128 w),
    // then thread 0 stores the sum. 9 bar.sync a warp (the source's 1 + 8 trips of the unrolled loop).
    ASSERT_EQ(sink.globals.size(), 2u * 9) << file;
    for (unsigned b = 0; b < 2; ++b) {
      for (unsigned w = 0; w < 8; ++w) {
        const auto& a = sink.globals[b * 9 + w];
        EXPECT_EQ(a.kind, Step::Kind::kLoad);
        EXPECT_EQ(a.lanes, ~0u);
        EXPECT_EQ(a.addresses.front(), ia + 1024 * b + 128 * w);
        EXPECT_EQ(a.addresses.back(), ia + 1024 * b + 128 * w + 124);
      }
      const auto& st = sink.globals[b * 9 + 8];
      EXPECT_EQ(st.kind, Step::Kind::kStore);
      EXPECT_EQ(st.lanes, 1u);
      EXPECT_EQ(st.addresses.front(), oa + 4 * b);
    }
    EXPECT_EQ(sink.barriers.size(), 2u * 8 * 9) << file;
  }
}

// mix.cu on the host, as the kernel computes it.
struct MixHost {
  std::vector<float> out;
  std::vector<double> dout;
  std::vector<unsigned> hist;
};
MixHost mix_on_host(const std::vector<float>& in, int n, int d) {
  MixHost h{std::vector<float>(n), std::vector<double>(n), std::vector<unsigned>(18)};
  for (int t = 0; t < n; ++t) {
    const float v = in[t];
    h.hist[unsigned(v) % 16] += 1;
    h.hist[16] = std::max<unsigned>(h.hist[16], unsigned(t));
    if (h.hist[17] == 0) h.hist[17] = unsigned(t);
    const int lane = t % 32;
    const float s = lane < 31 && t + 1 < n ? in[t + 1] : v;
    unsigned b = 0;
    for (int l = 0; l < 32 && t - lane + l < n; ++l)
      b |= unsigned(in[t - lane + l] > 2.0f) << l;
    const float w = std::sqrt(v) + std::exp2(v) + 1.0f / (v + 1.0f) + std::sin(v);
    const float z = v / (s + 1.0f);
    const int q = t / d + t % d;
    double dd = double(v) * 1.5 + double(q);
    dd = dd / double(d + 1);
    float r = 0.0f;
    for (int i = 0; i < (q & 3); ++i)
      r = r * v + float(i);
    h.out[t] =
        w + z + r + float(__builtin_popcount(b)) + v * float(q & 7) + std::max(v, s) + float((long long)v);
    h.dout[t] = dd;
  }
  return h;
}

TEST(PtxPrograms, AMixOfCallsAtomicsShufflesMathAndLocalMemoryFromClangAndNvcc) {
  const int n = 64, d = 3;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = 0.25f * float(i);
  const MixHost host = mix_on_host(in, n, d);
  for (const char* file : {"mix.clang.ptx", "mix.nvcc.ptx"}) {
    Kernel k(parse_module(read_data(file), file), "_Z3mixPKfPfPjPdii");
    VectorMemory mem;
    const std::uint64_t ia = mem.add(in), oa = mem.add(std::vector<float>(n)),
                        ha = mem.add(std::vector<unsigned>(18)), da = mem.add(std::vector<double>(n));
    LaunchSpec launch;
    launch.block = {64, 1, 1};
    launch.local_base = 0x7000'0000;
    launch.params =
        Params().add(k, 0, ia).add(k, 1, oa).add(k, 2, ha).add(k, 3, da).add(k, 4, n).add(k, 5, d).bytes;
    RecordingSink sink;
    k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
    const auto out = mem.get<float>(oa);
    const auto dout = mem.get<double>(da);
    ASSERT_EQ(out.size(), std::size_t(n));
    ASSERT_EQ(dout.size(), std::size_t(n));
    EXPECT_NE(out[5], 0.0f);
    for (int t = 0; t < n; ++t) {
      // approximate instructions (ex2, sin) and contraction into fma: within a few float ulps of the sum
      EXPECT_NEAR(out[t], host.out[t], 1e-5 * std::max(1.0f, std::fabs(host.out[t]))) << file << " " << t;
      EXPECT_DOUBLE_EQ(dout[t], host.dout[t]) << file << " " << t;
    }
    EXPECT_EQ(mem.get<unsigned>(ha), host.hist) << file;
    // The local array's accesses go to global_access at local_base, interleaved by warp.
    bool local_seen = false;
    for (const auto& a : sink.globals)
      if (a.addresses.front() >= launch.local_base && a.addresses.front() < launch.local_base + 0x10000)
        local_seen = true;
    EXPECT_TRUE(local_seen) << file;
  }
}

TEST(PtxPrograms, AnOutOfBoundsLoadNamesTheKernelCtaThreadLineAndAddress) {
  auto m = parse_module(read_data("saxpy.clang.ptx"), "saxpy.clang.ptx");
  Kernel k(m, "_Z5saxpyifPKfPf");
  VectorMemory mem;
  const std::uint64_t xa = mem.add(std::vector<float>(100)), ya = mem.add(std::vector<float>(128));
  LaunchSpec launch;
  launch.block = {128, 1, 1};
  launch.params = Params().add(k, 0, 128).add(k, 1, 1.0f).add(k, 2, xa).add(k, 3, ya).bytes;
  RecordingSink sink;
  try {
    k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
    FAIL() << "no error";
  } catch (const ExecutionError& e) {
    EXPECT_EQ(e.kind, ExecutionError::Kind::kOutOfBounds);
    // x has 100 floats: thread 100 (warp 3, lane 4) is the first past it, at x + 400 = 0x10190; the load of
    // x is line 37 of the listing, its tab-indented opcode at column 2.
    EXPECT_EQ(std::string(e.what()),
              "saxpy.clang.ptx:37:2: out-of-bounds global load of 4 bytes at address 0x10190 in kernel "
              "'_Z5saxpyifPKfPf', CTA (0,0,0), thread (100,0,0)");
  }
}

// Runs `entry` of tests/data/ptx/<file> over grid x block threads.
void run_grid(const Kernel& k, Dim3 grid, Dim3 block, const std::vector<std::uint8_t>& params,
              VectorMemory& mem, RecordingSink& sink) {
  LaunchSpec launch;
  launch.grid = grid;
  launch.block = block;
  launch.params = params;
  for (std::uint32_t y = 0; y < grid.y; ++y)
    for (std::uint32_t x = 0; x < grid.x; ++x)
      k.execute_cta(launch, {x, y, 0}, mem, sink, {});
}

TEST(PtxPrograms, RodiniaStyleHistogramBfsAndHotspotFromClangAndNvcc) {
  for (const char* file : {"rodinia_like.clang.ptx", "rodinia_like.nvcc.ptx"}) {
    auto m = parse_module(read_data(file), file);
    {  // histogram: shared-memory atomics on bytes, then one global atomic per bin and CTA
      Kernel k(m, "_Z9histogramPKhPji");
      const int n = 5000;
      std::vector<std::uint8_t> data(n);
      std::vector<unsigned> expect(256);
      for (int i = 0; i < n; ++i) {
        data[i] = std::uint8_t((i * 37) ^ (i >> 3));
        ++expect[data[i]];
      }
      VectorMemory mem;
      const std::uint64_t da = mem.add(data), ba = mem.add(std::vector<unsigned>(256));
      RecordingSink sink;
      run_grid(k, {3, 1, 1}, {256, 1, 1}, Params().add(k, 0, da).add(k, 1, ba).add(k, 2, n).bytes, mem, sink);
      EXPECT_EQ(mem.get<unsigned>(ba), expect) << file;
    }
    {  // bfs: one level from vertex 0 of a ring with chords; byte-wide flags
      Kernel k(m, "_Z3bfsPK4NodePKiPbS4_S4_Pii");
      const int n = 1000;
      std::vector<int> nodes, edges;
      for (int v = 0; v < n; ++v) {
        nodes.push_back(int(edges.size()));
        nodes.push_back(2);
        edges.push_back((v + 1) % n);
        edges.push_back((v * 7) % n);
      }
      std::vector<std::uint8_t> mask(n), updating(n), visited(n);
      mask[0] = visited[0] = 1;
      mask[500] = visited[500] = 1;
      std::vector<int> cost(n, -1);
      cost[0] = 0;
      cost[500] = 0;
      VectorMemory mem;
      const std::uint64_t na = mem.add(nodes), ea = mem.add(edges), ma = mem.add(mask),
                          ua = mem.add(updating), va = mem.add(visited), ca = mem.add(cost);
      RecordingSink sink;
      run_grid(k, {2, 1, 1}, {512, 1, 1},
               Params()
                   .add(k, 0, na)
                   .add(k, 1, ea)
                   .add(k, 2, ma)
                   .add(k, 3, ua)
                   .add(k, 4, va)
                   .add(k, 5, ca)
                   .add(k, 6, n)
                   .bytes,
               mem, sink);
      const auto c = mem.get<int>(ca);
      const auto u = mem.get<std::uint8_t>(ua);
      // 0's neighbours: 1 and 0 (visited); 500's: 501 and 3500 % 1000 = 500 (visited)
      for (int v = 0; v < n; ++v) {
        const bool next = v == 1 || v == 501;
        EXPECT_EQ(c[v], next ? 1 : (v == 0 || v == 500) ? 0 : -1) << file << " " << v;
        EXPECT_EQ(u[v], next ? 1 : 0) << file << " " << v;
      }
      EXPECT_EQ(mem.get<std::uint8_t>(ma)[0], 0) << file;
    }
    {  // hotspot: a 2D grid of 16 x 16 CTAs with a halo in shared memory
      Kernel k(m, "_Z7hotspotPKfS0_Pfiifffff");
      const int cols = 40, rows = 20;
      std::vector<float> power(cols * rows), temp(cols * rows);
      for (int i = 0; i < cols * rows; ++i) {
        power[i] = float(i % 5);
        temp[i] = 300.0f + float(i % 11);
      }
      const float cap = 0.5f, rx = 0.1f, ry = 0.2f, rz = 0.3f, amb = 80.0f;
      VectorMemory mem;
      const std::uint64_t pa = mem.add(power), ta = mem.add(temp),
                          oa = mem.add(std::vector<float>(cols * rows));
      RecordingSink sink;
      run_grid(k, {3, 2, 1}, {16, 16, 1},
               Params()
                   .add(k, 0, pa)
                   .add(k, 1, ta)
                   .add(k, 2, oa)
                   .add(k, 3, cols)
                   .add(k, 4, rows)
                   .add(k, 5, cap)
                   .add(k, 6, rx)
                   .add(k, 7, ry)
                   .add(k, 8, rz)
                   .add(k, 9, amb)
                   .bytes,
               mem, sink);
      const auto out = mem.get<float>(oa);
      auto at = [&](int y, int x) {
        x = std::min(std::max(x, 0), cols - 1);
        y = std::min(std::max(y, 0), rows - 1);
        return temp[y * cols + x];
      };
      for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
          const float c = at(y, x);
          const float e = c + cap * (power[y * cols + x] + (at(y + 1, x) + at(y - 1, x) - 2.0f * c) * ry +
                                     (at(y, x + 1) + at(y, x - 1) - 2.0f * c) * rx + (amb - c) * rz);
          EXPECT_NEAR(out[y * cols + x], e, 1e-3f) << file << " " << x << "," << y;
        }
    }
  }
}

// nvcc's inlined CUDA math library (libdevice) on values 0.05 .. 3.2: within a few ulps of the host's libm
// (both are accurate to 1-2 ulps), and the integer part exactly.
TEST(PtxPrograms, NvccsInlinedMathLibraryAgreesWithTheHost) {
  auto m = parse_module(read_data("math_nvcc.nvcc.ptx"), "math_nvcc.nvcc.ptx");
  Kernel k(m, "_Z4mathPKfPfPdPii");
  const int n = 64, d = 7;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = 0.05f * float(i + 1);
  VectorMemory mem;
  const std::uint64_t ia = mem.add(in), oa = mem.add(std::vector<float>(n)),
                      da = mem.add(std::vector<double>(n)), qa = mem.add(std::vector<int>(n));
  // The module's variables (sinf's table of 2/pi) where the runtime would put them.
  std::vector<std::uint64_t> vars;
  for (const VariableInfo& v : module_variables(*m)) {
    std::vector<std::uint8_t> bytes = v.initial;
    bytes.resize(v.bytes);
    vars.push_back(mem.add(bytes));
  }
  LaunchSpec launch;
  launch.block = {64, 1, 1};
  launch.local_base = 0x7000'0000;
  launch.params = Params().add(k, 0, ia).add(k, 1, oa).add(k, 2, da).add(k, 3, qa).add(k, 4, d).bytes;
  RecordingSink sink;
  k.execute_cta(launch, {0, 0, 0}, mem, sink, vars);
  const auto out = mem.get<float>(oa);
  const auto dout = mem.get<double>(da);
  const auto iout = mem.get<int>(qa);
  for (int t = 0; t < n; ++t) {
    const float x = in[t];
    const float e = std::exp(x) + std::log(x + 1.0f) + std::pow(x, 1.5f) + std::sin(x) + std::cos(x) +
                    std::sqrt(x) + 1.0f / std::sqrt(x + 1.0f) + std::erf(x) + std::floor(x) + std::fabs(-x) +
                    std::tanh(x) + x / 3.0f + std::fmin(x, 2.0f);
    EXPECT_NEAR(out[t], e, 2e-6f * std::fabs(e)) << t;
    const double y = x;
    const double de = std::exp(y) + std::sqrt(y) + std::log(y + 1.0) + y / (y + 2.0);
    EXPECT_NEAR(dout[t], de, 1e-14 * std::fabs(de)) << t;
    const long long q = (long long)t * 1000003LL;
    unsigned brev = 0;
    for (int b = 0; b < 32; ++b)
      brev |= ((unsigned(t) >> b) & 1u) << (31 - b);
    const unsigned ie = unsigned(int(q / d)) + unsigned(t % d) + unsigned(int(q >> 7)) +
                        unsigned(t == 0 ? 32 : __builtin_clz(unsigned(t))) +
                        unsigned(__builtin_popcount(unsigned(t))) + brev +
                        unsigned(t == 0 ? 0 : __builtin_ctz(unsigned(t)) + 1);
    EXPECT_EQ(unsigned(iout[t]), ie) << t;
  }
}

// nvcc's lowering of CUDA's intrinsics: butterfly shuffles, votes, atomics of every kind, __ldg, fences,
// clock64, half precision, integer intrinsics and float4 loads.
TEST(PtxPrograms, NvccsIntrinsicsDoWhatCudaDocumentsThem) {
  Kernel k(parse_module(read_data("intrinsics_nvcc.nvcc.ptx"), "intrinsics_nvcc.nvcc.ptx"),
           "_Z10intrinsicsPK6float4PKfPdPjPyP6__halfi");
  const int n = 64;
  std::vector<float> v4(4 * n), f(n);
  for (int t = 0; t < n; ++t) {
    for (int c = 0; c < 4; ++c)
      v4[4 * t + c] = 0.5f * float(c == 0 ? t : c);
    f[t] = 0.03f * float(t) + 0.01f;
  }
  std::vector<unsigned> u(16 + n, 0);
  u[5] = 0x1234;
  u[8] = 0xffffffffu;
  VectorMemory mem;
  const std::uint64_t va = mem.add(v4), fa = mem.add(f), da = mem.add(std::vector<double>(1 + n)),
                      ua = mem.add(u), la = mem.add(std::vector<unsigned long long>(2)),
                      ha = mem.add(std::vector<std::uint16_t>(n));
  LaunchSpec launch;
  launch.block = {64, 1, 1};
  launch.params = Params()
                      .add(k, 0, va)
                      .add(k, 1, fa)
                      .add(k, 2, da)
                      .add(k, 3, ua)
                      .add(k, 4, la)
                      .add(k, 5, ha)
                      .add(k, 6, n)
                      .bytes;
  RecordingSink sink;
  k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
  const auto d = mem.get<double>(da);
  const auto uo = mem.get<unsigned>(ua);
  const auto ull = mem.get<unsigned long long>(la);
  const auto h = mem.get<std::uint16_t>(ha);
  double sum = 0;
  for (int t = 0; t < n; ++t)
    sum += double(f[t]);
  EXPECT_EQ(d[0], sum);                       // atomics in thread order: the same sum
  EXPECT_EQ(uo[1], float_to_bits(f[n - 1]));  // the last exchange
  EXPECT_EQ(uo[2], 64u);                      // inc below its bound 100
  EXPECT_EQ(uo[3], 37u);                      // dec from 0 wraps to 100, then 63 more: 37
  EXPECT_EQ(uo[4], 0u - 64u);
  EXPECT_EQ(uo[5], 0x34u);
  EXPECT_EQ(uo[6], 31u);
  EXPECT_EQ(uo[7], 0u);  // each lane number xored twice
  EXPECT_EQ(uo[8], 0u);
  EXPECT_EQ(ull[0], 63u);
  EXPECT_EQ(ull[1], 1u);  // thread 0 swaps 0 for 0, thread 1 0 for 1, the rest find 1
  for (int t = 0; t < n; ++t) {
    const unsigned lane = unsigned(t) % 32, warp = unsigned(t) / 32;
    // the butterfly sum, in the shuffles' order
    std::vector<float> s(f.begin() + 32 * warp, f.begin() + 32 * warp + 32);
    for (unsigned o = 16; o > 0; o /= 2) {
      std::vector<float> next(32);
      for (unsigned l = 0; l < 32; ++l)
        next[l] = s[l] + s[l ^ o];
      s = next;
    }
    bool any = false;
    for (unsigned l = 0; l < 32; ++l)
      any |= f[32 * warp + l] > 1.0f;
    const std::uint16_t hh = float_to_half(half_to_float(float_to_half(f[t])) + 1.0f);
    EXPECT_EQ(h[t], hh) << t;
    const unsigned ut = unsigned(t);
    const unsigned w =
        unsigned((std::uint64_t(ut) * 0x9e3779b9u) >> 32) + ut * 3 + (ut > 7 ? ut - 7 : 7 - ut) + 1 + ut +
        ((lane << 5) | (ut >> 27)) + unsigned(t == 0 ? 64 : __builtin_clzll(std::uint64_t(t))) +
        unsigned(__builtin_popcountll(std::uint64_t(t))) + unsigned(t == 0 ? 0 : __builtin_ctzll(t) + 1);
    EXPECT_EQ(uo[16 + t], w + (any ? 1u : 0u) + 1u + 0xffffffffu) << t;
    const float a = v4[4 * t] + v4[4 * t + 1] + v4[4 * t + 2] + v4[4 * t + 3] + s[lane];
    EXPECT_EQ(d[1 + t], double(a) + double(half_to_float(hh))) << t;
  }
}

// Device functions that are not inlined (calls.cu): structs by value through .param, nested calls, an
// early return in a callee, each call site its own copy.
TEST(PtxPrograms, CallsOfDeviceFunctionsPassStructsAndReturnValues) {
  const int n = 5;
  std::vector<float> in(64);
  for (int i = 0; i < 64; ++i)
    in[i] = 0.5f * float(i) + 1.0f;
  for (const char* file : {"calls.clang.ptx", "calls.nvcc.ptx"}) {
    Kernel k(parse_module(read_data(file), file), "_Z5callsPKfPfi");
    VectorMemory mem;
    const std::uint64_t ia = mem.add(in), oa = mem.add(std::vector<float>(64));
    RecordingSink sink;
    run_grid(k, {1, 1, 1}, {64, 1, 1}, Params().add(k, 0, ia).add(k, 1, oa).add(k, 2, n).bytes, mem, sink);
    const auto out = mem.get<float>(oa);
    for (unsigned t = 0; t < 64; ++t) {
      const float s = t % 3 == 0 ? 0.0f : 0.5f;
      const float pa = s == 0.0f ? 0.0f : float(t) * s, pb = s == 0.0f ? 0.0f : in[t] * s;
      float r = 0.0f;
      for (unsigned i = 0; i < t % 4 + n; ++i)
        r += in[i];
      const float via = 1.0f * 2.0f + r * 2.0f;  // swap_scale({r, 1}, 2) = {2, 2 r}
      EXPECT_EQ(out[t], pa + 10.0f * pb + via) << file << " " << t;
    }
  }
}

}  // namespace
}  // namespace numagpu::ptx::test
