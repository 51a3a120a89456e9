// backprop, both kernels of Rodinia's training step: bpnn_layerforward and bpnn_adjust_weights, the CUDA
// versions of the C++ library kernels rodinia/backprop_layerforward and rodinia/backprop_adjust_weights
// (models/kernels/rodinia/backprop_*.cpp) with their default arguments "in=65536 hid=16": a grid of
// 1 x in / 16 CTAs of 16 x 16 threads over the (in + 1) x (hid + 1) row-major weights. The arrays are
// allocated as the two library kernels name them (input_cuda, input_hidden_cuda, hidden_partial_sum;
// hidden_delta_cuda, input_prev_weights_cuda). Usage: backprop [in].
#include "common.h"

#include <vector>

constexpr int kHeight = 16, kWidth = 16;  // the 16 x 16 tile
constexpr double kEta = 0.3, kMomentum = 0.3;

// The forward pass of 16 input units into the 16 hidden units: each CTA multiplies its 16 x 16 tile of
// weights by its 16 inputs and sums the rows by a tree in shared memory; row 0 of the tile goes to
// hidden_partial_sum[by * hid + tx].
__global__ void bpnn_layerforward(const float* input_cuda, float* input_hidden_cuda,
                                  float* hidden_partial_sum, int in, int hid) {
  (void)in;
  const int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int index = (hid + 1) * kHeight * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  const int index_in = kHeight * by + ty + 1;
  __shared__ float input_node[kHeight];
  __shared__ float weight_matrix[kHeight][kWidth];
  if (tx == 0) input_node[ty] = input_cuda[index_in];
  __syncthreads();
  weight_matrix[ty][tx] = input_hidden_cuda[index];
  __syncthreads();
  weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
  __syncthreads();
  for (int i = 1; i <= __log2f(kHeight); i++) {
    const int power_two = __powf(2, i);
    if (ty % power_two == 0)
      weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
    __syncthreads();
  }
  input_hidden_cuda[index] = weight_matrix[ty][tx];
  __syncthreads();
  if (tx == 0) hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}

// The weight update with momentum; CTA 0's first row also updates the bias row.
__global__ void bpnn_adjust_weights(const float* delta, int hid, const float* ly, int in, float* w,
                                    float* oldw) {
  (void)in;
  const int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int index = (hid + 1) * kHeight * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  const int index_y = kHeight * by + ty + 1;
  const int index_x = tx + 1;
  w[index] += ((kEta * delta[index_x] * ly[index_y]) + (kMomentum * oldw[index]));
  oldw[index] = ((kEta * delta[index_x] * ly[index_y]) + (kMomentum * oldw[index]));
  __syncthreads();
  if (ty == 0 && by == 0) {
    w[index_x] += ((kEta * delta[index_x]) + (kMomentum * oldw[index_x]));
    oldw[index_x] = ((kEta * delta[index_x]) + (kMomentum * oldw[index_x]));
  }
}

