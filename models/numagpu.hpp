// numagpu for a host program: one include for building a System from a configuration, running it under the
// host's sc_start, giving it kernels of the host's own (KernelProgram) and reading its results
// (docs/embedding.md); controlling it from a host CPU model (System::launch, the registers of
// system/host_control.hpp, clock_in and reset_n, DMI and temporal decoupling at its plug points). Installed
// as <numagpu/numagpu.hpp>; the model's headers are under <numagpu/...>.
#pragma once

#include "common/health.hpp"
#include "common/report.hpp"  // the message types of its SystemC reports (numagpu::report::kPort, ...)
#include "stats/registry.hpp"
#include "system/configuration.hpp"
#include "system/fresh_kernel.hpp"
#include "system/host_control.hpp"
#include "system/run_summary.hpp"
#include "system/system.hpp"
#include "workload/program.hpp"
