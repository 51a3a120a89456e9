// cfd, the application: Rodinia's Euler solver (euler3d) with the structure of the C++ library application
// rodinia/cfd (models/apps/rodinia/cfd.cpp), here with its defaults "iterations=1 elements=0" on its default
// input (Debian's libmetis-doc mdual.graph, the dual graph of a tetrahedral mesh: 258,569 elements, a face
// neighbour per edge, a missing fourth neighbour a wall): initialize_variables, then per iteration a copy of
// the variables to old_variables (a copy kernel, as the library's), compute_step_factor and RK = 3 stages of
// compute_flux and time_step. One thread per element, 192 a CTA, nelr = the elements padded to a multiple of
// 192 (padding repeats the last element); structures of arrays (variable v of element i at i + v * nelr,
// normal component k of face j at i + (j + k * NNB) * nelr). The mesh file has no geometry: the face
// normals and the volumes are generated. The flow physics (pressure, speed of sound, fluxes with
// smoothing, wall and far-field faces) are __host__ __device__ functions, so the CPU reference runs the same
// formulas. Arrays in the application's order: areas, elements_surrounding_elements, normals, variables,
// old_variables, fluxes, step_factors. Usage: cfd [graph.metis [iterations [elements]]].
#include "common.h"
#include "metis_graph.h"

constexpr int kBlock = 192, kNnb = 4, kNdim = 3, kNvar = 5, kRk = 3;
constexpr int kDensity = 0, kMomentum = 1, kEnergy = 1 + kNdim;
constexpr float kGamma = 1.4f, kSmoothing = 0.2f;

struct Flow {
  float density, mx, my, mz, energy;
};

__constant__ float ff_variable[kNvar];  // the far field's state

__host__ __device__ inline float pressure_of(const Flow& f, float speed_sqd) {
  return (kGamma - 1.0f) * (f.energy - 0.5f * f.density * speed_sqd);
}
__host__ __device__ inline float speed_sqd_of(const Flow& f) {
  const float vx = f.mx / f.density, vy = f.my / f.density, vz = f.mz / f.density;
  return vx * vx + vy * vy + vz * vz;
}

// What compute_flux derives from the element's own variables before its faces (Rodinia's velocity_i,
// speed_i, pressure_i, speed_of_sound_i), kept in registers.
struct Own {
  Flow f;
  float p, c, speed, vx, vy, vz;
};

__host__ __device__ inline Own own_state(const Flow& f) {
  const float sqd = speed_sqd_of(f), p = pressure_of(f, sqd);
  return {
      f, p, sqrtf(kGamma * p / f.density), sqrtf(sqd), f.mx / f.density, f.my / f.density, f.mz / f.density};
}

// Adds one face's flux to `flux`, as Rodinia's loop body: a wall (nb == -1) pushes the element's pressure on
// the normal; a neighbour (nb >= 0, its variables `o`) or the far field (nb == -2, `o` the constant far-field
// state) adds the central flux with a smoothing term.
__host__ __device__ inline void add_face_flux(Flow& flux, const Own& own, int nb, float nx, float ny,
                                              float nz, const Flow& o) {
  if (nb == -1) {  // a wall
    flux.mx += nx * own.p;
    flux.my += ny * own.p;
    flux.mz += nz * own.p;
    return;
  }
  const float normal_len = sqrtf(nx * nx + ny * ny + nz * nz);
  const float sqd = speed_sqd_of(o), p = pressure_of(o, sqd);
  const float c = sqrtf(kGamma * p / o.density);
  const float vx = o.mx / o.density, vy = o.my / o.density, vz = o.mz / o.density;
  const float smooth = -normal_len * kSmoothing * 0.5f * (own.speed + sqrtf(sqd) + own.c + c);
  const Flow& e = own.f;
  flux.density += smooth * (e.density - o.density);
  flux.energy += smooth * (e.energy - o.energy);
  flux.mx += smooth * (e.mx - o.mx);
  flux.my += smooth * (e.my - o.my);
  flux.mz += smooth * (e.mz - o.mz);
  // Central part: half the sum of both sides' flux contributions, projected on the normal.
  const float hx = 0.5f * nx, hy = 0.5f * ny, hz = 0.5f * nz;
  flux.density += hx * (o.mx + e.mx) + hy * (o.my + e.my) + hz * (o.mz + e.mz);
  flux.energy += hx * (vx * (o.energy + p) + own.vx * (e.energy + own.p)) +
                 hy * (vy * (o.energy + p) + own.vy * (e.energy + own.p)) +
                 hz * (vz * (o.energy + p) + own.vz * (e.energy + own.p));
  flux.mx += hx * (o.mx * vx + p + e.mx * own.vx + own.p) + hy * (o.mx * vy + e.mx * own.vy) +
             hz * (o.mx * vz + e.mx * own.vz);
  flux.my += hx * (o.my * vx + e.my * own.vx) + hy * (o.my * vy + p + e.my * own.vy + own.p) +
             hz * (o.my * vz + e.my * own.vz);
  flux.mz += hx * (o.mz * vx + e.mz * own.vx) + hy * (o.mz * vy + e.mz * own.vy) +
             hz * (o.mz * vz + p + e.mz * own.vz + own.p);
}

