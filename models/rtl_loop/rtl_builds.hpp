// RTL in the loop (`policy.impl: rtl`): the Verilated policy blocks, built by models/CMakeLists.txt for the
// parameter sets of its build table, each compiled with every RTL parameter stated. A block is made for the
// parameters the model derives for it (system/derived_params.hpp) when one of the builds has exactly those;
// the configuration check names the builds when none matches. Each instance is stepped one clock per
// simulated cycle with the same inputs the C++ reference would get, behind the same interface
// (policy/policy_impl.hpp). Defined for every block of the build table (rtl_ports.hpp has their ports).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "policy/link_balancer.hpp"
#include "policy/partition_controller.hpp"
#include "policy/policy_impl.hpp"
#include "rtl_loop/rtl_waves.hpp"

namespace numagpu {

// The parameter sets of `Block` compiled into this numagpu.
template <class Block>
std::vector<typename Block::Params> rtl_builds();

// A Verilated `Block` built with exactly `params` (after one reset cycle), or null when there is none. With
// `waves` (rtl_waves.hpp) it dumps its signals for the window into waves->buffer(instance).
template <class Block>
std::unique_ptr<policy::PolicyImpl<Block>> make_rtl(const typename Block::Params& params,
                                                    RtlWaves* waves = nullptr,
                                                    const std::string& instance = "");

// "lanes 16, sample 5000, switch 100, saturation 99/100; ..." for error messages.
template <class Block>
std::string describe_rtl_builds();

}  // namespace numagpu
