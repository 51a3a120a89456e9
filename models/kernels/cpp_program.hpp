// A library kernel as the SM sees it (KernelProgram): each CTA's body runs when the first of its warps asks
// for a step, its warps' steps are kept until the last warp has taken its end, and then dropped, so memory
// holds only the CTAs resident on the SMs, whatever the grid's size.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernels/library.hpp"
#include "kernels/resident_warps.hpp"
#include "workload/program.hpp"

namespace numagpu::kernels {

class CppKernelProgram : public KernelProgram {
 public:
  // latencies: the SM's dependent-instruction latencies (kernels/simt.hpp; all 0: not modelled).
  CppKernelProgram(std::string name, std::unique_ptr<Kernel> kernel, unsigned line_bytes,
                   const Latencies& latencies = {});
  ~CppKernelProgram() override;
  CppKernelProgram(const CppKernelProgram&) = delete;
  CppKernelProgram& operator=(const CppKernelProgram&) = delete;
  // The bounds its CTAs' recordings answer to (kernels/simt.hpp), shared with the run's other kernels: a
  // CTA's record counts in their `held` while the CTA is resident. A CTA whose recording passes the limit
  // throws RecordLimitExceeded (naming this program and the CTA); one stopped on request keeps what it
  // recorded. Either exception, and any other a CTA's execution throws, is also kept in the bounds' `fault`.
  void bound_by(std::shared_ptr<RecordBounds> bounds) { bounds_ = std::move(bounds); }

  const std::string& name() const override { return name_; }
  std::uint32_t ctas() const override { return static_cast<std::uint32_t>(launch_.grid.count()); }
  std::uint32_t warps_per_cta() const override {
    return static_cast<std::uint32_t>((launch_.block.count() + kWarpSize - 1) / kWarpSize);
  }
  runtime::Grid grid() const override {
    return runtime::Grid{launch_.grid.x, launch_.grid.y, launch_.grid.z};
  }
  bool step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const override;
  double generation_seconds() const override { return totals_.generation_seconds; }
  std::uint32_t registers_per_thread() const override { return launch_.regs_per_thread; }
  std::uint64_t shared_bytes_per_cta() const override { return launch_.shared_bytes; }
  const std::vector<runtime::ArrayAccess>& accesses() const override { return launch_.accesses; }
  // The arrays bound to the store (BoundArray::in_store) are read at the launch and written at the end.
  void load_data(const DataStore& store) const override;
  void store_data(DataStore& store) const override;

  // What the executed CTAs did, for reports and tests.
  struct Totals {
    std::uint64_t ctas_executed = 0;
    std::array<std::uint64_t, static_cast<unsigned>(InstrClass::kCount)> instructions{};
    std::uint64_t shared_accesses = 0, shared_wavefronts = 0;
    std::uint64_t max_resident_ctas = 0;  // CTAs whose steps were held at once
    double generation_seconds = 0;        // host time spent executing CTA bodies
  };
  const Totals& totals() const { return totals_; }
  const Launch& launch() const { return launch_; }
  const Kernel& kernel() const { return *kernel_; }

 private:
  struct CtaSteps {
    std::vector<WarpRecord> warps;
    std::vector<bool> ended;
    unsigned ended_count = 0;
    std::uint64_t bytes = 0;  // what the records take (counted in the bounds' `held`)
  };
  CtaSteps& run(std::uint32_t cta) const;

  std::string name_;
  std::unique_ptr<Kernel> kernel_;
  Launch launch_;
  unsigned line_bytes_;
  Latencies latencies_;
  mutable bool prepared_ = false;
  mutable std::unordered_map<std::uint32_t, CtaSteps> resident_;
  // The records of resident_'s warps that have steps left, for step()'s common case.
  mutable ResidentWarps warps_;
  mutable Totals totals_;
  struct RecordHint {
    std::size_t steps = 0, lines = 0;  // the largest warp record of the last CTA run
  };
  mutable RecordHint record_hint_;
  std::shared_ptr<RecordBounds> bounds_;
};

}  // namespace numagpu::kernels
