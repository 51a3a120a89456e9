// Shared by rodinia/backprop_layerforward and rodinia/backprop_adjust_weights (not a kernel file: the build
// lists only models/kernels/*/*.cpp as kernels): Rodinia 3.1 backprop's input-to-hidden weight layout and
// launch shape, and the arguments of the GV100 study's run (`backprop 65536`).
#pragma once

#include "kernels/library.hpp"

namespace numagpu::kernels::backprop {

constexpr std::int64_t kHeight = 16, kWidth = 16;  // HEIGHT, WIDTH of backprop.h: the 16 x 16 tile

inline std::vector<ArgSpec> args() {
  return {{"in", 65536, 16, 1 << 24, "input layer units (a multiple of 16)"},
          {"hid", 16, 16, 16, "hidden units (16: the tile width of the source)"}};
}

// The argument `in`, checked: one CTA per 16 input units.
inline std::int64_t checked_in(std::int64_t in) {
  if (in % kHeight) throw KernelError("argument 'in': must be a multiple of 16 (one CTA per 16 input units)");
  return in;
}

// Grid 1 x in / 16 (bpnn_train_cuda's num_blocks), 16 x 16 threads.
inline Launch launch(std::int64_t in) {
  Launch l;
  l.grid = {1, static_cast<std::uint32_t>(in / kHeight), 1};
  l.block = {kWidth, kHeight, 1};
  return l;
}

// index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1): row 16 by + ty + 1, column tx + 1
// of the (in + 1) x (hid + 1) weights.
inline V<std::int64_t> weight_index(const Cta& c, std::int64_t hid, const V<std::int64_t>& tx,
                                    const V<std::int64_t>& ty) {
  return (hid + 1) * ty + tx + ((hid + 1) * kHeight * c.blockIdx.y + 1 + (hid + 1));
}

// LASP's index terms of weight_index and unit_index: blockIdx.y and no loop (the grid is one column of
// CTAs, blockIdx.x is always 0 and not in either): the CTAs of a grid row share a datablock, LADM Table II
// row 2 without motion (row binding, row-based placement).
inline constexpr runtime::IndexTerms kRowOfCta{false, true, false, runtime::LoopVariant::kNone, 0};

// index_in / index_y = HEIGHT * by + ty + 1: the input unit of the thread's row.
inline V<std::int64_t> unit_index(const Cta& c, const V<std::int64_t>& ty) {
  return ty + (kHeight * c.blockIdx.y + 1);
}

}  // namespace numagpu::kernels::backprop
