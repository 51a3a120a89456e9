// The DPI-C functions of numagpu_policy_dpi.h: thin wrappers around the reference classes. No exception may
// cross into the simulator, so construction catches the parameter check and reports it through
// numagpu_policy_error().
#include "numagpu_policy_dpi.h"

#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include "policy/link_balancer.hpp"
#include "policy/partition_controller.hpp"

namespace {

using numagpu::policy::LinkBalancer;
using numagpu::policy::PartitionController;

// The last construction error. Simulators call DPI functions from one thread per model instance at most, and
// a testbench constructs its models up front, so one message per thread is enough.
thread_local std::string last_error;

LinkBalancer& lb_of(void* h) {
  return *static_cast<LinkBalancer*>(h);
}
PartitionController& pc_of(void* h) {
  return *static_cast<PartitionController*>(h);
}

template <class Model, class Params>
void* make(const Params& p) {
  try {
    auto* m = new Model(p);  // validates the parameters
    last_error.clear();
    return m;
  } catch (const std::exception& e) {
    last_error = e.what();
    return nullptr;
  }
}

}  // namespace

extern "C" {

const char* numagpu_policy_error(void) {
  return last_error.c_str();
}

void* numagpu_lb_new(unsigned lanes, unsigned sample_cycles, unsigned switch_cycles, unsigned sat_num,
                     unsigned sat_den) {
  LinkBalancer::Params p;
  p.lanes = lanes;
  p.sample_cycles = sample_cycles;
  p.switch_cycles = switch_cycles;
  p.sat_num = sat_num;
  p.sat_den = sat_den;
  return make<LinkBalancer>(p);
}

void numagpu_lb_free(void* lb) {
  delete static_cast<LinkBalancer*>(lb);
}

void numagpu_lb_reset(void* lb) {
  lb_of(lb).reset();
}

void numagpu_lb_step(void* lb, unsigned char kernel_launch, unsigned char busy_a, unsigned char busy_b,
                     unsigned char drained) {
  LinkBalancer::Inputs in;
  in.kernel_launch = kernel_launch != 0;
  in.busy_a = busy_a != 0;
  in.busy_b = busy_b != 0;
  in.drained = drained != 0;
  lb_of(lb).step(in);
}

void numagpu_lb_outputs(void* lb, unsigned* lanes_a, unsigned* lanes_b, unsigned long long* lane_dir,
                        unsigned long long* lane_quiesce, unsigned long long* lane_switch,
                        unsigned char* decision_valid, unsigned char* decision) {
  const LinkBalancer::Outputs o = lb_of(lb).outputs();
  *lanes_a = o.lanes_a;
  *lanes_b = o.lanes_b;
  *lane_dir = o.lane_dir;
  *lane_quiesce = o.lane_quiesce;
  *lane_switch = o.lane_switch;
  *decision_valid = o.decision_valid ? 1 : 0;
  *decision = static_cast<unsigned char>(o.decision);
}

unsigned numagpu_lb_window_cycle(void* lb) {
  return lb_of(lb).window_cycle();
}
unsigned numagpu_lb_busy_a_count(void* lb) {
  return lb_of(lb).busy_a_count();
}
unsigned numagpu_lb_busy_b_count(void* lb) {
  return lb_of(lb).busy_b_count();
}
unsigned long long numagpu_lb_threshold(void* lb) {
  return lb_of(lb).saturation_threshold();
}

unsigned long long numagpu_lb_coverage(void* lb, unsigned code) {
  return code < LinkBalancer::kNumDecisions ? lb_of(lb).coverage()[code] : 0;
}

void* numagpu_pc_new(unsigned ways, unsigned sample_cycles, unsigned sat_num, unsigned sat_den,
                     unsigned resp_bytes, unsigned ingress_bytes_per_cycle) {
  PartitionController::Params p;
  p.ways = ways;
  p.sample_cycles = sample_cycles;
  p.sat_num = sat_num;
  p.sat_den = sat_den;
  p.resp_bytes = resp_bytes;
  p.ingress_bytes_per_cycle = ingress_bytes_per_cycle;
  return make<PartitionController>(p);
}

void numagpu_pc_free(void* pc) {
  delete static_cast<PartitionController*>(pc);
}

void numagpu_pc_reset(void* pc) {
  pc_of(pc).reset();
}

void numagpu_pc_step(void* pc, unsigned char kernel_launch, unsigned char dram_busy, unsigned read_reqs) {
  PartitionController::Inputs in;
  in.kernel_launch = kernel_launch != 0;
  in.dram_busy = dram_busy != 0;
  // The RTL port is at most 16 bits wide (ReqW <= 16); wider values cannot come from it.
  in.read_reqs = static_cast<std::uint16_t>(read_reqs);
  pc_of(pc).step(in);
}

void numagpu_pc_outputs(void* pc, unsigned* remote_ways, unsigned* local_ways,
                        unsigned long long* remote_mask, unsigned char* decision_valid,
                        unsigned char* decision) {
  const PartitionController::Outputs o = pc_of(pc).outputs();
  *remote_ways = o.remote_ways;
  *local_ways = o.local_ways;
  *remote_mask = o.remote_mask;
  *decision_valid = o.decision_valid ? 1 : 0;
  *decision = static_cast<unsigned char>(o.decision);
}

unsigned numagpu_pc_window_cycle(void* pc) {
  return pc_of(pc).window_cycle();
}
unsigned numagpu_pc_dram_busy_count(void* pc) {
  return pc_of(pc).dram_busy_count();
}
unsigned long long numagpu_pc_read_req_count(void* pc) {
  return pc_of(pc).read_req_count();
}
unsigned long long numagpu_pc_dram_threshold(void* pc) {
  return pc_of(pc).dram_threshold();
}
unsigned long long numagpu_pc_link_threshold(void* pc) {
  return pc_of(pc).link_threshold();
}

unsigned long long numagpu_pc_coverage(void* pc, unsigned code) {
  return code < PartitionController::kNumDecisions ? pc_of(pc).coverage()[code] : 0;
}

}  // extern "C"
