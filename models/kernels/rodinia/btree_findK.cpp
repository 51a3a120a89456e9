// rodinia/btree_findK: findK of Rodinia 3.1's b+tree (learned from its kernel/kernel_gpu_cuda.cu,
// kernel_gpu_cuda_wrapper.cu and b+tree.c, written here anew). One CTA per query key, one thread per slot
// of an order-256 node (256 threads): from the root, at each of the tree's `height` levels every thread
// compares the key with its slot's keys (keys[thid] <= key < keys[thid + 1]); the one thread whose slot
// brackets the key writes the child's knode number (indices[thid]) to offset[bid], and after a barrier
// thread 0 moves it to currKnode[bid]. In the leaf, the thread whose key equals the query reads the record
// and writes its value to ans[bid]. The addresses follow the real tree: the knodes, the query keys and the
// per-query node numbers carry data (btree_common.hpp builds them).
// Reference run of the GV100 study: `b+tree.out file mil.txt command command.txt`: 1,000,000 keys, an
// order-256 tree of height 2 (7,874 knodes with the keys ascending), 10,000 queries (command.txt's
// `k 10000`): 10,000 CTAs of 256 threads.
// Input generation: btree_common.hpp (the keys 0 .. 999,999, their insertion order, glibc rand()'s queries).
// Simplified: nothing of the kernel; the knodes' uninitialized words are given values (btree_common.hpp).
// The compares and selects are computed with values; only the tree-level loop's test (i < height, uniform)
// and back edge are charged.
#include "kernels/library.hpp"
#include "kernels/rodinia/btree_common.hpp"

namespace numagpu::kernels {

namespace {

class BtreeFindK : public Kernel {
 public:
  explicit BtreeFindK(const Args& a)
      : Kernel(a),
        tree_(btree::tree(a)),
        size_(a["size"]),
        count_(a["count"]),
        ranges_(a["ranges_before"]),
        records_(array<std::int32_t>("recordsD", std::uint64_t(size_), 0, 0, &records_data_)),
        knodes_(array<std::int32_t>("knodesD", std::uint64_t(tree_->knodes_elem * btree::kKnodeInts), 0, 0,
                                    &knodes_data_)),
        curr_(array<std::int64_t>("currKnodeD", std::uint64_t(count_), 0, 0, &curr_data_)),
        offset_(array<std::int64_t>("offsetD", std::uint64_t(count_), 0, 0, &offset_data_)),
        keys_(array<std::int32_t>("keysD", std::uint64_t(count_), 0, 0, &keys_data_)),
        ans_(array<std::int32_t>("ansD", std::uint64_t(count_), 0, 0, &ans_data_)) {}

  Launch launch() override {
    Launch l = btree::launch(count_, 20);  // registers: an estimate (no sm_70 compile at hand)
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

  // The arrays the host copies in: the tree, currKnode = offset = 0, the keys, ans = -1.
  void prepare() override {
    records_data_ = tree_->records;
    knodes_data_ = tree_->knodes;
    curr_data_.assign(std::size_t(count_), 0);
    offset_data_.assign(std::size_t(count_), 0);
    keys_data_ = btree::make_queries(size_, ranges_, kRangeSize, count_).keys;
    ans_data_.assign(std::size_t(count_), -1);
  }

 private:
  void body(Cta& c) {
    const V<std::int64_t> thid = c.threadIdx_x();
    const V<std::int64_t> bid = c.uniform(c.blockIdx.x);
    const std::int64_t elem = tree_->knodes_elem;
    for (std::int64_t i = 0; i < tree_->height; ++i) {
      // if (knodesD[currKnodeD[bid]].keys[thid] <= keysD[bid] && ...keys[thid + 1] > keysD[bid])
      const V<std::int64_t> curr = c.load(curr_, bid);
      const V<std::int32_t> key = c.load(keys_, bid);
      const V<std::int32_t> lo = c.load(knodes_, btree::knode_word(curr, thid), btree::kKeys);
      c.if_(lo <= key, [&] {
        const V<std::int32_t> hi = c.load(knodes_, btree::knode_word(curr, thid), btree::kKeys + 1);
        c.if_(hi > key, [&] {
          // if (knodesD[offsetD[bid]].indices[thid] < knodes_elem) offsetD[bid] = that index
          const V<std::int64_t> off = c.load(offset_, bid);
          const V<std::int64_t> child =
              convert<std::int64_t>(c.load(knodes_, btree::knode_word(off, thid), btree::kIndices));
          c.if_(child < elem, [&] { c.store(offset_, bid, child); });
        });
      });
      c.syncthreads();
      c.if_(thid == 0, [&] { c.store(curr_, bid, c.load(offset_, bid)); });
      c.syncthreads();
      c.charge(InstrClass::kInt);     // i < height
      c.charge(InstrClass::kBranch);  // the loop's back edge
    }
    // if (knodesD[currKnodeD[bid]].keys[thid] == keysD[bid]) ansD[bid].value =
    // recordsD[...indices[thid]].value
    const V<std::int64_t> curr = c.load(curr_, bid);
    const V<std::int32_t> key = c.load(keys_, bid);
    const V<std::int32_t> k = c.load(knodes_, btree::knode_word(curr, thid), btree::kKeys);
    c.if_(k == key, [&] {
      const V<std::int64_t> rec =
          convert<std::int64_t>(c.load(knodes_, btree::knode_word(curr, thid), btree::kIndices));
      c.store(ans_, bid, c.load(records_, rec));
    });
  }

  static constexpr std::int64_t kRangeSize = 6000;  // command.txt's j query, as parsed (btree_common.hpp)

  std::shared_ptr<const btree::Tree> tree_;
  std::int64_t size_, count_, ranges_;
  std::vector<std::int32_t> records_data_, knodes_data_, keys_data_, ans_data_;
  std::vector<std::int64_t> curr_data_, offset_data_;
  Array<std::int32_t> records_, knodes_;
  Array<std::int64_t> curr_, offset_;
  Array<std::int32_t> keys_, ans_;
};

}  // namespace

LibraryEntry rodinia_btree_findK() {
  return {"rodinia/btree_findK",
          "Rodinia 3.1 b+tree, kernel findK; GV100 study input: mil.txt (1 M keys), command.txt (k 10000)",
          btree::args({
              {"count", 10000, 1, 65535, "key queries, one CTA each (command.txt: k 10000)"},
              {"ranges_before", 6000, 0, 65535,
               "rand() draws of the range queries run before (command.txt: j 6000)"},
          }),
          [](const Args& a) { return std::make_unique<BtreeFindK>(a); }};
}

}  // namespace numagpu::kernels
