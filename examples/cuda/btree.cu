// b+tree findK: the CUDA version of the C++ library kernel rodinia/btree_findK
// (models/kernels/rodinia/btree_findK.cpp) with its default arguments "size=1000000 count=10000
// ranges_before=6000 shuffled=0": the keys 0 .. size - 1 inserted ascending into an order-256 B+ tree
// flattened breadth-first into knodes (the layout and insertion rules of the library's btree_common.hpp,
// written here again), 10,000 key queries drawn from glibc's unseeded rand() after the 6,000 range queries
// of Rodinia's command.txt, one CTA of 256 threads per query. Arrays in its order: records, knodes,
// currKnode, offset, keys, ans. Usage: btree [size count].
#include "btree_tree.cuh"
#include "common.h"

__global__ void findK(long height, const Record* recordsD, const Knode* knodesD, long knodes_elem,
                      long* currKnodeD, long* offsetD, const int* keysD, Record* ansD) {
  const int thid = threadIdx.x, bid = blockIdx.x;
  for (int i = 0; i < height; i++) {
    if (knodesD[currKnodeD[bid]].keys[thid] <= keysD[bid] &&
        knodesD[currKnodeD[bid]].keys[thid + 1] > keysD[bid]) {
      if (knodesD[offsetD[bid]].indices[thid] < knodes_elem)
        offsetD[bid] = knodesD[offsetD[bid]].indices[thid];
    }
    __syncthreads();
    if (thid == 0) currKnodeD[bid] = offsetD[bid];
    __syncthreads();
  }
  if (knodesD[currKnodeD[bid]].keys[thid] == keysD[bid])
    ansD[bid].value = recordsD[knodesD[currKnodeD[bid]].indices[thid]].value;
}

int main(int argc, char** argv) {
  const long size = argc > 2 ? std::atol(argv[1]) : 1000000;
  const long count = argc > 2 ? std::atol(argv[2]) : 10000;
  const long ranges_before = 6000;
  Tree tree;
  for (long k = 0; k < size; ++k)
    tree.insert((int)k);
  std::vector<Knode> knodes;
  std::vector<Record> records(size);
  const long height = tree.flatten(knodes, records);
  GlibcRand rng;
  for (long i = 0; i < ranges_before; ++i)
    rng();  // the range queries' starts, drawn first
  std::vector<int> keys(count);
  for (auto& k : keys)
    k = rng.key(size);
  std::vector<long> zeros(count, 0);
  std::vector<Record> ans(count, Record{-1});

  Record *d_records, *d_ans;
  Knode* d_knodes;
  long *d_curr, *d_offset;
  int* d_keys;
  CHECK_CUDA(cudaMalloc(&d_records, size * sizeof(Record)));
  CHECK_CUDA(cudaMalloc(&d_knodes, knodes.size() * sizeof(Knode)));
  CHECK_CUDA(cudaMalloc(&d_curr, count * sizeof(long)));
  CHECK_CUDA(cudaMalloc(&d_offset, count * sizeof(long)));
  CHECK_CUDA(cudaMalloc(&d_keys, count * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_ans, count * sizeof(Record)));
  CHECK_CUDA(cudaMemcpy(d_records, records.data(), size * sizeof(Record), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_knodes, knodes.data(), knodes.size() * sizeof(Knode), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_curr, zeros.data(), count * sizeof(long), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_offset, zeros.data(), count * sizeof(long), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_keys, keys.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_ans, ans.data(), count * sizeof(Record), cudaMemcpyHostToDevice));
  findK<<<count, kOrder>>>(height, d_records, d_knodes, (long)knodes.size(), d_curr, d_offset, d_keys, d_ans);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(ans.data(), d_ans, count * sizeof(Record), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_records));
  CHECK_CUDA(cudaFree(d_knodes));
  CHECK_CUDA(cudaFree(d_curr));
  CHECK_CUDA(cudaFree(d_offset));
  CHECK_CUDA(cudaFree(d_keys));
  CHECK_CUDA(cudaFree(d_ans));
  // Every key 0 .. size - 1 is in the tree with its own value: each query finds its key.
  std::vector<int> got(count);
  for (long i = 0; i < count; ++i)
    got[i] = ans[i].value;
  std::printf("b+tree of %ld keys, height %ld, %zu knodes; %ld queries\n", size, height, knodes.size(),
              count);
  return report("btree", count_mismatches("ans", got.data(), keys.data(), count, 0.0));
}
