// dct8x8: the CUDA versions of the C++ library kernels cuda-samples/dct8x8_CUDAkernel1DCT and
// cuda-samples/dct8x8_CUDAkernel2DCT (models/kernels/cuda-samples/dct8x8_CUDAkernel1DCT.cpp and
// dct8x8_CUDAkernel2DCT.cpp) with their default arguments "width=512 height=512": the forward 8 x 8 DCT of
// an image, by matrix products (1DCT: a CTA of 8 x 8 threads per block, DCT matrix in constant memory) and
// by the separable butterfly (2DCT: a CTA of 8 x 4 x 2 threads per 32 x 16 pixels, a 16 x 33 shared tile).
// As the library models them, 1DCT reads the image from an unpadded width x height float array (the
// sample's texture fetch as a global load) and writes a pitched one; 2DCT reads and writes pitched arrays;
// the pitch is cudaMallocPitch's (rows rounded up to 512 bytes). Arrays in their order: 1DCT Src, Dst;
// 2DCT src, dst. Usage: dct8x8 [width height [kernel]], kernel 1 or 2 runs that one alone (0, the default:
// both, 1DCT first as the sample does).
#include "common.h"

#include <cmath>
#include <vector>

constexpr int kBlock = 8;        // BLOCK_SIZE
constexpr int kKer2Width = 32;   // KER2_BLOCK_WIDTH
constexpr int kKer2Height = 16;  // KER2_BLOCK_HEIGHT
constexpr int kKer2Stride = 33;  // KER2_SMEMBLOCK_STRIDE: one word of padding against bank conflicts
__constant__ float DCTv8matrix[kBlock * kBlock];  // [k * 8 + n] = c_n cos((2 k + 1) n pi / 16)

// Dst = D^T A D per 8 x 8 block: row ty of D^T A into tile 2, then its product with D into tile 1.
__global__ void CUDAkernel1DCT(float* Dst, int ImgStride, const float* Src, int SrcWidth) {
  __shared__ float CurBlockLocal1[kBlock * kBlock];
  __shared__ float CurBlockLocal2[kBlock * kBlock];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = (blockIdx.x << 3) + tx, y = (blockIdx.y << 3) + ty;
  CurBlockLocal1[(ty << 3) + tx] = Src[y * SrcWidth + x];
  __syncthreads();
  float curelem = 0;
#pragma unroll
  for (int i = 0; i < kBlock; i++)
    curelem += DCTv8matrix[i * kBlock + ty] * CurBlockLocal1[i * kBlock + tx];
  CurBlockLocal2[(ty << 3) + tx] = curelem;
  __syncthreads();
  curelem = 0;
#pragma unroll
  for (int i = 0; i < kBlock; i++)
    curelem += CurBlockLocal2[(ty << 3) + i] * DCTv8matrix[i * kBlock + tx];
  CurBlockLocal1[(ty << 3) + tx] = curelem;
  __syncthreads();
  Dst[y * ImgStride + x] = CurBlockLocal1[(ty << 3) + tx];
}

// The source's C_a .. C_f (sqrt(2) cos(k pi / 16), k = 1, 2, 3, 5, 6, 7) and C_norm (1 / sqrt(8)).
constexpr float C_a = 1.387039845322148f;
constexpr float C_b = 1.306562964876377f;
constexpr float C_c = 1.175875602419359f;
constexpr float C_d = 0.785694958387102f;
constexpr float C_e = 0.541196100146197f;
constexpr float C_f = 0.275899379282943f;
constexpr float C_norm = 0.3535533905932737f;

// The 8-point DCT of v[0], v[step], ... in place: sums and differences of mirrored inputs, then each output.
__device__ void CUDAsubroutineInplaceDCTvector(float* v, int step) {
  const float X07P = v[0] + v[7 * step], X16P = v[step] + v[6 * step];
  const float X25P = v[2 * step] + v[5 * step], X34P = v[3 * step] + v[4 * step];
  const float X07M = v[0] - v[7 * step], X61M = v[6 * step] - v[step];
  const float X25M = v[2 * step] - v[5 * step], X43M = v[4 * step] - v[3 * step];
  const float X07P34PP = X07P + X34P, X07P34PM = X07P - X34P;
  const float X16P25PP = X16P + X25P, X16P25PM = X16P - X25P;
  v[0] = C_norm * (X07P34PP + X16P25PP);
  v[2 * step] = C_norm * (C_b * X07P34PM + C_e * X16P25PM);
  v[4 * step] = C_norm * (X07P34PP - X16P25PP);
  v[6 * step] = C_norm * (C_e * X07P34PM - C_b * X16P25PM);
  v[step] = C_norm * (C_a * X07M - C_c * X61M + C_d * X25M - C_f * X43M);
  v[3 * step] = C_norm * (C_c * X07M + C_f * X61M - C_a * X25M + C_d * X43M);
  v[5 * step] = C_norm * (C_d * X07M + C_a * X61M + C_f * X25M - C_c * X43M);
  v[7 * step] = C_norm * (C_f * X07M + C_d * X61M + C_c * X25M + C_a * X43M);
}

