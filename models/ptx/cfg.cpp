#include "ptx/cfg.hpp"

#include <algorithm>

namespace numagpu::ptx {

namespace {

bool ends_block(const Instr& in) {
  return in.op == Op::kBra || in.op == Op::kRet || in.op == Op::kExit || in.op == Op::kTrap;
}

}  // namespace

std::uint32_t ControlFlowGraph::reconvergence_pc(std::uint32_t pc) const {
  const std::uint32_t p = ipdom[block_of[pc]];
  return p == exit_block() ? code_size : blocks[p].first;
}

ControlFlowGraph build_cfg(const std::vector<Instr>& code) {
  ControlFlowGraph g;
  const auto n = static_cast<std::uint32_t>(code.size());
  g.code_size = n;
  // Leaders: the first instruction, branch targets, and what follows a block's end.
  std::vector<bool> leader(n + 1, false);
  if (n) leader[0] = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (code[i].op == Op::kBra || code[i].op == Op::kRet) leader[std::min(code[i].target, n)] = true;
    if (ends_block(code[i])) leader[i + 1] = true;
  }
  g.block_of.assign(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (leader[i]) g.blocks.push_back({i, i, {}});
    g.blocks.back().end = i + 1;
    g.block_of[i] = static_cast<std::uint32_t>(g.blocks.size() - 1);
  }
  const std::uint32_t exit = g.exit_block();
  auto block_at = [&](std::uint32_t pc) { return pc >= n ? exit : g.block_of[pc]; };
  for (auto& b : g.blocks) {
    const Instr& last = code[b.end - 1];
    const bool guarded = last.guard != kNoReg;
    switch (last.op) {
      case Op::kBra:
      case Op::kRet:
        b.successors.push_back(block_at(last.target));
        if (guarded) b.successors.push_back(block_at(b.end));
        break;
      case Op::kExit:
        b.successors.push_back(exit);
        if (guarded) b.successors.push_back(block_at(b.end));
        break;
      case Op::kTrap:
        b.successors.push_back(exit);
        break;
      default:
        b.successors.push_back(block_at(b.end));
    }
    std::sort(b.successors.begin(), b.successors.end());
    b.successors.erase(std::unique(b.successors.begin(), b.successors.end()), b.successors.end());
  }
  // Post-dominators: dominators of the reversed graph rooted at the exit (Cooper, Harvey and Kennedy's
  // iterative algorithm over a postorder of the reversed graph).
  const std::uint32_t nodes = exit + 1;
  std::vector<std::vector<std::uint32_t>> predecessors(nodes);
  for (std::uint32_t b = 0; b < exit; ++b)
    for (std::uint32_t s : g.blocks[b].successors)
      predecessors[s].push_back(b);
  std::vector<std::uint32_t> order;  // postorder of the reversed graph from the exit
  std::vector<std::uint32_t> number(nodes, ~0u);
  {
    std::vector<std::pair<std::uint32_t, std::size_t>> stack{{exit, 0}};
    std::vector<bool> seen(nodes, false);
    seen[exit] = true;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < predecessors[node].size()) {
        const std::uint32_t p = predecessors[node][next++];
        if (!seen[p]) {
          seen[p] = true;
          stack.push_back({p, 0});
        }
      } else {
        number[node] = static_cast<std::uint32_t>(order.size());
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  constexpr std::uint32_t kUndefined = ~0u;
  std::vector<std::uint32_t> ipdom(nodes, kUndefined);
  ipdom[exit] = exit;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (number[a] < number[b])
        a = ipdom[a];
      while (number[b] < number[a])
        b = ipdom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const std::uint32_t b = *it;
      if (b == exit) continue;
      std::uint32_t next = kUndefined;
      for (std::uint32_t s : g.blocks[b].successors) {
        if (ipdom[s] == kUndefined) continue;
        next = next == kUndefined ? s : intersect(s, next);
      }
      if (next != ipdom[b]) {
        ipdom[b] = next;
        changed = true;
      }
    }
  }
  // Blocks with no path to the exit (an endless loop) reconverge nowhere before the end.
  for (auto& p : ipdom)
    if (p == kUndefined) p = exit;
  ipdom.pop_back();
  g.ipdom = std::move(ipdom);
  return g;
}

}  // namespace numagpu::ptx
