// hotspot, one launch of calculate_temp: the CUDA version of the C++ library kernel rodinia/hotspot
// (models/kernels/rodinia/hotspot.cpp) with its default arguments "rows=1024 cols=1024 pyramid=2": the same
// launch (86 x 86 CTAs of 16 x 16 threads), the same arrays in the same order (power, temp_src, temp_dst)
// and the same accesses (each in-grid tile cell loads temp_src and power, each computed cell stores
// temp_dst). Usage: hotspot [rows cols pyramid].
#include "common.h"
#include "hotspot_kernel.cuh"

int main(int argc, char** argv) {
  const int rows = argc > 3 ? std::atoi(argv[1]) : 1024, cols = argc > 3 ? std::atoi(argv[2]) : 1024;
  const int pyramid = argc > 3 ? std::atoi(argv[3]) : 2;
  const size_t cells = (size_t)rows * cols;
  const HotspotChip chip = hotspot_chip();
  std::vector<float> power(cells), temp(cells), result(cells);
  hotspot_input(7, power, temp);
  float *d_power, *d_src, *d_dst;
  CHECK_CUDA(cudaMalloc(&d_power, cells * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_src, cells * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_dst, cells * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_power, power.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_src, temp.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  launch_calculate_temp(pyramid, d_power, d_src, d_dst, rows, cols, chip);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(result.data(), d_dst, cells * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_power));
  CHECK_CUDA(cudaFree(d_src));
  CHECK_CUDA(cudaFree(d_dst));
  const std::vector<float> want = hotspot_reference(temp, power, rows, cols, pyramid, chip);
  return report("hotspot", count_mismatches("temp_dst", result.data(), want.data(), (long)cells, 1e-5));
}
