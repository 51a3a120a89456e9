// parboil/sad_mb_sad_calc: mb_sad_calc of Parboil's sad, CUDA version (benchmarks/sad/src/cuda/sad4.cu,
// sad4.h, sad.h, main.cu; learned from them, written here anew): the sums of absolute differences of every
// 4 x 4 block of the current frame against the reference frame at each of the 33 x 33 = 1,089 search
// positions within +-16 pixels (the first step of H.264 variable-block-size motion estimation).
// Constants: SEARCH_RANGE 16, SEARCH_DIMENSION 33, MAX_POS 1089, MAX_POS_PADDED 1096, POS_PER_THREAD 18,
// THREADS_W = THREADS_H = 1. Grid (width / 4, height / 4): one CTA per 4 x 4 block; block CEIL(1089, 18) =
// 61 threads (2 warps, the second with 29 threads); 2,192 B of dynamic shared memory (sad_loc) + 32 B
// (frame_loc). Per CTA:
//   1. threads 0..15 copy the block's 16 pixels of the current frame into frame_loc (thread g reads
//      frame[(4 by + g / 4) x width + 4 bx + g % 4]); a barrier;
//   2. thread t computes positions 18 t .. min(18 t + 18, 1089) - 1 three at a time (thread 60 has 9, the
//      others 18: 3 or 6 iterations): per iteration 4 rows x 6 texels of the reference frame at (ref_x +
//      local_x + 0..5, ref_y + t's row + y), with ref_x = 4 bx - 16, ref_y = 4 by - 16, local_x = 18 t mod
//      33 advanced by 3 and wrapped (a divergent branch), the block's pixels read from frame_loc (the same
//      words for every thread), and 3 SADs stored to sad_loc[pos .. pos + 2]; a barrier;
//   3. warp 0 copies sad_loc out as 274 8-byte words to blk_sad at the 4 x 4 SADs' section (offset (25 x
//      mbs + 16 x (mb_y x mb_width + mb_x) + 4 block_y + block_x) x 1096 shorts): lane l words l, l + 32, ...
//      (lanes 0..17 nine, the others eight).
//
// Reference input of the GV100 study: dataset "large" (reference.bin, frame.bin): frames 600 and 601 of the
// "Sintel" trailer in greyscale, 1920 x 1072 pixels (the dataset's DESCRIPTION, Parboil
// datasets/sad/large/input/): a grid of 480 x 268 = 128,640 CTAs over 120 x 67 macroblocks. (The "default"
// dataset is 176 x 144: width=176 height=144.)
// Input generation: the frames are 16-bit pixels (the image files' contents); no value steers an address or
// a branch, so the arrays carry no data.
//
// Simplified: the reference frame is read through a 2-D texture (tex2D, clamped addressing) on the GPU;
// here it is a row-major array of width x height shorts read with texture fetches (Cta::texture_load: the
// texture pipeline's latency, then the L1) at the clamped coordinates (the 2-D layout is not modelled). The 12 FRAME_GET reads per row of
// the 4 x 4 SAD touch 4 distinct words: charged as 4 shared broadcast loads (nvcc loads each once).
// Per row: 12 x (subtract, absolute value, add) = 36 integer instructions; per texel one address add. These
// are computed with values: each texel's coordinate add feeds its fetch's address, the 4 pixel reads are
// Shared::broadcast values, and the 12 terms feed three accumulators (one per search position, independent
// chains through the 4 rows) whose sums the 3 shared stores write.
#include <algorithm>
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kSearchRange = 16, kSearchDim = 33, kMaxPos = 1089, kMaxPosPadded = 1096;
constexpr std::int64_t kPosPerThread = 18;
constexpr std::int64_t kThreads = (kMaxPos + kPosPerThread - 1) / kPosPerThread;  // 61
constexpr std::int64_t kRow8B = kMaxPosPadded / 4;                                // 274 8-byte words

// An integer operation the engine has no operator for (&, >>, %, min): one integer instruction.
template <class F>
V<std::int64_t> integer(const V<std::int64_t>& a, F f) {
  return map(a, InstrClass::kInt, f);
}

