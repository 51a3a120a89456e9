// rodinia/cfd (application): Rodinia 3.1 cfd, euler3d.cu (Corrigan et al., AIAA-2009-4001; learned from its
// CUDA source, written here anew): a finite-volume solver of the 3-D Euler equations on an unstructured mesh
// of tetrahedra, each element with up to NNB = 4 face neighbours. The host program initializes the
// variables (cuda_initialize_variables), then per iteration copies the variables to old_variables (a
// device-to-device cudaMemcpy: a copy kernel here), computes each element's time step (compute_step_factor),
// and advances RK = 3 Runge-Kutta stages, each a compute_flux and a time_step launch: 8 launches an
// iteration. Every kernel is one thread per element, blocks of block_length = 192 threads, no bounds check
// (nelr, the elements, is padded to a multiple of 192 as the source pads it). Arrays are structures of
// arrays, variable v of element i at i + v * nelr, normal component k of face j at i + (j + k * NNB) * nelr.
//
// compute_flux: per element, 5 loads of its own variables; per face, its neighbour index and the face
// normal's 3 components; a neighbour (index >= 0) adds 5 gathered loads of the neighbour's variables; a
// boundary face (-1, a wall; -2 would be far field, whose values come from constant memory) loads nothing
// more. Then 5 stores of the fluxes. The neighbour indices carry data (they steer addresses and branches);
// the flow values steer nothing and are not computed.
//
// Input: a METIS graph whose vertices are the mesh's elements and whose edges join elements sharing a face:
// default mdual.graph of libmetis-doc, the dual graph of a 3-D tetrahedral mesh (258,569 elements of 3 or 4
// neighbours; a missing fourth neighbour is a wall face). A graph vertex of more than 4 neighbours is not a
// tetrahedron and is refused. Its 34 MiB of arrays (variables, old variables and fluxes 5 MiB each, normals
// 12 MiB, neighbours 4 MiB) exceed the paper system's L2 without scaling. `elements` keeps only the first
// elements (faces to the rest become walls): the small variant.
#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBlock = 192;  // block_length
constexpr std::int64_t kNnb = 4, kNdim = 3, kNvar = 5, kRk = 3;

class CfdApp : public Application {
 public:
  CfdApp(const Args& a, const std::string& input)
      : Application(a, input),
        iterations_(a["iterations"]),
        graph_(load_graph(input, 1)),
        nel_(a["elements"] ? std::min<std::int64_t>(a["elements"], graph_.vertices) : graph_.vertices) {
    const CsrGraph& g = graph_;
    for (std::int64_t i = 0; i < nelr_; ++i) {
      const std::int64_t e = std::min(i, nel_ - 1);  // the padding repeats the last element, as the source's
      const std::uint32_t deg = g.row_ptr[e + 1] - g.row_ptr[e];
      if (deg > kNnb)
        throw KernelError("input " + input + ": element " + std::to_string(e + 1) + " has " +
                          std::to_string(deg) + " neighbours; a tetrahedron has at most 4");
      for (std::uint32_t j = 0; j < deg; ++j) {  // a neighbour beyond `elements` is a boundary: a wall face
        const std::uint32_t nb = g.col[g.row_ptr[e] + j];
        ese_.values[std::size_t(i + j * nelr_)] = nb < nel_ ? std::int32_t(nb) : -1;
      }
    }
    graph_ = CsrGraph{};  // the array holds what the kernels need of it
  }

