#include "stats/path.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>

namespace numagpu::stats {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Natural order inside one component; returns <0, 0 or >0. Equal means equal numeric values digit run by
// digit run, which can still differ in leading zeros: the caller breaks that tie.
int natural_compare(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && is_digit(a[ie]))
        ++ie;
      while (je < b.size() && is_digit(b[je]))
        ++je;
      // Compare the runs as numbers without converting (they may exceed 64 bits): drop leading zeros,
      // then the longer run is larger, and equal lengths compare digit by digit.
      std::size_t is = i, js = j;
      while (is + 1 < ie && a[is] == '0')
        ++is;
      while (js + 1 < je && b[js] == '0')
        ++js;
      const std::size_t alen = ie - is, blen = je - js;
      if (alen != blen) return alen < blen ? -1 : 1;
      const int c = a.substr(is, alen).compare(b.substr(js, blen));
      if (c != 0) return c;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
      ++i;
      ++j;
    }
  }
  if (i < a.size()) return 1;
  if (j < b.size()) return -1;
  return 0;
}

}  // namespace

void check_path(std::string_view path) {
  if (path.empty()) throw std::invalid_argument("statistic path is empty");
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("statistic path '" + std::string(path) + "': " + why);
  };
  if (path.front() == '.' || path.back() == '.' || path.find("..") != std::string_view::npos) {
    fail("empty path component");
  }
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '*') fail("'*' is reserved for generic paths");
    if (u <= 0x20 || u == 0x7f) fail("whitespace or control character");
  }
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    if (dot == std::string_view::npos) {
      parts.push_back(path.substr(start));
      return parts;
    }
    parts.push_back(path.substr(start, dot - start));
    start = dot + 1;
  }
}

std::string generic_component(std::string_view component) {
  std::size_t end = component.size();
  while (end > 0 && is_digit(component[end - 1]))
    --end;
  std::string out(component.substr(0, end));
  if (end != component.size()) out += '*';
  return out;
}

std::string generic_path(std::string_view path) {
  // generic_component() of each component, in one pass without a string per component: every statistic
  // registered at start-up needs its generic path (docs/performance.md).
  std::string out;
  out.reserve(path.size() + 4);
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    const std::size_t end = dot == std::string_view::npos ? path.size() : dot;
    std::size_t digits = end;
    while (digits > start && is_digit(path[digits - 1]))
      --digits;
    out.append(path.substr(start, digits - start));
    if (digits != end) out += '*';
    if (dot == std::string_view::npos) return out;
    out += '.';
    start = dot + 1;
  }
}

namespace {
// PathLess's order of two components.
bool component_less(std::string_view a, std::string_view b) {
  int c = natural_compare(a, b);
  if (c == 0) c = a.compare(b);
  return c < 0;
}
}  // namespace

std::vector<std::size_t> path_order(const std::vector<std::string_view>& paths) {
  // Every path as a run of component ids (ids in order of first appearance), all runs in one vector.
  std::unordered_map<std::string_view, std::uint32_t> ids;
  std::vector<std::string_view> components;  // by id
  std::vector<std::uint32_t> runs;
  std::vector<std::size_t> starts;  // path i's run: [starts[i], starts[i + 1])
  starts.reserve(paths.size() + 1);
  for (const std::string_view path : paths) {
    starts.push_back(runs.size());
    std::size_t from = 0;
    while (true) {
      const std::size_t dot = path.find('.', from);
      const std::string_view part = path.substr(from, dot == std::string_view::npos ? dot : dot - from);
      const auto [it, added] = ids.try_emplace(part, static_cast<std::uint32_t>(components.size()));
      if (added) components.push_back(part);
      runs.push_back(it->second);
      if (dot == std::string_view::npos) break;
      from = dot + 1;
    }
  }
  starts.push_back(runs.size());
  // Ids become ranks in PathLess's component order: comparing two components is then comparing two numbers.
  std::vector<std::uint32_t> by_rank(components.size());
  for (std::uint32_t id = 0; id < by_rank.size(); ++id)
    by_rank[id] = id;
  std::sort(by_rank.begin(), by_rank.end(),
            [&](std::uint32_t l, std::uint32_t r) { return component_less(components[l], components[r]); });
  std::vector<std::uint32_t> rank(components.size());
  for (std::uint32_t r = 0; r < by_rank.size(); ++r)
    rank[by_rank[r]] = r;
  for (std::uint32_t& id : runs)
    id = rank[id];
  // Component by component, a path that is a prefix of the other first: PathLess's "fewer components first".
  std::vector<std::size_t> order(paths.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) {
    return std::lexicographical_compare(runs.begin() + static_cast<std::ptrdiff_t>(starts[l]),
                                        runs.begin() + static_cast<std::ptrdiff_t>(starts[l + 1]),
                                        runs.begin() + static_cast<std::ptrdiff_t>(starts[r]),
                                        runs.begin() + static_cast<std::ptrdiff_t>(starts[r + 1]));
  });
  return order;
}

bool PathLess::operator()(std::string_view a, std::string_view b) const {
  // Walks both paths component by component without allocating: maps keyed by PathLess compare a lot.
  while (true) {
    const std::size_t da = a.find('.'), db = b.find('.');
    const std::string_view ca = a.substr(0, da), cb = b.substr(0, db);
    int c = natural_compare(ca, cb);
    if (c == 0) c = ca.compare(cb);
    if (c != 0) return c < 0;
    if (da == std::string_view::npos || db == std::string_view::npos) {
      return da == std::string_view::npos && db != std::string_view::npos;  // fewer components first
    }
    a.remove_prefix(da + 1);
    b.remove_prefix(db + 1);
  }
}

}  // namespace numagpu::stats
