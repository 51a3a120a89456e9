// Accelergy inputs from a run's activity.json (docs/power.md, "Accelergy"): the action counts, and the
// architecture and compound-component descriptions they refer to, named as Accelergy names them so that
// Accelergy takes the three files as they are.
//
// Accelergy flattens an array of identical components declared as `sm[0..63]` into elements named `sm[0]`,
// `sm[1]`, ... and prefixes each with its subtrees' names (`system.socket[0].sm[3]`). numagpu's instances
// are SystemC names (`system.socket0.sm3`, `system.socket0.l2_3`): a family of siblings numbered 0..N-1 with
// identical contents becomes such an array, every other name stays as it is. The same naming is used for
// the action counts and for the architecture, so they match by construction.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "power/activity.hpp"

namespace numagpu::accelergy {

// A name set Accelergy cannot take (no single root, an empty or bracketed name segment, an instance named
// like a subtree of another): what and where, for a one-line error.
struct NameError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Accelergy's name of every instance, in the order of activity.instances.
std::vector<std::string> flattened_names(const power::Activity& activity);

// The action counts (version 0.3): one `local` entry per instance, one action per counter.
std::string action_counts(const power::Activity& activity, std::string_view source);

// The architecture (version 0.3: one root subtree, arrays as `name[0..N-1]`) and the compound-component
// classes (one per kind, `numagpu_<kind>`, one action per counter name of that kind, mapped onto
// primitive components of Accelergy's library by kAccelergyActions). `technology_nm` is the process node.
std::string architecture(const power::Activity& activity, std::string_view source, int technology_nm);

// One row of the action mapping: counter `counter` of kind `kind` performs `share` times the action
// `action` of the class's subcomponent `subcomponent`. A counter with no row charges nothing (it counts a
// subset or another view of events another counter charges, or an event with no primitive here).
struct ActionRow {
  const char* kind;
  const char* counter;
  const char* subcomponent;
  const char* action;
  double share;
};
inline constexpr ActionRow kAccelergyActions[] = {
    // SM: a warp instruction reads two operands and writes one (32 lanes wide), and is issued once; its
    // class then does one operation per lane.
    {"sm", "instructions", "register_file", "read", 2},
    {"sm", "instructions", "register_file", "write", 1},
    {"sm", "instructions", "scheduler", "count", 1},
    {"sm", "instructions_fp32", "fp32_unit", "mac_random", 32},
    {"sm", "instructions_fp64", "fp64_unit", "mac_random", 32},
    {"sm", "instructions_int", "int_unit", "mac_random", 32},
    {"sm", "instructions_sfu", "fp32_unit", "mac_random", 32},
    {"sm", "instructions_tensor", "fp16_unit", "mac_random", 32},
    {"sm", "instructions_branch", "int_unit", "mac_random", 32},
    {"sm", "instructions_memory", "int_unit", "mac_random", 32},
    {"sm", "instructions_other", "int_unit", "mac_random", 32},
    {"sm", "instructions_shared", "shared_memory", "read", 1},
    {"sm", "idle_cycles", "register_file", "idle", 1},
    {"sm", "idle_cycles", "shared_memory", "idle", 1},
    // Caches: one line of the data array per access, the tag array looked up (written on a fill).
    {"l1", "reads", "tag_array", "read", 1},
    {"l1", "reads", "data_array", "read", 1},
    {"l1", "writes", "tag_array", "read", 1},
    {"l1", "writes", "data_array", "write", 1},
    {"l1", "fills", "tag_array", "write", 1},
    {"l1", "fills", "data_array", "write", 1},
    {"l1", "writebacks", "data_array", "read", 1},
    {"l1", "coherence_writebacks", "data_array", "read", 1},
    {"l1", "atomics_performed", "data_array", "read", 1},
    {"l1", "atomics_performed", "data_array", "write", 1},
    {"l1", "atomics_forwarded", "tag_array", "read", 1},
    {"l2", "reads", "tag_array", "read", 1},
    {"l2", "reads", "data_array", "read", 1},
    {"l2", "writes", "tag_array", "read", 1},
    {"l2", "writes", "data_array", "write", 1},
    {"l2", "fills", "tag_array", "write", 1},
    {"l2", "fills", "data_array", "write", 1},
    {"l2", "writebacks", "data_array", "read", 1},
    {"l2", "coherence_writebacks", "data_array", "read", 1},
    {"l2", "atomics_performed", "data_array", "read", 1},
    {"l2", "atomics_performed", "data_array", "write", 1},
    {"l2", "atomics_forwarded", "tag_array", "read", 1},
    // Interconnect: a 32-bit crossbar transfer per 32 bits moved; a link moves one bit per wire transfer.
    {"crossbar", "bits", "crossbar", "transfer_random", 1.0 / 32},
    {"switch", "bits", "crossbar", "transfer_random", 1.0 / 32},
    {"link", "bits_a_to_b", "wires", "transfer_random", 1},
    {"link", "bits_b_to_a", "wires", "transfer_random", 1},
    // DRAM: one 64-bit access per 64 bits; an idle channel cycle is the DRAM's idle action.
    {"dram", "read_bits", "dram", "read", 1.0 / 64},
    {"dram", "write_bits", "dram", "write", 1.0 / 64},
    {"dram", "idle_channel_cycles", "dram", "idle", 1},
    // Policy blocks: their window counter counts every clocked cycle; a decision compares the counts.
    {"link_balancer", "clocked_cycles", "window_counter", "count", 1},
    {"link_balancer", "decisions", "comparator", "compare", 1},
    {"partition_controller", "clocked_cycles", "window_counter", "count", 1},
    {"partition_controller", "decisions", "comparator", "compare", 1},
};

}  // namespace numagpu::accelergy
