"""numagpu's policy blocks for Python testbenches (plain Python or cocotb): docs/rtl.md, "Python package".

- ``LinkBalancer``, ``PartitionController``: the C++ reference models (models/policy), cycle-exact with the RTL;
  ``outputs()`` are the registered outputs of the current cycle, ``step(**inputs)`` is one rising edge and returns
  the next cycle's, ``reset()`` is a rising edge with rst_ni low. Keyword parameters at construction.
- ``LinkBalancerRtl``, ``PartitionControllerRtl``: the RTL Verilated at the parameters given at construction,
  with the same interface (needs Verilator at run time; see numagpu_policy.rtl).
"""

from ._reference import LinkBalancer, PartitionController
from .rtl import LinkBalancerRtl, PartitionControllerRtl

__all__ = ["LinkBalancer", "PartitionController", "LinkBalancerRtl", "PartitionControllerRtl"]