__host__ __device__ inline float step_factor_of(const Flow& f, float area) {
  const float sqd = speed_sqd_of(f), p = pressure_of(f, sqd);
  return 0.5f / (sqrtf(area) * (sqrtf(sqd) + sqrtf(kGamma * p / f.density)));
}

__device__ inline Flow load_flow(const float* variables, int i, int nelr) {
  return {variables[i + kDensity * nelr], variables[i + (kMomentum + 0) * nelr],
          variables[i + (kMomentum + 1) * nelr], variables[i + (kMomentum + 2) * nelr],
          variables[i + kEnergy * nelr]};
}

__global__ void initialize_variables(int nelr, float* variables) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  for (int j = 0; j < kNvar; j++)
    variables[i + j * nelr] = ff_variable[j];
}

__global__ void copy_variables(int count, const float* variables, float* old_variables) {
  const int k = blockIdx.x * 256 + threadIdx.x;
  if (k >= count) return;
  old_variables[k] = variables[k];
}

__global__ void compute_step_factor(int nelr, const float* variables, const float* areas,
                                    float* step_factors) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  const Flow f = load_flow(variables, i, nelr);
  step_factors[i] = step_factor_of(f, areas[i]);
}

// Rodinia's cuda_compute_flux: the element's 5 variables, then per face (unrolled) its neighbour index, the
// normal's 3 components and, for a neighbour only, the neighbour's 5 variables; the 5 fluxes last. No
// arrays: everything stays in registers (per-face arrays would live in local memory, whose loads and stores
// are memory requests Rodinia's kernel does not make).
__global__ void compute_flux(int nelr, const int* elements_surrounding_elements, const float* normals,
                             const float* variables, float* fluxes) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  const Own own = own_state(load_flow(variables, i, nelr));
  const Flow far = {ff_variable[0], ff_variable[1], ff_variable[2], ff_variable[3], ff_variable[4]};
  Flow flux = {0, 0, 0, 0, 0};
#pragma unroll
  for (int j = 0; j < kNnb; j++) {
    const int nb = elements_surrounding_elements[i + j * nelr];
    const float nx = normals[i + (j + 0 * kNnb) * nelr];
    const float ny = normals[i + (j + 1 * kNnb) * nelr];
    const float nz = normals[i + (j + 2 * kNnb) * nelr];
    if (nb >= 0)
      add_face_flux(flux, own, nb, nx, ny, nz, load_flow(variables, nb, nelr));
    else
      add_face_flux(flux, own, nb, nx, ny, nz, far);
  }
  fluxes[i + kDensity * nelr] = flux.density;
  fluxes[i + (kMomentum + 0) * nelr] = flux.mx;
  fluxes[i + (kMomentum + 1) * nelr] = flux.my;
  fluxes[i + (kMomentum + 2) * nelr] = flux.mz;
  fluxes[i + kEnergy * nelr] = flux.energy;
}

