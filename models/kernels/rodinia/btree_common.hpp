// Shared by rodinia/btree_findK and rodinia/btree_findRangeK (not a kernel file: the build lists only
// models/kernels/*/*.cpp as kernels): the input of Rodinia 3.1's b+tree, rebuilt deterministically.
//
// The tree. `b+tree.out file mil.txt command command.txt` inserts the keys of mil.txt, in file order, into
// an order-256 B+ tree (Aviram's insertion: a full leaf of 255 keys splits on its 256th into 128 + 128, the
// right one's first key going up; a full internal node splits into 127 keys + 128 children on the left, the
// middle key going up, 128 keys + 129 children on the right), then flattens it breadth-first into an array
// of `knode`s (transform_to_cuda): knode i = the i-th node of the breadth-first walk, with keys[0] =
// INT_MIN, keys[1..n] its n keys, keys[n + 1 ..] = INT_MAX; an internal node's indices[0..n] the knode
// numbers of its n + 1 children (consecutive, in walk order), a leaf's indices[1..n] the record numbers of
// its keys (records numbered in walk order, record value = key); indices[n + 1] = i + 1. mil.txt is
// "1000000" followed by 1,000,000 lines of integers whose file size (6,888,898 B, its git-annex key)
// is exactly that of the integers 0 .. 999,999, one per line: the keys are 0 .. 999,999. Their order in the
// file is not recorded anywhere we could read; `shuffled=0` (the default) inserts them ascending (a file
// written by a counting loop), `shuffled=1` in a seeded random permutation (Fisher-Yates on mt19937_64).
// Where the source leaves knode words uninitialized (keys[256] of a node with fewer than 255 keys, the
// indices past n + 1, the padding) they are INT_MAX and 0 here; no thread's branch depends on them (the
// comparison with keys[255] = INT_MAX already fails for thread 255).
//
// The queries. command.txt is "j 6000 3000\nk 10000\n": a range search of 6,000 queries, then 10,000 key
// searches. Its parser reads the range size from the same place as the count (the pointer is not moved past
// the first number), so the range size is 6,000, not 3,000. The queries come from glibc's rand(), never
// seeded (seed 1), the range queries first: start = (rand() / (float)RAND_MAX) * size, end = start + 6000
// (clamped at the end of the keys), then key = (rand() / (float)RAND_MAX) * size for findK. The same
// arithmetic here, with glibc's rand() (its additive feedback generator, TYPE_3) written out.
// Corroboration (not a fit): the GV100 study's L2 write sectors are 50,000 for findK and 60,000 for
// findRangeK, the one-sector stores of 10,000 queries x (2 per level x height 2 + ans) and of 6,000 x (4 per
// level x 2 + Recstart + Reclen): the query counts and the height agree.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <tuple>
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels::btree {

constexpr int kOrder = 256;                     // DEFAULT_ORDER of common.h
constexpr int kThreads = kOrder;                // threadsPerBlock = order < 1024 ? order : 1024
constexpr std::int64_t kKnodeInts = 517;        // sizeof(knode) = 2,068 B: location, indices[257], keys[257],
constexpr std::int64_t kIndices = 1;            // is_leaf (padded to 4 B), num_keys; the int offsets of
constexpr std::int64_t kKeys = 1 + kOrder + 1;  // indices[0] and keys[0] in a knode

// The int index of knodesD[node].<field>[slot] is knode_word(node, slot) + field (field: kIndices or kKeys,
// plus any constant slot offset): the field is a compile-time constant, an immediate of the load's address
// (pass it as Cta::load's offset), so only node * 517 + slot costs instructions.
inline V<std::int64_t> knode_word(const V<std::int64_t>& node, const V<std::int64_t>& slot) {
  return node * kKnodeInts + slot;
}

// glibc's rand() of an unseeded program (srand(1)): r[i] = r[i - 3] + r[i - 31] (mod 2^32) after the
// Park-Miller initialization of 31 words and 310 discarded outputs; each call returns r >> 1.
class GlibcRand {
 public:
  GlibcRand() {
    r_.resize(34);
    r_[0] = 1;
    for (int i = 1; i < 31; ++i) {
      const std::int64_t v =
          (16807 * static_cast<std::int64_t>(static_cast<std::int32_t>(r_[i - 1]))) % 2147483647;
      r_[i] = static_cast<std::uint32_t>(v < 0 ? v + 2147483647 : v);
    }
    for (int i = 31; i < 34; ++i)
      r_[i] = r_[i - 31];
    for (int i = 34; i < 344; ++i)
      next_word();
  }
  int operator()() { return static_cast<int>(next_word() >> 1); }

 private:
  std::uint32_t next_word() {
    const std::size_t n = r_.size();
    const std::uint32_t v = r_[n - 31] + r_[n - 3];
    r_.push_back(v);
    if (r_.size() > 4096) r_.erase(r_.begin(), r_.end() - 64);
    return v;
  }
  std::vector<std::uint32_t> r_;
};

// (rand() / (float)RAND_MAX) * size, truncated to int, as the source computes a query key.
inline int random_key(GlibcRand& rng, std::int64_t size) {
  const float f = static_cast<float>(rng()) / static_cast<float>(2147483647);
  return static_cast<int>(f * static_cast<float>(size));
}

struct Queries {
  std::vector<std::int32_t> start, end;  // the range queries (findRangeK)
  std::vector<std::int32_t> keys;        // the key queries (findK), drawn after the range queries
};

// command.txt's queries for a tree of `size` keys: `ranges` range queries of size `range`, then `count` keys.
inline Queries make_queries(std::int64_t size, std::int64_t ranges, std::int64_t range, std::int64_t count) {
  GlibcRand rng;
  Queries q;
  for (std::int64_t i = 0; i < ranges; ++i) {
    std::int32_t s = random_key(rng, size), e = static_cast<std::int32_t>(s + range);
    if (e >= size) {
      s = static_cast<std::int32_t>(s - (e - size));
      e = static_cast<std::int32_t>(size - 1);
    }
    q.start.push_back(s);
    q.end.push_back(e);
  }
  for (std::int64_t i = 0; i < count; ++i)
    q.keys.push_back(random_key(rng, size));
  return q;
}

// The flattened tree.
struct Tree {
  std::vector<std::int32_t> knodes;   // knodes_elem x kKnodeInts
  std::vector<std::int32_t> records;  // record values, `size` of them (the source allocates size records)
  std::int64_t knodes_elem = 0;
  std::int64_t height = 0;  // edges from the root to a leaf (the kernels' level loop count)
};

namespace detail {

struct Node {
  bool leaf = true;
  int parent = -1;
  std::vector<std::int32_t> keys;
  std::vector<int> children;  // internal nodes only
};

class Builder {
 public:
  void insert(std::int32_t key) {
    if (root_ < 0) {
      nodes_.push_back(Node{});
      nodes_[0].keys.push_back(key);
      root_ = 0;
      return;
    }
    int n = root_;
    while (!nodes_[n].leaf) {  // child i: the number of keys <= key (find_leaf)
      const auto& k = nodes_[n].keys;
      n = nodes_[n].children[std::upper_bound(k.begin(), k.end(), key) - k.begin()];
    }
    auto& keys = nodes_[n].keys;
    const auto at = std::lower_bound(keys.begin(), keys.end(), key);
    if (at != keys.end() && *at == key) return;  // duplicates are ignored
    keys.insert(at, key);
    if (static_cast<int>(keys.size()) < kOrder) return;
    // A leaf of order keys: the first cut(order - 1) = 128 stay, the rest move to a new right leaf.
    const int right = new_node(true, nodes_[n].parent);
    nodes_[right].keys.assign(nodes_[n].keys.begin() + 128, nodes_[n].keys.end());
    nodes_[n].keys.resize(128);
    into_parent(n, nodes_[right].keys.front(), right);
  }

  Tree flatten(std::int64_t size) const {
    Tree t;
    t.records.assign(static_cast<std::size_t>(size), 0);
    std::vector<int> order{root_};
    for (std::size_t i = 0; i < order.size(); ++i)
      if (!nodes_[order[i]].leaf)
        for (int c : nodes_[order[i]].children)
          order.push_back(c);
    t.knodes_elem = static_cast<std::int64_t>(order.size());
    t.knodes.assign(order.size() * kKnodeInts, 0);
    std::int64_t next_child = 1, record = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const Node& n = nodes_[order[i]];
      std::int32_t* k = &t.knodes[i * kKnodeInts];
      const int nk = static_cast<int>(n.keys.size());
      k[0] = static_cast<std::int32_t>(i);  // location
      for (int j = 0; j <= kOrder; ++j)
        k[kKeys + j] = INT_MAX;
      k[kKeys] = INT_MIN;
      for (int j = 0; j < nk; ++j)
        k[kKeys + 1 + j] = n.keys[j];
      if (!n.leaf) {
        for (int j = 0; j <= nk; ++j)
          k[kIndices + j] = static_cast<std::int32_t>(next_child++);
      } else {
        for (int j = 0; j < nk; ++j) {
          t.records[static_cast<std::size_t>(record)] = n.keys[j];
          k[kIndices + 1 + j] = static_cast<std::int32_t>(record++);
        }
      }
      k[kIndices + nk + 1] = static_cast<std::int32_t>(i + 1);
      k[kKeys + kOrder + 1] = n.leaf ? 1 : 0;  // is_leaf
      k[kKeys + kOrder + 2] = nk + 2;          // num_keys
    }
    for (int n = root_; !nodes_[n].leaf; n = nodes_[n].children[0])
      ++t.height;
    return t;
  }

 private:
  int new_node(bool leaf, int parent) {
    nodes_.push_back(Node{});
    nodes_.back().leaf = leaf;
    nodes_.back().parent = parent;
    return static_cast<int>(nodes_.size()) - 1;
  }

  void into_parent(int left, std::int32_t key, int right) {
    const int p = nodes_[left].parent;
    if (p < 0) {
      root_ = new_node(false, -1);
      nodes_[root_].keys = {key};
      nodes_[root_].children = {left, right};
      nodes_[left].parent = nodes_[right].parent = root_;
      return;
    }
    auto& ch = nodes_[p].children;
    const int at = static_cast<int>(std::find(ch.begin(), ch.end(), left) - ch.begin());
    nodes_[p].keys.insert(nodes_[p].keys.begin() + at, key);
    ch.insert(ch.begin() + at + 1, right);
    nodes_[right].parent = p;
    if (static_cast<int>(nodes_[p].keys.size()) < kOrder) return;
    // order keys, order + 1 children: 127 keys and 128 children stay, key 127 goes up, the rest move right.
    // new_node() may reallocate nodes_: index it again rather than through `ch`.
    const int q = new_node(false, nodes_[p].parent);
    const std::int32_t up = nodes_[p].keys[127];
    nodes_[q].keys.assign(nodes_[p].keys.begin() + 128, nodes_[p].keys.end());
    nodes_[q].children.assign(nodes_[p].children.begin() + 128, nodes_[p].children.end());
    nodes_[p].keys.resize(127);
    nodes_[p].children.resize(128);
    for (int c : nodes_[q].children)
      nodes_[c].parent = q;
    into_parent(p, up, q);
  }

  std::vector<Node> nodes_;
  int root_ = -1;
};

}  // namespace detail

