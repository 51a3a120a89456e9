// numagpu_policy._reference: Python bindings of the policy blocks' reference models (models/policy:
// LinkBalancer, PartitionController), for cocotb or plain-Python testbenches; the package's rtl.py gives the
// Verilated RTL the same interface at any parameter set (LinkBalancerRtl, PartitionControllerRtl). The timing
// is the RTL's: outputs() are the registered outputs of the current cycle, step() is one rising edge and
// returns the outputs of the next cycle, reset() is one rising edge with rst_ni low. Decision codes are the
// RTL's decision_o values. Usage: docs/rtl.md, "Python bindings"; tests: tests/rtl/python_bindings_test.py,
// tb/cocotb/.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "policy/link_balancer.hpp"
#include "policy/partition_controller.hpp"

namespace py = pybind11;
using numagpu::policy::LinkBalancer;
using numagpu::policy::PartitionController;

namespace {

std::string repr(const LinkBalancer::Outputs& o) {
  std::ostringstream os;
  os << "LinkBalancer.Outputs(lanes_a=" << o.lanes_a << ", lanes_b=" << o.lanes_b << ", lane_dir=0x"
     << std::hex << o.lane_dir << ", lane_quiesce=0x" << o.lane_quiesce << ", lane_switch=0x" << o.lane_switch
     << std::dec << ", decision_valid=" << (o.decision_valid ? "True" : "False")
     << ", decision=" << static_cast<unsigned>(o.decision) << ")";
  return os.str();
}

std::string repr(const PartitionController::Outputs& o) {
  std::ostringstream os;
  os << "PartitionController.Outputs(remote_ways=" << o.remote_ways << ", local_ways=" << o.local_ways
     << ", remote_mask=0x" << std::hex << o.remote_mask << std::dec
     << ", decision_valid=" << (o.decision_valid ? "True" : "False")
     << ", decision=" << static_cast<unsigned>(o.decision) << ")";
  return os.str();
}

void bind_link_balancer(py::module_& m) {
  py::class_<LinkBalancer> lb(m, "LinkBalancer", "Reference model of rtl/link_balancer.sv.");
  py::enum_<LinkBalancer::Decision>(lb, "Decision")
      .value("NONE", LinkBalancer::Decision::kNone)
      .value("TURN_TO_A", LinkBalancer::Decision::kTurnToA)
      .value("TURN_TO_B", LinkBalancer::Decision::kTurnToB)
      .value("REBALANCE_TO_A", LinkBalancer::Decision::kRebalanceToA)
      .value("REBALANCE_TO_B", LinkBalancer::Decision::kRebalanceToB)
      .value("BALANCED", LinkBalancer::Decision::kBalanced)
      .value("BLOCKED_TO_A", LinkBalancer::Decision::kBlockedToA)
      .value("BLOCKED_TO_B", LinkBalancer::Decision::kBlockedToB)
      .value("BUSY_TURNING", LinkBalancer::Decision::kBusyTurning);
  // Field values as Python ints (the decision as its code, what decision_o carries).
  // Constructible from field values, so a testbench can build expected outputs or wrap another model's.
  py::class_<LinkBalancer::Outputs>(lb, "Outputs")
      .def(py::init([](std::uint32_t lanes_a, std::uint32_t lanes_b, std::uint64_t lane_dir,
                       std::uint64_t lane_quiesce, std::uint64_t lane_switch, bool decision_valid,
                       unsigned decision) {
             LinkBalancer::Outputs o;
             o.lanes_a = lanes_a;
             o.lanes_b = lanes_b;
             o.lane_dir = lane_dir;
             o.lane_quiesce = lane_quiesce;
             o.lane_switch = lane_switch;
             o.decision_valid = decision_valid;
             o.decision = static_cast<LinkBalancer::Decision>(decision);
             return o;
           }),
           py::arg("lanes_a"), py::arg("lanes_b"), py::arg("lane_dir"), py::arg("lane_quiesce"),
           py::arg("lane_switch"), py::arg("decision_valid"), py::arg("decision"))
      .def_readonly("lanes_a", &LinkBalancer::Outputs::lanes_a)
      .def_readonly("lanes_b", &LinkBalancer::Outputs::lanes_b)
      .def_readonly("lane_dir", &LinkBalancer::Outputs::lane_dir)
      .def_readonly("lane_quiesce", &LinkBalancer::Outputs::lane_quiesce)
      .def_readonly("lane_switch", &LinkBalancer::Outputs::lane_switch)
      .def_readonly("decision_valid", &LinkBalancer::Outputs::decision_valid)
      .def_property_readonly("decision",
                             [](const LinkBalancer::Outputs& o) { return static_cast<unsigned>(o.decision); })
      .def("__eq__", [](const LinkBalancer::Outputs& a, const LinkBalancer::Outputs& b) { return a == b; })
      .def("__repr__", [](const LinkBalancer::Outputs& o) { return repr(o); });
  lb.def(py::init([](std::uint32_t lanes, std::uint32_t sample_cycles, std::uint32_t switch_cycles,
                     std::uint32_t sat_num, std::uint32_t sat_den) {
           LinkBalancer::Params p;
           p.lanes = lanes;
           p.sample_cycles = sample_cycles;
           p.switch_cycles = switch_cycles;
           p.sat_num = sat_num;
           p.sat_den = sat_den;
           return LinkBalancer(p);  // std::invalid_argument (ValueError) names a parameter out of range
         }),
         py::arg("lanes") = 16, py::arg("sample_cycles") = 5000, py::arg("switch_cycles") = 100,
         py::arg("sat_num") = 99, py::arg("sat_den") = 100)
      .def("reset", &LinkBalancer::reset, "One rising edge with rst_ni low.")
      .def(
          "step",
          [](LinkBalancer& self, bool kernel_launch, bool busy_a, bool busy_b, bool drained) {
            LinkBalancer::Inputs in;
            in.kernel_launch = kernel_launch;
            in.busy_a = busy_a;
            in.busy_b = busy_b;
            in.drained = drained;
            return self.step(in);
          },
          py::arg("kernel_launch") = false, py::arg("busy_a") = false, py::arg("busy_b") = false,
          py::arg("drained") = false,
          "One rising edge with these inputs; returns the outputs of the next cycle.")
      .def("outputs", &LinkBalancer::outputs, "The registered outputs of the current cycle.")
      .def_property_readonly("window_cycle", &LinkBalancer::window_cycle)
      .def_property_readonly("busy_a_count", &LinkBalancer::busy_a_count)
      .def_property_readonly("busy_b_count", &LinkBalancer::busy_b_count)
      .def_property_readonly("saturation_threshold", &LinkBalancer::saturation_threshold)
      .def_property_readonly("coverage", [](const LinkBalancer& self) {
        const auto& c = self.coverage();
        return std::vector<std::uint64_t>(c.begin(), c.end());
      });
}

void bind_partition_controller(py::module_& m) {
  py::class_<PartitionController> pc(m, "PartitionController",
                                     "Reference model of rtl/cache_partition_ctrl.sv.");
  py::enum_<PartitionController::Decision>(pc, "Decision")
      .value("NONE", PartitionController::Decision::kNone)
      .value("TO_REMOTE", PartitionController::Decision::kToRemote)
      .value("TO_LOCAL", PartitionController::Decision::kToLocal)
      .value("EQUALIZE_TO_REMOTE", PartitionController::Decision::kEqualizeToRemote)
      .value("EQUALIZE_TO_LOCAL", PartitionController::Decision::kEqualizeToLocal)
      .value("BALANCED", PartitionController::Decision::kBalanced)
      .value("BLOCKED_TO_REMOTE", PartitionController::Decision::kBlockedToRemote)
      .value("BLOCKED_TO_LOCAL", PartitionController::Decision::kBlockedToLocal);
  py::class_<PartitionController::Outputs>(pc, "Outputs")
      .def(py::init([](std::uint32_t remote_ways, std::uint32_t local_ways, std::uint64_t remote_mask,
                       bool decision_valid, unsigned decision) {
             PartitionController::Outputs o;
             o.remote_ways = remote_ways;
             o.local_ways = local_ways;
             o.remote_mask = remote_mask;
             o.decision_valid = decision_valid;
             o.decision = static_cast<PartitionController::Decision>(decision);
             return o;
           }),
           py::arg("remote_ways"), py::arg("local_ways"), py::arg("remote_mask"), py::arg("decision_valid"),
           py::arg("decision"))
      .def_readonly("remote_ways", &PartitionController::Outputs::remote_ways)
      .def_readonly("local_ways", &PartitionController::Outputs::local_ways)
      .def_readonly("remote_mask", &PartitionController::Outputs::remote_mask)
      .def_readonly("decision_valid", &PartitionController::Outputs::decision_valid)
      .def_property_readonly(
          "decision", [](const PartitionController::Outputs& o) { return static_cast<unsigned>(o.decision); })
      .def("__eq__", [](const PartitionController::Outputs& a,
                        const PartitionController::Outputs& b) { return a == b; })
      .def("__repr__", [](const PartitionController::Outputs& o) { return repr(o); });
  pc.def(py::init([](std::uint32_t ways, std::uint32_t sample_cycles, std::uint32_t sat_num,
                     std::uint32_t sat_den, std::uint32_t resp_bytes, std::uint32_t ingress_bytes_per_cycle) {
           PartitionController::Params p;
           p.ways = ways;
           p.sample_cycles = sample_cycles;
           p.sat_num = sat_num;
           p.sat_den = sat_den;
           p.resp_bytes = resp_bytes;
           p.ingress_bytes_per_cycle = ingress_bytes_per_cycle;
           return PartitionController(p);
         }),
         py::arg("ways") = 16, py::arg("sample_cycles") = 5000, py::arg("sat_num") = 99,
         py::arg("sat_den") = 100, py::arg("resp_bytes") = 144, py::arg("ingress_bytes_per_cycle") = 64)
      .def("reset", &PartitionController::reset, "One rising edge with rst_ni low.")
      .def(
          "step",
          [](PartitionController& self, bool kernel_launch, bool dram_busy, std::uint16_t read_reqs) {
            PartitionController::Inputs in;
            in.kernel_launch = kernel_launch;
            in.dram_busy = dram_busy;
            in.read_reqs = read_reqs;
            return self.step(in);
          },
          py::arg("kernel_launch") = false, py::arg("dram_busy") = false, py::arg("read_reqs") = 0,
          "One rising edge with these inputs; returns the outputs of the next cycle.")
      .def("outputs", &PartitionController::outputs, "The registered outputs of the current cycle.")
      .def_property_readonly("window_cycle", &PartitionController::window_cycle)
      .def_property_readonly("dram_busy_count", &PartitionController::dram_busy_count)
      .def_property_readonly("read_req_count", &PartitionController::read_req_count)
      .def_property_readonly("dram_threshold", &PartitionController::dram_threshold)
      .def_property_readonly("link_threshold", &PartitionController::link_threshold)
      .def_property_readonly("coverage", [](const PartitionController& self) {
        const auto& c = self.coverage();
        return std::vector<std::uint64_t>(c.begin(), c.end());
      });
}

}  // namespace

PYBIND11_MODULE(_reference, m) {
  m.doc() =
      "numagpu's policy reference models (link balancer, cache partition controller), cycle-exact with the "
      "RTL";
  bind_link_balancer(m);
  bind_partition_controller(m);
}
