#include "runtime/placement.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "runtime/block_split.hpp"

namespace numagpu::runtime {
namespace {

constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxSockets = std::numeric_limits<SocketId>::max();

bool power_of_two(std::uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// LADM's policies place an allocation relative to its own elements; the others place raw addresses.
bool allocation_relative(PlacementPolicy p) {
  return p == PlacementPolicy::kKernelWide || p == PlacementPolicy::kStrideAware ||
         p == PlacementPolicy::kRowBased || p == PlacementPolicy::kColBased;
}

std::uint64_t last_byte(const Allocation& a) {
  return a.base + (a.bytes - 1);
}

// a * b, or nullopt when it does not fit in 64 bits.
std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kMaxU64 / a) return std::nullopt;
  return a * b;
}

[[noreturn]] void fail(const Allocation& a, const std::string& what) {
  throw std::invalid_argument("placement: allocation '" + a.name + "': " + what);
}

void validate_shape(const Allocation& a) {
  const Shape& s = *a.shape;
  if (s.rows == 0 || s.cols == 0 || s.depth == 0) fail(a, "shape rows, cols and depth must be >= 1");
  const auto plane = checked_mul(s.rows, s.cols);
  const auto elements = plane ? checked_mul(*plane, s.depth) : std::nullopt;
  const auto shape_bytes = elements ? checked_mul(*elements, a.element_bytes) : std::nullopt;
  if (!shape_bytes || *shape_bytes != a.bytes) {
    fail(a, "shape " + std::to_string(s.rows) + "x" + std::to_string(s.cols) + "x" + std::to_string(s.depth) +
                " of " + std::to_string(a.element_bytes) + " B elements does not cover its " +
                std::to_string(a.bytes) + " B exactly");
  }
}

// Allocations do not overlap, so sorted by base their last bytes are sorted too: the first one ending at or
// after `lo` is the only candidate for the lowest allocation overlapping [lo, hi].
const Allocation* first_overlapping(const std::vector<Allocation>& all,
                                    const std::vector<std::size_t>& by_base, std::uint64_t lo,
                                    std::uint64_t hi) {
  const auto it = std::partition_point(by_base.begin(), by_base.end(),
                                       [&](std::size_t i) { return last_byte(all[i]) < lo; });
  if (it == by_base.end() || all[*it].base > hi) return nullptr;
  return &all[*it];
}

}  // namespace

Placement::Placement(std::uint32_t sockets, const PlacementParams& params,
                     std::vector<Allocation> allocations)
    : sockets_(sockets), params_(params), allocations_(std::move(allocations)), first_touch_({}, {}) {
  if (sockets == 0 || sockets > kMaxSockets) {
    throw std::invalid_argument("placement: sockets must be 1.." + std::to_string(kMaxSockets) + " (got " +
                                std::to_string(sockets) + ")");
  }
  if (!power_of_two(params.page_bytes)) {
    throw std::invalid_argument("placement: page_bytes " + std::to_string(params.page_bytes) +
                                " is not a power of two");
  }
  if (!power_of_two(params.granule_bytes)) {
    throw std::invalid_argument("placement: granule_bytes " + std::to_string(params.granule_bytes) +
                                " is not a power of two");
  }
  for (const Allocation& a : allocations_)
    validate_allocation(a);
  index_allocations();
  // An allocation given its own policy is placed by it: place_once() leaves it.
  for (const Allocation& a : allocations_)
    placed_once_.push_back(a.policy.has_value());
  requests_local_.assign(allocations_.size(), 0);
  requests_remote_.assign(allocations_.size(), 0);
  first_touch_ = make_page_homes();
}

PageHomes Placement::make_page_homes() const {
  std::vector<std::uint64_t> first_pages, page_counts;
  for (const Allocation& a : allocations_) {
    first_pages.push_back(a.base / params_.page_bytes);
    page_counts.push_back(last_byte(a) / params_.page_bytes - first_pages.back() + 1);
  }
  return PageHomes(std::move(first_pages), std::move(page_counts));
}