class MbSadCalc : public Kernel {
 public:
  explicit MbSadCalc(const Args& a)
      : Kernel(a),
        width_(a["width"]),
        height_(a["height"]),
        mbs_(width_ / 16 * (height_ / 16)),
        frame_(array<std::uint16_t>("frame", std::uint64_t(width_ * height_), std::uint64_t(height_),
                                    std::uint64_t(width_))),
        ref_(array<std::uint16_t>("ref", std::uint64_t(width_ * height_), std::uint64_t(height_),
                                  std::uint64_t(width_))),
        sads_(array<std::uint16_t>("blk_sad", std::uint64_t(41 * kMaxPosPadded * mbs_))) {
    if (width_ % 16 || height_ % 16) throw KernelError("arguments 'width', 'height': not multiples of 16");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(width_ / 4), static_cast<std::uint32_t>(height_ / 4), 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 32;
    l.shared_bytes = kMaxPosPadded * 2 + 16 * 2;  // sad_loc (dynamic) + frame_loc
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const std::int64_t bx = c.blockIdx.x, by = c.blockIdx.y, mb_width = width_ / 16, mb_height = height_ / 16;
    const std::int64_t frame_x = bx * 4, frame_y = by * 4;  // THREADS_W = THREADS_H = 1: tx = ty = 0
    const bool valid = (frame_x >> 4) < mb_width && (frame_y >> 4) < mb_height;
    const V<std::int64_t> t = c.threadIdx_x();
    Cta::Shared<std::uint16_t> frame_loc(c, 16), sad_loc(c, kMaxPosPadded);
    Cta::Shared<std::uint64_t> sad_loc_8b(c, kRow8B);  // the same bytes, as vec8b

    // 1. The block's pixels into frame_loc, 16 threads.
    c.if_(t < 16, [&] {
      const V<std::int64_t> g = integer(t, [](std::int64_t x) { return x & 15; });
      c.charge(InstrClass::kBranch);
      if (!valid) return;
      const V<std::int64_t> at = integer(g, [](std::int64_t x) { return x >> 2; }) * width_ +
                                 integer(g, [](std::int64_t x) { return x & 3; }) +
                                 (frame_y * width_ + frame_x);
      frame_loc.store(g, c.load(frame_, at));
    });
    c.syncthreads();

    // 2. The SADs of this thread's search positions.
    c.charge(InstrClass::kBranch);
    if (valid) {
      const std::int64_t ref_x = frame_x - kSearchRange, ref_y = frame_y - kSearchRange;
      V<std::int64_t> pos = integer(t, [](std::int64_t x) { return x % kThreads; }) * kPosPerThread;
      const V<std::int64_t> end =
          integer(pos, [](std::int64_t x) { return std::min(x + kPosPerThread, kMaxPos); });
      const V<std::int64_t> sotmp = pos / kSearchDim;
      V<std::int64_t> local_x = pos - sotmp * kSearchDim;
      V<std::int64_t> off_y = sotmp + ref_y;
      c.while_([&] { return pos < end; },
               [&] {
                 const V<std::int64_t> off_x = local_x + ref_x;
                 // The three positions' sums: three independent chains of adds through the 4 rows.
                 std::vector<V<std::int64_t>> sad(3, V<std::int64_t>(c, 0));
                 for (std::int64_t y = 0; y < 4; ++y) {
                   std::vector<V<std::uint16_t>> ref;
                   ref.reserve(6);
                   for (std::int64_t dx = 0; dx < 6; ++dx)  // the coordinate (an add), then the fetch
                     ref.push_back(c.texture_load(ref_, texel(c, off_x + dx, off_y, y)));
                   std::vector<V<std::uint16_t>> cur;
                   cur.reserve(4);
                   for (std::uint64_t x = 0; x < 4; ++x)
                     cur.push_back(frame_loc.broadcast(std::uint64_t(y) * 4 + x));
                   // 12 x (sub, abs, add): position k's term x is |frame[y][x] - ref[y][x + k]|.
                   for (std::int64_t x = 0; x < 4; ++x)
                     for (std::int64_t k = 0; k < 3; ++k) {
                       const V<std::int64_t> d =
                           zip(cur[x], ref[x + k], InstrClass::kInt, [](std::uint16_t f, std::uint16_t r) {
                             return std::int64_t(f) - std::int64_t(r);
                           });
                       sad[k] = sad[k] + integer(d, [](std::int64_t v) { return v < 0 ? -v : v; });
                     }
                 }
                 for (std::int64_t k = 0; k < 3; ++k)
                   sad_loc.store(pos, to_short(sad[k]), k);
                 local_x = local_x + 3;
                 c.if_(local_x >= kSearchDim, [&] {
                   local_x = local_x - kSearchDim;
                   off_y = off_y + 1;
                 });
                 pos = pos + 3;
               });
    }
    c.syncthreads();

    // 3. Warp 0 copies the 1,096 SADs out, 8 bytes a lane.
    c.if_(integer(t, [](std::int64_t x) { return x >> 5; }) < 1, [&] {
      const std::int64_t mb_x = bx >> 2, mb_y = by >> 2, block_x = bx & 3, block_y = by & 3;
      c.charge(InstrClass::kBranch);
      if (!valid) return;
      const std::int64_t base =
          (mbs_ * 25 + (mb_y * mb_width + mb_x) * 16 + (4 * block_y + block_x)) * kMaxPosPadded / 4;
      const Array<std::uint64_t> out{sads_.name, sads_.base, sads_.count / 4, nullptr};
      V<std::int64_t> index = integer(t, [](std::int64_t x) { return x & 31; });
      c.while_([&] { return index < kRow8B; },
               [&] {
                 c.store(out, index + base, sad_loc_8b.load(index));
                 index = index + 32;
               });
    });
  }