  void host() override {
    Launch init = per_element(8, [this](Cta& c, const V<std::int64_t>& i) {
      for (std::int64_t v = 0; v < kNvar; ++v)
        c.store(variables_, i + v * nelr_, V<float>(c, 1.0f));
    });
    init.accesses = {lasp_access(variables_, by_variable(), kBlock * 4)};
    launch("initialize_variables", std::move(init));
    for (std::int64_t it = 0; it < iterations_; ++it) {
      launch("copy", copy_variables());
      Launch factor = per_element(24, [this](Cta& c, const V<std::int64_t>& i) {
        V<float> s = variables(c, variables_, i);
        s = s * c.load(areas_, i);
        s = sqrt(s) + sqrt(s);
        c.charge(InstrClass::kFp32, 12);  // velocity, speed squared, pressure, speed of sound
        c.store(step_factors_, i, s);
      });
      // LASP: variables[i + v nelr] (the largest array, 5 reads): row 1 strided by nelr; areas[i] and
      // step_factors[i]: row 1 without a loop.
      factor.accesses = {lasp_access(variables_, by_variable(), kBlock * 4),
                         lasp_access(areas_, runtime::terms::kPerThread, kBlock * 4),
                         lasp_access(step_factors_, runtime::terms::kPerThread, kBlock * 4)};
      launch("compute_step_factor", std::move(factor));
      for (std::int64_t j = 0; j < kRk; ++j) {
        launch("compute_flux", compute_flux());
        Launch step = per_element(20, [this, j](Cta& c, const V<std::int64_t>& i) {
          const V<float> factor = c.load(step_factors_, i) / float(kRk + 1 - j);
          for (std::int64_t v = 0; v < kNvar; ++v) {
            const V<std::int64_t> at = i + v * nelr_;
            c.store(variables_, at, fma(factor, c.load(fluxes_, at), c.load(old_variables_, at)));
          }
        });
        step.accesses = {lasp_access(variables_, by_variable(), kBlock * 4),
                         lasp_access(fluxes_, by_variable(), kBlock * 4),
                         lasp_access(old_variables_, by_variable(), kBlock * 4),
                         lasp_access(step_factors_, runtime::terms::kPerThread, kBlock * 4)};
        launch("time_step", std::move(step));
      }
    }
  }

