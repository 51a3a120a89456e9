// srad, both kernels of Rodinia's srad_v1 iteration: srad (derivatives and diffusion coefficient) is the CUDA
// version of the C++ library kernel rodinia/srad_v1_srad (models/kernels/rodinia/srad_v1_srad.cpp) with its
// default arguments "rows=502 cols=458": ceil(229,916 / 512) = 450 CTAs of 512 threads, the arrays in its
// order (I, iN, iS, jE, jW, dN, dS, dW, dE, c) and its accesses; srad2 (the divergence update of the image)
// is the second kernel of the library application rodinia/srad (models/apps/rodinia/srad.cpp), launched
// after it on the same arrays. The image is column-major (element ei at row ei % Nr, column ei / Nr).
// Usage: srad [rows cols [kernels]]: kernels 2 (the default) runs srad then srad2, 1 runs srad alone, the
// launch the library kernel models (tests/cuda/same_requests.py compares that one: the library has srad2
// only inside the application, among extract, prepare, reduce and compress).
#include "common.h"

#include <vector>

constexpr int kThreads = 512;  // NUMBER_THREADS

__global__ void srad(float lambda, int Nr, int Nc, long Ne, const int* iN, const int* iS, const int* jE,
                     const int* jW, float* dN, float* dS, float* dW, float* dE, float q0sqr, float* c,
                     const float* I) {
  (void)lambda;  // srad2's (the source passes it to both)
  (void)Nc;
  const long ei = threadIdx.x + (long)blockIdx.x * kThreads;
  long col = (ei + 1) / Nr;
  long row = (ei + 1) % Nr - 1;
  if ((ei + 1) % Nr == 0) {  // the last row
    row = Nr - 1;
    col = col - 1;
  }
  if (ei < Ne) {
    const float jc = I[ei];
    const float n = I[iN[row] + Nr * col] - jc;
    const float s = I[iS[row] + Nr * col] - jc;
    const float w = I[row + Nr * jW[col]] - jc;
    const float e = I[row + Nr * jE[col]] - jc;
    // Normalized gradient and Laplacian, the instantaneous coefficient of variation, the diffusion
    // coefficient saturated to [0, 1] (the source's double literals kept).
    const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    const float l = (n + s + w + e) / jc;
    const float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
    float den = 1 + (.25 * l);
    const float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float coeff = 1.0 / (1.0 + den);
    if (coeff < 0) {
      coeff = 0;
    } else if (coeff > 1) {
      coeff = 1;
    }
    dN[ei] = n;
    dS[ei] = s;
    dW[ei] = w;
    dE[ei] = e;
    c[ei] = coeff;
  }
}

__global__ void srad2(float lambda, int Nr, int Nc, long Ne, const int* iS, const int* jE, const float* dN,
                      const float* dS, const float* dW, const float* dE, const float* c, float* I) {
  (void)Nc;
  const long ei = threadIdx.x + (long)blockIdx.x * kThreads;
  long col = (ei + 1) / Nr;
  long row = (ei + 1) % Nr - 1;
  if ((ei + 1) % Nr == 0) {
    row = Nr - 1;
    col = col - 1;
  }
  if (ei < Ne) {
    const float cN = c[ei], cS = c[iS[row] + Nr * col], cW = c[ei], cE = c[row + Nr * jE[col]];
    const float d = cN * dN[ei] + cS * dS[ei] + cW * dW[ei] + cE * dE[ei];
    I[ei] = I[ei] + 0.25f * lambda * d;
  }
}

