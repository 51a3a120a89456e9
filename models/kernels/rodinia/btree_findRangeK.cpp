// rodinia/btree_findRangeK: findRangeK of Rodinia 3.1's b+tree (learned from its kernel/kernel_gpu_cuda_2.cu,
// kernel_gpu_cuda_wrapper_2.cu and b+tree.c, written here anew). One CTA per range query [start, end], one
// thread per slot of an order-256 node (256 threads): two descents side by side, from the root, through the
// tree's `height` levels: at each level every thread compares start with its slot's keys of the node
// currKnode[bid] (keys[thid] <= start < keys[thid + 1]) and the one bracketing it writes the child's knode
// number (indices[thid]) to offset[bid]; likewise end in the node lastKnode[bid] and offset_2[bid]; after a
// barrier thread 0 moves both on. In the two leaves, the thread holding start writes its record number to
// Recstart[bid]; after a barrier, the thread holding end writes the length (its record number - Recstart + 1)
// to Reclen[bid]. The addresses follow the real tree: the knodes, the queries and the per-query node numbers
// carry data (btree_common.hpp builds them).
// Reference run of the GV100 study: `b+tree.out file mil.txt command command.txt`: 1,000,000 keys, an
// order-256 tree of height 2 (7,874 knodes with the keys ascending), command.txt's `j 6000 3000`: 6,000
// range queries of size 6,000 (the source's parser reads the count twice, btree_common.hpp): 6,000 CTAs
// of 256 threads.
// Input generation: btree_common.hpp (the keys 0 .. 999,999, their insertion order, glibc rand()'s queries).
// Simplified: nothing of the kernel; the knodes' uninitialized words are given values (btree_common.hpp).
// The compares and selects are computed with values; only the tree-level loop's test (i < height, uniform)
// and back edge are charged.
#include "kernels/library.hpp"
#include "kernels/rodinia/btree_common.hpp"

namespace numagpu::kernels {

namespace {

class BtreeFindRangeK : public Kernel {
 public:
  explicit BtreeFindRangeK(const Args& a)
      : Kernel(a),
        tree_(btree::tree(a)),
        size_(a["size"]),
        count_(a["count"]),
        range_(a["range"]),
        knodes_(array<std::int32_t>("knodesD", std::uint64_t(tree_->knodes_elem * btree::kKnodeInts), 0, 0,
                                    &knodes_data_)),
        curr_(array<std::int64_t>("currKnodeD", std::uint64_t(count_), 0, 0, &curr_data_)),
        offset_(array<std::int64_t>("offsetD", std::uint64_t(count_), 0, 0, &offset_data_)),
        last_(array<std::int64_t>("lastKnodeD", std::uint64_t(count_), 0, 0, &last_data_)),
        offset2_(array<std::int64_t>("offset_2D", std::uint64_t(count_), 0, 0, &offset2_data_)),
        start_(array<std::int32_t>("startD", std::uint64_t(count_), 0, 0, &start_data_)),
        end_(array<std::int32_t>("endD", std::uint64_t(count_), 0, 0, &end_data_)),
        recstart_(array<std::int32_t>("ansDStart", std::uint64_t(count_), 0, 0, &recstart_data_)),
        reclen_(array<std::int32_t>("ansDLength", std::uint64_t(count_), 0, 0, &reclen_data_)) {
    if (range_ > size_) throw KernelError("argument 'range': larger than the tree's keys");
  }