// Each thread copies a column of 8 pixels into the tile, transforms a row and then its column in place, and
// writes its column back.
__global__ void CUDAkernel2DCT(float* dst, const float* src, int ImgStride) {
  __shared__ float block[kKer2Height * kKer2Stride];
  const int OffsThreadInRow = threadIdx.y * kBlock + threadIdx.x;
  const int OffsThreadInCol = threadIdx.z * kBlock;
  const int offset =
      (blockIdx.y * kKer2Height + OffsThreadInCol) * ImgStride + blockIdx.x * kKer2Width + OffsThreadInRow;
  src += offset;
  dst += offset;
  float* bl_ptr = block + OffsThreadInCol * kKer2Stride + OffsThreadInRow;
#pragma unroll
  for (int i = 0; i < kBlock; i++)
    bl_ptr[i * kKer2Stride] = src[i * ImgStride];
  __syncthreads();
  CUDAsubroutineInplaceDCTvector(
      block + (OffsThreadInCol + threadIdx.x) * kKer2Stride + OffsThreadInRow - threadIdx.x, 1);
  __syncthreads();
  CUDAsubroutineInplaceDCTvector(bl_ptr, kKer2Stride);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kBlock; i++)
    dst[i * ImgStride] = bl_ptr[i * kKer2Stride];
}

// The orthonormal DCT-II matrix, [k * 8 + n] = c_n cos((2 k + 1) n pi / 16), c_0 = sqrt(1/8), else sqrt(2/8).
static std::vector<double> dct_matrix() {
  std::vector<double> m(kBlock * kBlock);
  const double pi = std::acos(-1.0);
  for (int k = 0; k < kBlock; ++k)
    for (int n = 0; n < kBlock; ++n)
      m[k * kBlock + n] =
          (n == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8)) * std::cos((2 * k + 1) * n * pi / 16);
  return m;
}

// The CPU reference: each block's coefficient [u][v] = sum over rows i, columns j of D[i][u] D[j][v] A[i][j],
// into a pitched array.
static std::vector<float> reference(const std::vector<float>& image, int width, int height, int stride) {
  const std::vector<double> d = dct_matrix();
  std::vector<float> out((size_t)stride * height, 0.0f);
  for (int by = 0; by < height; by += kBlock)
    for (int bx = 0; bx < width; bx += kBlock)
      for (int u = 0; u < kBlock; ++u)
        for (int v = 0; v < kBlock; ++v) {
          double s = 0;
          for (int i = 0; i < kBlock; ++i)
            for (int j = 0; j < kBlock; ++j)
              s += d[i * kBlock + u] * d[j * kBlock + v] * image[(size_t)(by + i) * width + bx + j];
          out[(size_t)(by + u) * stride + bx + v] = (float)s;
        }
  return out;
}

int main(int argc, char** argv) {
  const int width = argc > 2 ? std::atoi(argv[1]) : 512;
  const int height = argc > 2 ? std::atoi(argv[2]) : 512;
  const int which = argc > 3 ? std::atoi(argv[3]) : 0;
  if (width % kKer2Width || height % kKer2Height || which < 0 || which > 2) {
    std::fprintf(stderr,
                 "usage: dct8x8 [width height [kernel]]: width a multiple of 32, height of 16, kernel "
                 "0 (both), 1 or 2\n");
    return 2;
  }
  const int stride = (width * 4 + 511) / 512 * 512 / 4;  // cudaMallocPitch's pitch, in floats
  std::vector<float> image((size_t)width * height), pitched((size_t)stride * height, 0.0f);
  Lcg rng(8);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      pitched[(size_t)y * stride + x] = image[(size_t)y * width + x] = (float)(rng.next() >> 24);
  const std::vector<float> want = reference(image, width, height, stride);
  long mismatches = 0;

  if (which != 2) {
    std::vector<float> m(kBlock * kBlock);
    const std::vector<double> d = dct_matrix();
    for (int i = 0; i < kBlock * kBlock; ++i)
      m[i] = (float)d[i];
    CHECK_CUDA(cudaMemcpyToSymbol(DCTv8matrix, m.data(), m.size() * sizeof(float)));
    float *d_src, *d_dst;
    CHECK_CUDA(cudaMalloc(&d_src, image.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_dst, pitched.size() * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d_src, image.data(), image.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDAkernel1DCT<<<dim3(width / kBlock, height / kBlock), dim3(kBlock, kBlock)>>>(d_dst, stride, d_src,
                                                                                    width);
    CHECK_LAUNCH();
    std::vector<float> got(pitched.size(), 0.0f);
    CHECK_CUDA(cudaMemcpy(got.data(), d_dst, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d_src));
    CHECK_CUDA(cudaFree(d_dst));
    for (int y = 0; y < height; ++y)
      mismatches += count_mismatches("Dst (1DCT)", got.data() + (size_t)y * stride,
                                     want.data() + (size_t)y * stride, width, 1e-4);
  }
  if (which != 1) {
    float *d_src, *d_dst;
    CHECK_CUDA(cudaMalloc(&d_src, pitched.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_dst, pitched.size() * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d_src, pitched.data(), pitched.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDAkernel2DCT<<<dim3(width / kKer2Width, height / kKer2Height),
                     dim3(kBlock, kKer2Width / kBlock, kKer2Height / kBlock)>>>(d_dst, d_src, stride);
    CHECK_LAUNCH();
    std::vector<float> got(pitched.size(), 0.0f);
    CHECK_CUDA(cudaMemcpy(got.data(), d_dst, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d_src));
    CHECK_CUDA(cudaFree(d_dst));
    for (int y = 0; y < height; ++y)
      mismatches += count_mismatches("dst (2DCT)", got.data() + (size_t)y * stride,
                                     want.data() + (size_t)y * stride, width, 1e-4);
  }
  std::printf("dct8x8 of a %d x %d image (pitch %d floats), kernel %s\n", width, height, stride,
              which == 0   ? "1DCT and 2DCT"
              : which == 1 ? "1DCT"
                           : "2DCT");
  return report("dct8x8", mismatches);
}