// The tree of the keys 0 .. size - 1, inserted ascending or in a permutation seeded by `seed`. Built once
// per (size, shuffled, seed) and shared: the kernels need its size when they are made (their arrays) and
// its contents when they run.
inline std::shared_ptr<const Tree> tree(std::int64_t size, bool shuffled, std::uint64_t seed) {
  static std::mutex m;
  static std::map<std::tuple<std::int64_t, bool, std::uint64_t>, std::shared_ptr<const Tree>> built;
  const std::lock_guard<std::mutex> lock(m);
  auto& t = built[{size, shuffled, shuffled ? seed : 0}];
  if (!t) {
    std::vector<std::int32_t> keys(static_cast<std::size_t>(size));
    for (std::int64_t i = 0; i < size; ++i)
      keys[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i);
    if (shuffled) {
      std::mt19937_64 rng(seed);
      for (std::size_t i = keys.size(); i > 1; --i)
        std::swap(keys[i - 1], keys[rng() % i]);
    }
    detail::Builder b;
    for (std::int32_t k : keys) {
      interrupt_point();
      b.insert(k);
    }
    t = std::make_shared<const Tree>(b.flatten(size));
  }
  return t;
}

// A kernel's arguments: the tree's (mil.txt's keys and their order) around the kernel's own `queries`.
inline std::vector<ArgSpec> args(const std::vector<ArgSpec>& queries) {
  std::vector<ArgSpec> v{
      {"size", 1000000, 1, 1 << 24, "keys in the tree (0 .. size - 1; mil.txt: 1,000,000)"}};
  v.insert(v.end(), queries.begin(), queries.end());
  v.push_back({"shuffled", 0, 0, 1, "insert the keys in a seeded random order (0: ascending)"});
  v.push_back({"seed", 1, 0, 1 << 30, "the insertion order's seed when shuffled"});
  return v;
}
inline std::shared_ptr<const Tree> tree(const Args& a) {
  return tree(a["size"], a["shuffled"] != 0, static_cast<std::uint64_t>(a["seed"]));
}

// numBlocks = count (one CTA per query), threadsPerBlock = order; no shared memory.
inline Launch launch(std::int64_t count, unsigned regs_per_thread) {
  Launch l;
  l.grid = {static_cast<std::uint32_t>(count), 1, 1};
  l.block = {kThreads, 1, 1};
  l.regs_per_thread = regs_per_thread;
  l.shared_bytes = 0;
  return l;
}

}  // namespace numagpu::kernels::btree