bool Placement::place_once(std::uint64_t base, PlacementPolicy policy, std::uint64_t stride_bytes) {
  for (std::size_t i = 0; i < allocations_.size(); ++i) {
    Allocation& a = allocations_[i];
    if (a.base != base) continue;
    if (placed_once_[i]) return false;
    if ((policy == PlacementPolicy::kRowBased || policy == PlacementPolicy::kColBased) && !a.shape)
      return false;
    if (policy == PlacementPolicy::kStrideAware && (stride_bytes == 0 || stride_bytes % a.element_bytes != 0))
      return false;
    if (policy == PlacementPolicy::kFirstTouch) return false;
    placed_once_[i] = true;
    a.policy = policy;
    if (policy == PlacementPolicy::kStrideAware) a.stride_bytes = stride_bytes;
    return true;
  }
  return false;
}

void Placement::validate_allocation(const Allocation& a) const {
  if (a.name.empty()) {
    throw std::invalid_argument("placement: an allocation at " + std::to_string(a.base) + " has no name");
  }
  if (a.bytes == 0) fail(a, "size must be >= 1 B");
  if (a.bytes - 1 > kMaxU64 - a.base) fail(a, "extends past the end of the address space");
  if (a.element_bytes == 0) fail(a, "element_bytes must be >= 1");
  if (a.bytes % a.element_bytes != 0) {
    fail(a, "size " + std::to_string(a.bytes) + " B is not a multiple of its " +
                std::to_string(a.element_bytes) + " B elements");
  }
  if (a.shape) validate_shape(a);
  const PlacementPolicy p = policy_of(a);
  if (p == PlacementPolicy::kStrideAware && (a.stride_bytes == 0 || a.stride_bytes % a.element_bytes != 0)) {
    fail(a, "stride_aware placement needs stride_bytes, a positive multiple of element_bytes (got " +
                std::to_string(a.stride_bytes) + ")");
  }
  if ((p == PlacementPolicy::kRowBased || p == PlacementPolicy::kColBased) && !a.shape) {
    fail(a, std::string(name(p)) + " placement needs the allocation's shape");
  }
}

// Sorts by base, then rejects names used twice and overlaps (neighbours in base order are the only
// candidates once sorted).
void Placement::index_allocations() {
  by_base_.resize(allocations_.size());
  for (std::size_t i = 0; i < by_base_.size(); ++i)
    by_base_[i] = i;
  std::sort(by_base_.begin(), by_base_.end(),
            [this](std::size_t l, std::size_t r) { return allocations_[l].base < allocations_[r].base; });
  for (std::size_t i = 1; i < by_base_.size(); ++i) {
    const Allocation& prev = allocations_[by_base_[i - 1]];
    const Allocation& next = allocations_[by_base_[i]];
    if (next.base <= last_byte(prev)) fail(next, "overlaps allocation '" + prev.name + "'");
  }
  std::unordered_set<std::string> names;
  for (const Allocation& a : allocations_) {
    if (!names.insert(a.name).second) fail(a, "name used twice");
  }
}

PlacementPolicy Placement::policy_of(const Allocation& allocation) const {
  return allocation.policy.value_or(params_.policy);
}

const Allocation* Placement::allocation_at(std::uint64_t address) const {
  return first_overlapping(allocations_, by_base_, address, address);
}

const Allocation* Placement::owner_of_page(std::uint64_t page) const {
  const std::uint64_t lo = page * params_.page_bytes;
  return first_overlapping(allocations_, by_base_, lo, lo + (params_.page_bytes - 1));
}

Placement::PageRule Placement::rule_of_page(std::uint64_t page) const {
  if (const Allocation* owner = owner_of_page(page)) return {policy_of(*owner), owner};
  const PlacementPolicy fallback =
      allocation_relative(params_.policy) ? PlacementPolicy::kPageInterleave : params_.policy;
  return {fallback, nullptr};
}

