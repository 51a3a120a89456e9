// hotspot, the application: Rodinia's host loop (compute_tran_temp) as the C++ library application
// rodinia/hotspot (models/apps/rodinia/hotspot.cpp) runs it with its defaults "rows=2048 cols=2048 pyramid=2
// steps=8": steps / pyramid launches of calculate_temp (hotspot_kernel.cuh), the two temperature grids
// swapping roles after each (ping-pong), then the final grid checked against `steps` steps on the CPU.
// Arrays in the application's order: power, temp0, temp1. Usage: hotspot_app [rows cols pyramid steps].
#include "common.h"
#include "hotspot_kernel.cuh"

int main(int argc, char** argv) {
  const int rows = argc > 4 ? std::atoi(argv[1]) : 2048, cols = argc > 4 ? std::atoi(argv[2]) : 2048;
  const int pyramid = argc > 4 ? std::atoi(argv[3]) : 2, steps = argc > 4 ? std::atoi(argv[4]) : 8;
  if (pyramid < 1 || 16 - 2 * pyramid < 1 || steps % pyramid != 0) {
    std::fprintf(stderr, "hotspot_app: pyramid must be 1 .. 7 and divide steps\n");
    return 2;
  }
  const size_t cells = (size_t)rows * cols;
  const HotspotChip chip = hotspot_chip();
  std::vector<float> power(cells), temp(cells), result(cells);
  hotspot_input(11, power, temp);
  float *d_power, *d_temp[2];
  CHECK_CUDA(cudaMalloc(&d_power, cells * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_temp[0], cells * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_temp[1], cells * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_power, power.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_temp[0], temp.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  int src = 0;
  for (int t = 0; t < steps; t += pyramid) {
    launch_calculate_temp(pyramid, d_power, d_temp[src], d_temp[1 - src], rows, cols, chip);
    CHECK_CUDA(cudaGetLastError());
    src = 1 - src;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(result.data(), d_temp[src], cells * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_power));
  CHECK_CUDA(cudaFree(d_temp[0]));
  CHECK_CUDA(cudaFree(d_temp[1]));
  const std::vector<float> want = hotspot_reference(temp, power, rows, cols, steps, chip);
  return report("hotspot_app", count_mismatches("temp", result.data(), want.data(), (long)cells, 1e-5));
}