__global__ void time_step(int j, int nelr, const float* old_variables, float* variables,
                          const float* step_factors, const float* fluxes) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  const float factor = step_factors[i] / float(kRk + 1 - j);
  for (int v = 0; v < kNvar; v++)
    variables[i + v * nelr] = old_variables[i + v * nelr] + factor * fluxes[i + v * nelr];
}

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "/usr/share/doc/libmetis-dev/examples/graphs/mdual.graph";
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 1;
  const int elements = argc > 3 ? std::atoi(argv[3]) : 0;
  const CsrGraph graph = read_metis_graph(path, 1);
  if (graph.vertices == 0) return 2;
  const int nel = elements > 0 && elements < graph.vertices ? elements : graph.vertices;
  const int nelr = (nel + kBlock - 1) / kBlock * kBlock;
  std::vector<int> ese((size_t)kNnb * nelr, -1);
  for (int i = 0; i < nelr; ++i) {
    const int e = i < nel ? i : nel - 1;
    const int degree = graph.row_ptr[e + 1] - graph.row_ptr[e];
    if (degree > kNnb) {
      std::fprintf(stderr, "%s: element %d has %d neighbours; a tetrahedron has at most 4\n", path.c_str(),
                   e + 1, degree);
      return 2;
    }
    for (int j = 0; j < degree; ++j) {
      const int nb = graph.col[graph.row_ptr[e] + j];
      ese[i + (size_t)j * nelr] = nb < nel ? nb : -1;
    }
  }
  // Generated geometry: face normals of length about 0.1 to 0.2, volumes 0.5 .. 1.5.
  std::vector<float> normals((size_t)kNdim * kNnb * nelr), areas(nelr);
  Lcg rng(17);
  for (auto& v : normals)
    v = 0.1f * (rng.uniform() - 0.5f);
  for (auto& v : areas)
    v = 0.5f + rng.uniform();
  // The far field of Rodinia's defaults: density 1.4, pressure 1, Mach 1.2, angle of attack 0.
  const float ff_density = 1.4f, ff_pressure = 1.0f;
  const float ff_speed = 1.2f * std::sqrt(kGamma * ff_pressure / ff_density);
  const float ff[kNvar] = {ff_density, ff_density * ff_speed, 0.0f, 0.0f,
                           ff_density * (0.5f * ff_speed * ff_speed) + ff_pressure / (kGamma - 1.0f)};

  const size_t var_bytes = (size_t)kNvar * nelr * sizeof(float);
  float *d_areas, *d_normals, *d_variables, *d_old, *d_fluxes, *d_step;
  int* d_ese;
  CHECK_CUDA(cudaMalloc(&d_areas, nelr * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_ese, ese.size() * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_normals, normals.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_variables, var_bytes));
  CHECK_CUDA(cudaMalloc(&d_old, var_bytes));
  CHECK_CUDA(cudaMalloc(&d_fluxes, var_bytes));
  CHECK_CUDA(cudaMalloc(&d_step, nelr * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_areas, areas.data(), nelr * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_ese, ese.data(), ese.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_normals, normals.data(), normals.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpyToSymbol(ff_variable, ff, sizeof ff));

  const int blocks = nelr / kBlock;
  initialize_variables<<<blocks, kBlock>>>(nelr, d_variables);
  CHECK_CUDA(cudaGetLastError());
  for (int it = 0; it < iterations; ++it) {
    copy_variables<<<(kNvar * nelr + 255) / 256, 256>>>(kNvar * nelr, d_variables, d_old);
    compute_step_factor<<<blocks, kBlock>>>(nelr, d_variables, d_areas, d_step);
    for (int j = 0; j < kRk; ++j) {
      compute_flux<<<blocks, kBlock>>>(nelr, d_ese, d_normals, d_variables, d_fluxes);
      time_step<<<blocks, kBlock>>>(j, nelr, d_old, d_variables, d_step, d_fluxes);
    }
    CHECK_CUDA(cudaGetLastError());
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> variables((size_t)kNvar * nelr);
  CHECK_CUDA(cudaMemcpy(variables.data(), d_variables, var_bytes, cudaMemcpyDeviceToHost));
  for (float* p : {d_areas, d_normals, d_variables, d_old, d_fluxes, d_step})
    CHECK_CUDA(cudaFree(p));
  CHECK_CUDA(cudaFree(d_ese));

  // The CPU reference: the same steps with the same __host__ __device__ formulas.
  std::vector<float> var((size_t)kNvar * nelr), old(var.size()), fluxes(var.size()), step(nelr);
  for (int i = 0; i < nelr; ++i)
    for (int v = 0; v < kNvar; ++v)
      var[i + (size_t)v * nelr] = ff[v];
  auto flow_at = [&](const std::vector<float>& a, int i) {
    return Flow{a[i], a[i + (size_t)nelr], a[i + 2 * (size_t)nelr], a[i + 3 * (size_t)nelr],
                a[i + 4 * (size_t)nelr]};
  };
  const Flow far = {ff[0], ff[1], ff[2], ff[3], ff[4]};
  for (int it = 0; it < iterations; ++it) {
    old = var;
    for (int i = 0; i < nelr; ++i)
      step[i] = step_factor_of(flow_at(var, i), areas[i]);
    for (int j = 0; j < kRk; ++j) {
      for (int i = 0; i < nelr; ++i) {
        const Own own = own_state(flow_at(var, i));
        Flow fl = {0, 0, 0, 0, 0};
        for (int f = 0; f < kNnb; ++f) {
          const int nb = ese[i + (size_t)f * nelr];
          const float* n = &normals[i + (size_t)f * nelr];
          add_face_flux(fl, own, nb, n[0], n[(size_t)kNnb * nelr], n[2 * (size_t)kNnb * nelr],
                        nb >= 0 ? flow_at(var, nb) : far);
        }
        const float values[kNvar] = {fl.density, fl.mx, fl.my, fl.mz, fl.energy};
        for (int v = 0; v < kNvar; ++v)
          fluxes[i + (size_t)v * nelr] = values[v];
      }
      for (int i = 0; i < nelr; ++i) {
        const float factor = step[i] / float(kRk + 1 - j);
        for (int v = 0; v < kNvar; ++v)
          var[i + (size_t)v * nelr] = old[i + (size_t)v * nelr] + factor * fluxes[i + (size_t)v * nelr];
      }
    }
  }
  std::printf("cfd: %d elements (%d padded), %d iterations\n", nel, nelr, iterations);
  return report("cfd", count_mismatches("variables", variables.data(), var.data(), (long)var.size(), 1e-4));
}