// LADM's placements as a map from element index to socket (docs/runtime-policies.md). Each cuts units into
// balanced contiguous parts, the same rule as the contiguous and binding CTA schedules.
SocketId Placement::element_home(const Allocation& a, PlacementPolicy policy, std::uint64_t element) const {
  const std::uint64_t elements = a.bytes / a.element_bytes;
  std::uint64_t part = 0;
  switch (policy) {
    case PlacementPolicy::kKernelWide:
      part = BlockSplit(elements, sockets_).part_of(element);
      break;
    case PlacementPolicy::kStrideAware: {
      // Equation 1: every stride window is split the same way, so a CTA finds all its datablocks (one per
      // window) on the socket that runs it.
      const std::uint64_t window = a.stride_bytes / a.element_bytes;
      part = BlockSplit(window, sockets_).part_of(element % window);
      break;
    }
    case PlacementPolicy::kRowBased:
      part = BlockSplit(a.shape->rows * a.shape->depth, sockets_).part_of(element / a.shape->cols);
      break;
    case PlacementPolicy::kColBased:
      // Equation 1 with the row width as the stride: a column band is the same in every row.
      part = BlockSplit(a.shape->cols, sockets_).part_of(element % a.shape->cols);
      break;
    default:
      throw std::logic_error("placement: not an element-based policy");
  }
  return static_cast<SocketId>(part);
}

SocketId Placement::static_home(const PageRule& rule, std::uint64_t page, std::uint64_t address) const {
  switch (rule.policy) {
    case PlacementPolicy::kLineInterleave:
      return static_cast<SocketId>((address / params_.granule_bytes) % sockets_);
    case PlacementPolicy::kPageInterleave:
      return static_cast<SocketId>(page % sockets_);
    case PlacementPolicy::kFirstTouch:
      throw std::logic_error("placement: first touch has no static home");
    default: {
      // The first-byte rule: the page follows the first of its bytes that lies in the owner.
      const Allocation& a = *rule.owner;
      const std::uint64_t first = std::max(page * params_.page_bytes, a.base);
      return element_home(a, rule.policy, (first - a.base) / a.element_bytes);
    }
  }
}

PageTouch Placement::touch(std::uint64_t address, SocketId toucher) {
  if (toucher >= sockets_) {
    throw std::invalid_argument("placement: toucher socket " + std::to_string(toucher) + " does not exist (" +
                                std::to_string(sockets_) + " sockets)");
  }
  const std::uint64_t page = address / params_.page_bytes;
  const PageRule rule = rule_of_page(page);
  if (rule.policy != PlacementPolicy::kFirstTouch) {
    const SocketId home = static_home(rule, page, address);
    count_request(rule, address, home == toucher);
    return {home, false};
  }
  // The page's owner, found above for its policy, is where PageHomes keeps the page's home.
  const auto [home, inserted] = first_touch_.home_or_decide(page, index_of(rule.owner), toucher);
  count_request(rule, address, home == toucher);
  return {home, inserted};
}

void Placement::count_request(const PageRule& rule, std::uint64_t address, bool local) {
  // The page's owner is the allocation of nearly every address; a page two allocations share needs the
  // search by address.
  const Allocation* a = rule.owner;
  if (a == nullptr || address < a->base || address > last_byte(*a)) a = allocation_at(address);
  if (a == nullptr) return;  // memory no allocation declares
  const std::size_t i = static_cast<std::size_t>(a - allocations_.data());
  ++(local ? requests_local_ : requests_remote_)[i];
}

std::optional<SocketId> Placement::peek(std::uint64_t address) const {
  const std::uint64_t page = address / params_.page_bytes;
  const PageRule rule = rule_of_page(page);
  if (rule.policy != PlacementPolicy::kFirstTouch) return static_home(rule, page, address);
  return first_touch_.find(page, index_of(rule.owner));
}

