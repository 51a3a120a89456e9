// RTL in the loop (`policy.impl: rtl`): the Verilated policy blocks, built by models/CMakeLists.txt for a
// list of parameter sets, each compiled with every RTL parameter stated. A block is made for the parameters
// the model derives for it (system/derived_params.hpp) when one of the builds has exactly those; the
// configuration check names the builds when none matches. Each instance is stepped one clock per simulated
// cycle with the same inputs the C++ reference would get, behind the same interface (policy/policy_impl.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "policy/link_balancer.hpp"
#include "policy/partition_controller.hpp"
#include "policy/policy_impl.hpp"

namespace numagpu {

// The parameter sets compiled into this numagpu.
std::vector<policy::LinkBalancer::Params> rtl_balancer_builds();
std::vector<policy::PartitionController::Params> rtl_partition_ctrl_builds();

// A Verilated block built with exactly `params` (after one reset cycle), or null when there is none.
std::unique_ptr<policy::PolicyImpl<policy::LinkBalancer>> make_rtl_balancer(
    const policy::LinkBalancer::Params& params);
std::unique_ptr<policy::PolicyImpl<policy::PartitionController>> make_rtl_partition_ctrl(
    const policy::PartitionController::Params& params);

// "lanes 16, sample 5000, switch 100, saturation 99/100; ..." for error messages.
std::string describe(const std::vector<policy::LinkBalancer::Params>& builds);
std::string describe(const std::vector<policy::PartitionController::Params>& builds);

}  // namespace numagpu