  Launch launch() override {
    Launch l = btree::launch(count_, 24);  // registers: an estimate (no sm_70 compile at hand)
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

  // The arrays the host copies in: the tree, the four node numbers = 0, the queries, the answers = 0.
  void prepare() override {
    knodes_data_ = tree_->knodes;
    for (auto* v : {&curr_data_, &offset_data_, &last_data_, &offset2_data_})
      v->assign(std::size_t(count_), 0);
    btree::Queries q = btree::make_queries(size_, count_, range_, 0);
    start_data_ = std::move(q.start);
    end_data_ = std::move(q.end);
    recstart_data_.assign(std::size_t(count_), 0);
    reclen_data_.assign(std::size_t(count_), 0);
  }

 private:
  // One level of one descent: if (knodesD[node[bid]].keys[thid] <= bound[bid] && ...keys[thid + 1] >
  // bound[bid]) { if (knodesD[node[bid]].indices[thid] < knodes_elem) next[bid] = that index; }
  void descend(Cta& c, const V<std::int64_t>& bid, const V<std::int64_t>& thid,
               const Array<std::int64_t>& node, const Array<std::int32_t>& bound,
               const Array<std::int64_t>& next) {
    const V<std::int64_t> n = c.load(node, bid);
    const V<std::int32_t> b = c.load(bound, bid);
    const V<std::int32_t> lo = c.load(knodes_, btree::knode_word(n, thid), btree::kKeys);
    c.if_(lo <= b, [&] {
      const V<std::int32_t> hi = c.load(knodes_, btree::knode_word(n, thid), btree::kKeys + 1);
      c.if_(hi > b, [&] {
        const V<std::int64_t> child =
            convert<std::int64_t>(c.load(knodes_, btree::knode_word(n, thid), btree::kIndices));
        c.if_(child < tree_->knodes_elem, [&] { c.store(next, bid, child); });
      });
    });
  }

  void body(Cta& c) {
    const V<std::int64_t> thid = c.threadIdx_x();
    const V<std::int64_t> bid = c.uniform(c.blockIdx.x);
    for (std::int64_t i = 0; i < tree_->height; ++i) {
      descend(c, bid, thid, curr_, start_, offset_);
      descend(c, bid, thid, last_, end_, offset2_);
      c.syncthreads();
      c.if_(thid == 0, [&] {
        c.store(curr_, bid, c.load(offset_, bid));
        c.store(last_, bid, c.load(offset2_, bid));
      });
      c.syncthreads();
      c.charge(InstrClass::kInt);     // i < height
      c.charge(InstrClass::kBranch);  // the loop's back edge
    }
    // if (knodesD[currKnodeD[bid]].keys[thid] == startD[bid]) RecstartD[bid] = ...indices[thid]
    {
      const V<std::int64_t> n = c.load(curr_, bid);
      const V<std::int32_t> s = c.load(start_, bid);
      const V<std::int32_t> k = c.load(knodes_, btree::knode_word(n, thid), btree::kKeys);
      c.if_(k == s,
            [&] { c.store(recstart_, bid, c.load(knodes_, btree::knode_word(n, thid), btree::kIndices)); });
    }
    c.syncthreads();
    // if (knodesD[lastKnodeD[bid]].keys[thid] == endD[bid])
    //   ReclenD[bid] = knodesD[lastKnodeD[bid]].indices[thid] - RecstartD[bid] + 1
    const V<std::int64_t> n = c.load(last_, bid);
    const V<std::int32_t> e = c.load(end_, bid);
    const V<std::int32_t> k = c.load(knodes_, btree::knode_word(n, thid), btree::kKeys);
    c.if_(k == e, [&] {
      const V<std::int32_t> idx = c.load(knodes_, btree::knode_word(n, thid), btree::kIndices);
      const V<std::int32_t> rs = c.load(recstart_, bid);
      c.store(reclen_, bid, idx - rs + 1);
    });
  }

  std::shared_ptr<const btree::Tree> tree_;
  std::int64_t size_, count_, range_;
  std::vector<std::int32_t> knodes_data_, start_data_, end_data_, recstart_data_, reclen_data_;
  std::vector<std::int64_t> curr_data_, offset_data_, last_data_, offset2_data_;
  Array<std::int32_t> knodes_;
  Array<std::int64_t> curr_, offset_, last_, offset2_;
  Array<std::int32_t> start_, end_, recstart_, reclen_;
};

}  // namespace

LibraryEntry rodinia_btree_findRangeK() {
  return {"rodinia/btree_findRangeK",
          "Rodinia 3.1 b+tree, kernel findRangeK; GV100 study input: mil.txt (1 M keys), command.txt (j 6000 "
          "3000)",
          btree::args({
              {"count", 6000, 1, 65535, "range queries, one CTA each (command.txt: j 6000)"},
              {"range", 6000, 0, 1 << 24, "keys per range (command.txt's j 6000 3000 as parsed: 6000)"},
          }),
          [](const Args& a) { return std::make_unique<BtreeFindRangeK>(a); }};
}

}  // namespace numagpu::kernels
