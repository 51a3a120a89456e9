// The source of vector_add.fatbin (tests/cuda/fatbin_test.cpp): a one-kernel CUDA program built by nvcc
// (CUDA 13.0) as PTX only, `nvcc -arch=compute_75 -code=compute_75 -cudart shared vector_add.cu`, and of
// vector_add_uncompressed.fatbin, the same with `-no-compress`; make_fatbin.sh rebuilds the first from it
// where nvcc is installed.
__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() { return 0; }