int main(int argc, char** argv) {
  const int in = argc > 1 ? std::atoi(argv[1]) : 65536, hid = 16;
  if (in < 16 || in % 16 != 0) {
    std::fprintf(stderr, "backprop: in must be a positive multiple of 16\n");
    return 2;
  }
  const int blocks = in / kHeight;
  const size_t weights = (size_t)(in + 1) * (hid + 1);
  std::vector<float> input(in + 1), w(weights), oldw(weights), delta(hid + 1);
  Lcg rng(5);
  for (auto& v : input)
    v = rng.uniform();
  for (auto& v : w)
    v = rng.uniform() - 0.5f;
  for (auto& v : oldw)
    v = 0.1f * (rng.uniform() - 0.5f);
  for (auto& v : delta)
    v = rng.uniform() - 0.5f;

  float *d_input, *d_w, *d_partial, *d_delta, *d_oldw;
  CHECK_CUDA(cudaMalloc(&d_input, (in + 1) * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_w, weights * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_partial, (size_t)blocks * kWidth * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_delta, (hid + 1) * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_oldw, weights * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_input, input.data(), (in + 1) * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_w, w.data(), weights * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_delta, delta.data(), (hid + 1) * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_oldw, oldw.data(), weights * sizeof(float), cudaMemcpyHostToDevice));
  const dim3 grid(1, blocks), threads(kWidth, kHeight);
  bpnn_layerforward<<<grid, threads>>>(d_input, d_w, d_partial, in, hid);
  CHECK_LAUNCH();
  std::vector<float> partial((size_t)blocks * kWidth), w_forward(weights);
  CHECK_CUDA(cudaMemcpy(partial.data(), d_partial, partial.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(w_forward.data(), d_w, weights * sizeof(float), cudaMemcpyDeviceToHost));
  bpnn_adjust_weights<<<grid, threads>>>(d_delta, hid, d_input, in, d_w, d_oldw);
  CHECK_LAUNCH();
  std::vector<float> w_after(weights), oldw_after(weights);
  CHECK_CUDA(cudaMemcpy(w_after.data(), d_w, weights * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(oldw_after.data(), d_oldw, weights * sizeof(float), cudaMemcpyDeviceToHost));
  for (float* p : {d_input, d_w, d_partial, d_delta, d_oldw})
    CHECK_CUDA(cudaFree(p));

  // CPU reference. layerforward: each column sum of a tile's 16 products is hidden_partial_sum[by][col];
  // the weights keep the tree's partial sums (row r of a tile ends as the sum of rows r .. r + 2^k - 1 for
  // the largest 2^k dividing r, all 16 for row 0), which the reference reproduces step by step.
  std::vector<float> want_w(w), want_partial(partial.size());
  for (int by = 0; by < blocks; ++by) {
    float tile[kHeight][kWidth];
    for (int ty = 0; ty < kHeight; ++ty)
      for (int tx = 0; tx < kWidth; ++tx)
        tile[ty][tx] = w[(size_t)(hid + 1) * (kHeight * by + ty + 1) + tx + 1] * input[kHeight * by + ty + 1];
    for (int p = 2; p <= kHeight; p *= 2)
      for (int ty = 0; ty < kHeight; ty += p)
        for (int tx = 0; tx < kWidth; ++tx)
          tile[ty][tx] += tile[ty + p / 2][tx];
    for (int ty = 0; ty < kHeight; ++ty)
      for (int tx = 0; tx < kWidth; ++tx)
        want_w[(size_t)(hid + 1) * (kHeight * by + ty + 1) + tx + 1] = tile[ty][tx];
    for (int ty = 0; ty < kHeight; ++ty)
      want_partial[(size_t)by * hid + ty] = tile[0][ty];
  }
  long bad =
      count_mismatches("hidden_partial_sum", partial.data(), want_partial.data(), (long)partial.size(), 1e-4);
  bad += count_mismatches("weights after layerforward", w_forward.data(), want_w.data(), (long)weights, 1e-4);
  // adjust_weights on the weights layerforward left.
  std::vector<float> want_oldw(oldw), want_w2(want_w);
  for (int row = 1; row <= in; ++row)
    for (int col = 1; col <= hid; ++col) {
      const size_t i = (size_t)(hid + 1) * row + col;
      const double change = kEta * delta[col] * input[row] + kMomentum * oldw[i];
      want_w2[i] = (float)(want_w[i] + change);
      want_oldw[i] = (float)change;
    }
  for (int col = 1; col <= hid; ++col) {  // the bias row, from the updated oldw
    const double change = kEta * delta[col] + kMomentum * want_oldw[col];
    want_w2[col] = (float)(want_w2[col] + change);
    want_oldw[col] = (float)change;
  }
  bad += count_mismatches("weights", w_after.data(), want_w2.data(), (long)weights, 1e-5);
  bad += count_mismatches("previous weights", oldw_after.data(), want_oldw.data(), (long)weights, 1e-5);
  return report("backprop", bad);
}