  // The texel tex2D reads at (x, off_y + y), clamped to the frame as the texture's default addressing does,
  // as an element of the row-major array (no instruction: the texture unit's work; ready when x is).
  V<std::int64_t> texel(Cta& c, const V<std::int64_t>& x, const V<std::int64_t>& off_y,
                        std::int64_t y) const {
    V<std::int64_t> r = Uninitialized<std::int64_t>::make(c);
    for (unsigned i = 0; i < c.threads(); ++i) {
      const std::int64_t px = std::clamp<std::int64_t>(x[i], 0, width_ - 1);
      const std::int64_t py = std::clamp<std::int64_t>(off_y[i] + y, 0, height_ - 1);
      r[i] = py * width_ + px;
    }
    if (c.dependent())
      for (unsigned w = 0; w < c.warps(); ++w)
        r.ready_data()[w] = x.ready(w);
    return r;
  }
  // A sum stored as a short (the store's width; no instruction), ready when the sum is.
  static V<std::uint16_t> to_short(const V<std::int64_t>& a) {
    V<std::uint16_t> r = Uninitialized<std::uint16_t>::make(a.cta());
    for (unsigned i = 0; i < a.size(); ++i)
      r[i] = static_cast<std::uint16_t>(a[i]);
    if (a.cta().dependent())
      for (unsigned w = 0; w < a.cta().warps(); ++w)
        r.ready_data()[w] = a.ready(w);
    return r;
  }

  std::int64_t width_, height_, mbs_;
  Array<std::uint16_t> frame_, ref_, sads_;
};

}  // namespace

LibraryEntry parboil_sad_mb_sad_calc() {
  return {"parboil/sad_mb_sad_calc",
          "Parboil sad (CUDA), kernel mb_sad_calc; GV100 study input: dataset large (1920 x 1072 frames)",
          {{"width", 1920, 16, 1 << 14, "frame width in pixels (a multiple of 16)"},
           {"height", 1072, 16, 1 << 14, "frame height in pixels (a multiple of 16)"}},
          [](const Args& a) { return std::make_unique<MbSadCalc>(a); }};
}

}  // namespace numagpu::kernels
