#!/bin/sh
# Each parameter header, and the plain-C++ files that derive a system from them, must compile on its own
# without pulling in SystemC/TLM, yaml-cpp or nlohmann-json: configuration, sweep and topology code then
# stop paying for (and depending on) the simulator's heavy headers. The program's configuration and sweep
# code reads YAML and writes JSON, but must not build SystemC either.
# Usage: light_headers.sh MODELS_DIR CXX
set -u
models="$1"; cxx="${2:-c++}"
status=0
systemc='/(systemc|sysc|tlm|tlm_core)(/|\.h|$)'
heavy_libs='/(systemc|sysc|tlm|tlm_core|yaml-cpp|nlohmann)(/|\.h|$)'

# check FILE PATTERN WHAT: fails when a header FILE opens (listed by -H) matches PATTERN.
check() {
  if [ ! -f "$models/$1" ]; then echo "light_headers: $1 is missing"; status=1; return; fi
  case "$1" in *.hpp) lang="-x c++";; *) lang="";; esac
  found=$("$cxx" -std=c++17 -fsyntax-only -H $lang -I "$models" "$models/$1" 2>&1 >/dev/null |
          grep -E '^\.+ ' | grep -E "$2" | head -3)
  if [ -n "$found" ]; then
    echo "light_headers: $1 includes $3:"; echo "$found"; status=1
  else
    echo "light_headers: $1 ok (no $3)"
  fi
}

for f in sm/sm_spec.hpp cache/cache_spec.hpp fabric/crossbar_spec.hpp fabric/crossbar_ports.hpp \
         common/port_map.hpp fabric/link_spec.hpp \
         fabric/topology_params.hpp fabric/topology.hpp mem/dram_spec.hpp workload/kernel.hpp \
         common/machine_facts.hpp system/system_params.hpp system/system_spec.hpp system/derive_spec.hpp \
         system/derive_spec.cpp system/derived_params.cpp fabric/topology.cpp power/energy_params.hpp \
         common/instr_class.hpp; do
  check "$f" "$heavy_libs" "SystemC, YAML or JSON"
done
for f in system/system_config.cpp cli/sweep_spec.cpp system/resource_limits.cpp; do
  check "$f" "$systemc" "SystemC"
done
exit $status
