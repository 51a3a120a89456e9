// The B+ tree of Rodinia 3.1's b+tree as numagpu's library builds it
// (models/kernels/rodinia/btree_common.hpp, its layout and insertion rules written here again), and glibc's
// unseeded rand() that draws the queries: shared by btree.cu (findK) and btree_range.cu (findRangeK).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

constexpr int kOrder = 256;
constexpr int kKnodeInts = 517;  // location, indices[257], keys[257], is_leaf, num_keys
struct Knode {
  int location;
  int indices[kOrder + 1];
  int keys[kOrder + 1];
  bool is_leaf;
  int num_keys;
};
static_assert(sizeof(Knode) == kKnodeInts * 4, "Rodinia's knode is 2,068 bytes");
struct Record {
  int value;
};

// The B+ tree of Rodinia's b+tree.c as the library builds it: a leaf that reaches 256 keys keeps 128 and
// moves the rest to a new right leaf whose first key goes up; an internal node that reaches 256 keys keeps
// 127 keys and 128 children, sends key 127 up and moves the rest right.
struct TreeNode {
  bool leaf = true;
  int parent = -1;
  std::vector<int> keys, children;
};
struct Tree {
  std::vector<TreeNode> nodes;
  int root = -1;

  void insert_into_parent(int left, int key, int right) {
    const int p = nodes[left].parent;
    if (p < 0) {
      TreeNode r;
      r.leaf = false;
      r.keys = {key};
      r.children = {left, right};
      nodes.push_back(r);
      root = (int)nodes.size() - 1;
      nodes[left].parent = nodes[right].parent = root;
      return;
    }
    const int at = (int)(std::find(nodes[p].children.begin(), nodes[p].children.end(), left) -
                         nodes[p].children.begin());
    nodes[p].keys.insert(nodes[p].keys.begin() + at, key);
    nodes[p].children.insert(nodes[p].children.begin() + at + 1, right);
    nodes[right].parent = p;
    if ((int)nodes[p].keys.size() < kOrder) return;
    TreeNode q;
    q.leaf = false;
    q.parent = nodes[p].parent;
    const int up = nodes[p].keys[127];
    q.keys.assign(nodes[p].keys.begin() + 128, nodes[p].keys.end());
    q.children.assign(nodes[p].children.begin() + 128, nodes[p].children.end());
    nodes[p].keys.resize(127);
    nodes[p].children.resize(128);
    nodes.push_back(q);
    const int qi = (int)nodes.size() - 1;
    for (int ch : nodes[qi].children)
      nodes[ch].parent = qi;
    insert_into_parent(p, up, qi);
  }
  void insert(int key) {
    if (root < 0) {
      nodes.push_back(TreeNode{});
      nodes[0].keys.push_back(key);
      root = 0;
      return;
    }
    int n = root;
    while (!nodes[n].leaf)
      n = nodes[n].children[std::upper_bound(nodes[n].keys.begin(), nodes[n].keys.end(), key) -
                            nodes[n].keys.begin()];
    auto at = std::lower_bound(nodes[n].keys.begin(), nodes[n].keys.end(), key);
    if (at != nodes[n].keys.end() && *at == key) return;
    nodes[n].keys.insert(at, key);
    if ((int)nodes[n].keys.size() < kOrder) return;
    TreeNode right;
    right.parent = nodes[n].parent;
    right.keys.assign(nodes[n].keys.begin() + 128, nodes[n].keys.end());
    nodes[n].keys.resize(128);
    nodes.push_back(right);
    const int ri = (int)nodes.size() - 1;
    insert_into_parent(n, nodes[ri].keys.front(), ri);
  }
  // Breadth-first into knodes; records numbered in walk order, a record's value its key. Returns the height.
  long flatten(std::vector<Knode>& knodes, std::vector<Record>& records) const {
    std::vector<int> order{root};
    for (size_t i = 0; i < order.size(); ++i)
      if (!nodes[order[i]].leaf)
        for (int ch : nodes[order[i]].children)
          order.push_back(ch);
    knodes.assign(order.size(), Knode{});
    int next_child = 1, record = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      const TreeNode& n = nodes[order[i]];
      Knode& k = knodes[i];
      const int nk = (int)n.keys.size();
      k.location = (int)i;
      for (int j = 0; j <= kOrder; ++j)
        k.keys[j] = INT_MAX;
      k.keys[0] = INT_MIN;
      for (int j = 0; j < nk; ++j)
        k.keys[j + 1] = n.keys[j];
      if (!n.leaf) {
        for (int j = 0; j <= nk; ++j)
          k.indices[j] = next_child++;
      } else {
        for (int j = 0; j < nk; ++j) {
          records[record].value = n.keys[j];
          k.indices[j + 1] = record++;
        }
      }
      k.indices[nk + 1] = (int)i + 1;
      k.is_leaf = n.leaf;
      k.num_keys = nk + 2;
    }
    long height = 0;
    for (int n = root; !nodes[n].leaf; n = nodes[n].children[0])
      ++height;
    return height;
  }
};

// glibc's rand() of a program that never seeds it (its additive feedback generator, srand(1)).
struct GlibcRand {
  std::vector<uint32_t> r;
  GlibcRand() {
    r.resize(34);
    r[0] = 1;
    for (int i = 1; i < 31; ++i) {
      const int64_t v = (16807 * (int64_t)(int32_t)r[i - 1]) % 2147483647;
      r[i] = (uint32_t)(v < 0 ? v + 2147483647 : v);
    }
    for (int i = 31; i < 34; ++i)
      r[i] = r[i - 31];
    for (int i = 34; i < 344; ++i)
      next();
  }
  uint32_t next() {
    const uint32_t v = r[r.size() - 31] + r[r.size() - 3];
    r.push_back(v);
    if (r.size() > 4096) r.erase(r.begin(), r.end() - 64);
    return v;
  }
  int operator()() { return (int)(next() >> 1); }
  int key(long size) { return (int)((float)(*this)() / (float)2147483647 * (float)size); }
};