 private:
  // A kernel of one thread per element (blocks of 192, nelr / 192 of them) running `f`.
  Launch per_element(unsigned regs, std::function<void(Cta&, const V<std::int64_t>&)> f) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(nelr_ / kBlock), 1, 1};
    l.block = {kBlock, 1, 1};
    l.regs_per_thread = regs;
    l.body = [f = std::move(f)](Cta& c) { f(c, c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kBlock); };
    return l;
  }

  // LASP's index terms of a per-element array read as a[i + v * nelr] for v = 0, 1, ...: i = tx + 192 bx is
  // invariant in bx, and each step moves nelr = blockDim.x x gridDim.x elements: no datablock locality
  // strided by nelr (Table II row 1, X-stride), stride-aware.
  runtime::IndexTerms by_variable() const {
    return {true, false, false, runtime::LoopVariant::kMGridDimX, std::uint64_t(nelr_)};
  }

  // The 5 variables of the elements `i` loaded (their sum stands for the values computed from them).
  V<float> variables(Cta& c, const Array<float>& a, const V<std::int64_t>& i) const {
    V<float> s = c.load(a, i);
    for (std::int64_t v = 1; v < kNvar; ++v)
      s = s + c.load(a, i + v * nelr_);
    return s;
  }

  // cudaMemcpy device to device of nelr x NVAR floats: a copy kernel of one float per thread, 256 a block.
  // It states nothing for LASP, deliberately: euler3d.cu's copy<float>() is a cudaMemcpy, no __global__
  // function, so LADM's compiler pass has no index to classify (its locality table has rows only for the
  // accesses of kernels, §III-A). Stated as this stand-in's index (row 1), it would be the first launch to
  // state old_variables and place it kernel-wide, where LASP places it by time_step's nelr stride.
  Launch copy_variables() {
    const std::int64_t count = nelr_ * kNvar;
    Launch l;
    l.grid = {static_cast<std::uint32_t>((count + 255) / 256), 1, 1};
    l.block = {256, 1, 1};
    l.regs_per_thread = 8;
    l.body = [this, count](Cta& c) {
      const V<std::int64_t> k = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * 256;
      c.exit_if(k >= count);
      c.store(old_variables_, k, c.load(variables_, k));
    };
    return l;
  }

  Launch compute_flux() {
    Launch l = per_element(64, [this](Cta& c, const V<std::int64_t>& i) {
      V<float> flux = variables(c, variables_, i);
      c.charge(InstrClass::kFp32, 20);  // velocity, pressure, speed of sound, the element's flux contribution
      c.charge(InstrClass::kSfu, 1);    // its speed: sqrtf
      for (std::int64_t j = 0; j < kNnb; ++j) {
        const V<std::int64_t> nb = convert<std::int64_t>(c.load(ese_, i + j * nelr_));
        V<float> normal = c.load(normals_, i + (j + 0 * kNnb) * nelr_);
        normal = normal + c.load(normals_, i + (j + 1 * kNnb) * nelr_);
        normal = normal + c.load(normals_, i + (j + 2 * kNnb) * nelr_);
        normal = sqrt(normal);  // normal_len
        c.if_else(
            nb >= 0,
            [&] {
              flux = flux + variables(c, variables_, nb);
              c.charge(InstrClass::kFp32,
                       40);  // the neighbour's velocity, pressure, flux; the smoothing factor
              c.charge(InstrClass::kSfu, 2);  // its speed and speed of sound
            },
            [&] {
              c.if_else(
                  nb == -1, [&] { c.charge(InstrClass::kFp32, 3); },  // a wall: the pressure on the normal
                  [&] { c.charge(InstrClass::kFp32, 15); });          // far field: constant-memory values
            });
      }
      for (std::int64_t v = 0; v < kNvar; ++v)
        c.store(fluxes_, i + v * nelr_, flux);
    });
    // LASP's index terms: the normals (the largest array, 12 per element) and the neighbours' numbers at
    // i + j * nelr, the fluxes at i + v * nelr: row 1 strided by nelr; the variables are read mostly at the
    // neighbours' numbers (4 of 5 reads): gathered (row 7).
    l.accesses = {
        lasp_access(normals_, by_variable(), kBlock * 4), lasp_access(ese_, by_variable(), kBlock * 4),
        lasp_access(fluxes_, by_variable(), kBlock * 4), lasp_access(variables_, runtime::terms::kGathered)};
    return l;
  }

  std::int64_t iterations_;
  CsrGraph graph_;  // the input, until the array holds it
  std::int64_t nel_;
  std::int64_t nelr_ = (nel_ + kBlock - 1) / kBlock * kBlock;
  std::uint64_t n_ = std::uint64_t(nelr_);
  Array<float> areas_ = array<float>("areas", n_);
  Data<std::int32_t> ese_{this, "elements_surrounding_elements", std::uint64_t(kNnb) * n_, -1};
  Array<float> normals_ = array<float>("normals", std::uint64_t(kNdim) * kNnb * n_);
  Array<float> variables_ = array<float>("variables", std::uint64_t(kNvar) * n_);
  Array<float> old_variables_ = array<float>("old_variables", std::uint64_t(kNvar) * n_);
  Array<float> fluxes_ = array<float>("fluxes", std::uint64_t(kNvar) * n_);
  Array<float> step_factors_ = array<float>("step_factors", n_);
};

}  // namespace

ApplicationEntry app_rodinia_cfd() {
  return {
      "rodinia/cfd",
      "Rodinia 3.1 cfd (euler3d): per iteration a copy, compute_step_factor and 3 x (compute_flux, "
      "time_step), on the tetrahedral mesh of a METIS dual graph (default mdual.graph, 258,569 elements)",
      {{"iterations", 1, 1, 100000, "solver iterations (8 launches each)"},
       {"elements", 0, 0, 1 << 28,
        "the mesh's first elements only, faces to the others made walls (0: the whole mesh; a small run)"}},
      "/usr/share/doc/libmetis-dev/examples/graphs/mdual.graph",
      [](const Args& a, const std::string& input) { return std::make_unique<CfdApp>(a, input); }};
}

}  // namespace numagpu::kernels