int main(int argc, char** argv) {
  const int Nr = argc > 2 ? std::atoi(argv[1]) : 502, Nc = argc > 2 ? std::atoi(argv[2]) : 458;
  const int kernels = argc > 3 ? std::atoi(argv[3]) : 2;
  const long Ne = (long)Nr * Nc;
  const float lambda = 0.5f;
  std::vector<float> image(Ne);
  std::vector<int> iN(Nr), iS(Nr), jE(Nc), jW(Nc);
  for (int i = 0; i < Nr; ++i) {
    iN[i] = i == 0 ? 0 : i - 1;
    iS[i] = i == Nr - 1 ? Nr - 1 : i + 1;
  }
  for (int j = 0; j < Nc; ++j) {
    jW[j] = j == 0 ? 0 : j - 1;
    jE[j] = j == Nc - 1 ? Nc - 1 : j + 1;
  }
  // An 8-bit speckled image, exponentiated as Rodinia's extract kernel does; q0sqr of the whole image.
  Lcg rng(3);
  double sum = 0, sum2 = 0;
  for (long i = 0; i < Ne; ++i) {
    image[i] = std::exp(std::floor(256.0f * rng.uniform()) / 255.0f);
    sum += image[i];
    sum2 += (double)image[i] * image[i];
  }
  const double mean = sum / Ne;
  const float q0sqr = (float)((sum2 / Ne - mean * mean) / (mean * mean));

  float *d_I, *d_dN, *d_dS, *d_dW, *d_dE, *d_c;
  int *d_iN, *d_iS, *d_jE, *d_jW;
  const size_t bytes = Ne * sizeof(float);
  CHECK_CUDA(cudaMalloc(&d_I, bytes));  // main.cu's cudaMalloc order
  CHECK_CUDA(cudaMalloc(&d_iN, Nr * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_iS, Nr * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_jE, Nc * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_jW, Nc * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_dN, bytes));
  CHECK_CUDA(cudaMalloc(&d_dS, bytes));
  CHECK_CUDA(cudaMalloc(&d_dW, bytes));
  CHECK_CUDA(cudaMalloc(&d_dE, bytes));
  CHECK_CUDA(cudaMalloc(&d_c, bytes));
  CHECK_CUDA(cudaMemcpy(d_I, image.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_iN, iN.data(), Nr * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_iS, iS.data(), Nr * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_jE, jE.data(), Nc * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_jW, jW.data(), Nc * sizeof(int), cudaMemcpyHostToDevice));
  const int blocks = (int)((Ne + kThreads - 1) / kThreads);
  srad<<<blocks, kThreads>>>(lambda, Nr, Nc, Ne, d_iN, d_iS, d_jE, d_jW, d_dN, d_dS, d_dW, d_dE, q0sqr, d_c,
                             d_I);
  CHECK_LAUNCH();
  if (kernels > 1) {
    srad2<<<blocks, kThreads>>>(lambda, Nr, Nc, Ne, d_iS, d_jE, d_dN, d_dS, d_dW, d_dE, d_c, d_I);
    CHECK_LAUNCH();
  }
  std::vector<float> got_c(Ne), got_I(Ne);
  CHECK_CUDA(cudaMemcpy(got_c.data(), d_c, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got_I.data(), d_I, bytes, cudaMemcpyDeviceToHost));
  for (float* p : {d_I, d_dN, d_dS, d_dW, d_dE, d_c})
    CHECK_CUDA(cudaFree(p));
  for (int* p : {d_iN, d_iS, d_jE, d_jW})
    CHECK_CUDA(cudaFree(p));

  // The CPU reference of both kernels, element by element.
  std::vector<float> dN(Ne), dS(Ne), dW(Ne), dE(Ne), c(Ne), I = image;
  for (long ei = 0; ei < Ne; ++ei) {
    const long row = ei % Nr, col = ei / Nr;
    const float jc = image[ei];
    dN[ei] = image[iN[row] + Nr * col] - jc;
    dS[ei] = image[iS[row] + Nr * col] - jc;
    dW[ei] = image[row + Nr * jW[col]] - jc;
    dE[ei] = image[row + Nr * jE[col]] - jc;
    const float g2 = (dN[ei] * dN[ei] + dS[ei] * dS[ei] + dW[ei] * dW[ei] + dE[ei] * dE[ei]) / (jc * jc);
    const float l = (dN[ei] + dS[ei] + dW[ei] + dE[ei]) / jc;
    const float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
    float den = 1 + (.25 * l);
    const float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    const float coeff = 1.0 / (1.0 + den);
    c[ei] = coeff < 0 ? 0 : coeff > 1 ? 1 : coeff;
  }
  for (long ei = 0; kernels > 1 && ei < Ne; ++ei) {
    const long row = ei % Nr, col = ei / Nr;
    const float d =
        c[ei] * dN[ei] + c[iS[row] + Nr * col] * dS[ei] + c[ei] * dW[ei] + c[row + Nr * jE[col]] * dE[ei];
    I[ei] = image[ei] + 0.25f * lambda * d;
  }
  long bad = count_mismatches("c", got_c.data(), c.data(), Ne, 1e-4);
  bad += count_mismatches("I", got_I.data(), I.data(), Ne, 1e-5);
  return report("srad", bad);
}