// Books the part of `page` that lies in `a`: as a whole page when it has one home, otherwise (line interleave
// with granules smaller than a page) byte by granule.
void Placement::add_page(const Allocation& a, std::uint64_t page, AllocationReport& out) const {
  const std::uint64_t page_first = page * params_.page_bytes;
  const std::uint64_t lo = std::max(page_first, a.base);
  const std::uint64_t hi = std::min(page_first + (params_.page_bytes - 1), last_byte(a));
  const std::uint64_t bytes = hi - lo + 1;
  const PageRule rule = rule_of_page(page);
  ++out.pages_total;
  if (rule.policy == PlacementPolicy::kFirstTouch) {
    const auto home = first_touch_.find(page, index_of(rule.owner));
    if (!home) {
      ++out.untouched_pages;
      return;
    }
    ++out.pages[*home];
    out.bytes[*home] += bytes;
    return;
  }
  const std::uint64_t g = params_.granule_bytes;
  // Consecutive granules sit on different sockets whenever there are two or more.
  if (rule.policy == PlacementPolicy::kLineInterleave && lo / g != hi / g && sockets_ > 1) {
    ++out.mixed_pages;
    for (std::uint64_t granule = lo / g; granule <= hi / g; ++granule) {
      const std::uint64_t from = std::max(lo, granule * g);
      const std::uint64_t to = std::min(hi, granule * g + (g - 1));
      out.bytes[granule % sockets_] += to - from + 1;
    }
    return;
  }
  const SocketId home = static_home(rule, page, lo);
  ++out.pages[home];
  out.bytes[home] += bytes;
}

AllocationReport Placement::report_of(const Allocation& a) const {
  AllocationReport out;
  out.name = a.name;
  const std::size_t i = static_cast<std::size_t>(&a - allocations_.data());
  out.requests_local = requests_local_[i];
  out.requests_remote = requests_remote_[i];
  out.pages.assign(sockets_, 0);
  out.bytes.assign(sockets_, 0);
  const std::uint64_t last_page = last_byte(a) / params_.page_bytes;
  for (std::uint64_t page = a.base / params_.page_bytes;; ++page) {
    add_page(a, page, out);
    if (page == last_page) break;  // not `page <= last_page`: the last page of the address space would wrap
  }
  return out;
}

std::vector<AllocationReport> Placement::report() const {
  std::vector<AllocationReport> out;
  out.reserve(allocations_.size());
  for (const Allocation& a : allocations_)
    out.push_back(report_of(a));
  return out;
}

AllocationReport Placement::report(const std::string& allocation) const {
  for (const Allocation& a : allocations_) {
    if (a.name == allocation) return report_of(a);
  }
  throw std::invalid_argument("placement: no allocation named '" + allocation + "'");
}

const char* name(PlacementPolicy policy) {
  switch (policy) {
    case PlacementPolicy::kLineInterleave:
      return "line_interleave";
    case PlacementPolicy::kPageInterleave:
      return "page_interleave";
    case PlacementPolicy::kFirstTouch:
      return "first_touch";
    case PlacementPolicy::kKernelWide:
      return "kernel_wide";
    case PlacementPolicy::kStrideAware:
      return "stride_aware";
    case PlacementPolicy::kRowBased:
      return "row_based";
    case PlacementPolicy::kColBased:
      return "col_based";
  }
  return "?";
}

PlacementPolicy parse_placement_policy(const std::string& text) {
  for (PlacementPolicy p :
       {PlacementPolicy::kLineInterleave, PlacementPolicy::kPageInterleave, PlacementPolicy::kFirstTouch,
        PlacementPolicy::kKernelWide, PlacementPolicy::kStrideAware, PlacementPolicy::kRowBased,
        PlacementPolicy::kColBased}) {
    if (text == name(p)) return p;
  }
  throw std::invalid_argument("unknown placement policy '" + text +
                              "' (expected line_interleave, page_interleave, first_touch, kernel_wide, "
                              "stride_aware, row_based or col_based)");
}

}  // namespace numagpu::runtime
