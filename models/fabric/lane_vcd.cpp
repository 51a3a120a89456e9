#include "fabric/lane_vcd.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace numagpu {

namespace {

// VCD identifier codes: printable ASCII 33..126, as many characters as needed.
std::string code(std::size_t n) {
  std::string c;
  do {
    c.push_back(static_cast<char>(33 + n % 94));
    n /= 94;
  } while (n);
  return c;
}

std::string binary(unsigned v) {
  std::string b;
  do {
    b.insert(b.begin(), char('0' + (v & 1)));
    v >>= 1;
  } while (v);
  return b;
}

}  // namespace

std::string lane_vcd(const std::vector<NamedLink>& links, std::uint64_t period_ps,
                     const std::string& comment) {
  std::ostringstream os;
  os << "$version numagpu lane directions $end\n";
  if (!comment.empty()) os << "$comment " << comment << " $end\n";
  os << "$timescale 1ps $end\n";
  // Four signals per link: lanes in direction 0 and 1 (8 bits), quiescing, switching.
  for (std::size_t l = 0; l < links.size(); ++l) {
    os << "$scope module " << links[l].name << " $end\n";
    os << "$var wire 8 " << code(4 * l) << " lanes_" << links[l].dir_names[0] << " $end\n";
    os << "$var wire 8 " << code(4 * l + 1) << " lanes_" << links[l].dir_names[1] << " $end\n";
    os << "$var wire 1 " << code(4 * l + 2) << " quiescing $end\n";
    os << "$var wire 1 " << code(4 * l + 3) << " switching $end\n";
    os << "$upscope $end\n";
  }
  os << "$enddefinitions $end\n";

  // Every change of every link, in time order (stable: link order within a cycle).
  std::vector<std::tuple<Cycles, std::size_t, const LaneChange*>> events;
  for (std::size_t l = 0; l < links.size(); ++l) {
    for (const LaneChange& c : links[l].link->lane_changes())
      events.emplace_back(c.cycle, l, &c);
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const auto& x, const auto& y) { return std::get<0>(x) < std::get<0>(y); });
  bool first = true;
  Cycles current = 0;
  for (const auto& [cycle, l, c] : events) {
    if (first || cycle != current) {
      os << "#" << cycle * period_ps << "\n";
      current = cycle;
      first = false;
    }
    os << "b" << binary(c->lanes[0]) << " " << code(4 * l) << "\n";
    os << "b" << binary(c->lanes[1]) << " " << code(4 * l + 1) << "\n";
    os << (c->quiescing ? '1' : '0') << code(4 * l + 2) << "\n";
    os << (c->switching ? '1' : '0') << code(4 * l + 3) << "\n";
  }
  return os.str();
}

}  // namespace numagpu
