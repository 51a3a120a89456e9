// b+tree findRangeK: the CUDA version of the C++ library kernel rodinia/btree_findRangeK
// (models/kernels/rodinia/btree_findRangeK.cpp) with its default arguments "size=1000000 count=6000
// range=6000 shuffled=0": the tree of btree.cu (btree_tree.cuh), `count` range queries [start, start + range]
// (clamped at the last key) drawn first from glibc's unseeded rand(), as Rodinia's command.txt's `j` runs
// before its `k`; one CTA of 256 threads per query, descending for start and for end side by side. Arrays in
// its order: knodes, currKnode, offset, lastKnode, offset_2, start, end, Recstart, Reclen.
// Usage: btree_range [size count range].
#include "btree_tree.cuh"
#include "common.h"

__global__ void findRangeK(long height, const Knode* knodesD, long knodes_elem, long* currKnodeD,
                           long* offsetD, long* lastKnodeD, long* offset_2D, const int* startD,
                           const int* endD, int* RecstartD, int* ReclenD) {
  const int thid = threadIdx.x, bid = blockIdx.x;
  for (int i = 0; i < height; i++) {
    if (knodesD[currKnodeD[bid]].keys[thid] <= startD[bid] &&
        knodesD[currKnodeD[bid]].keys[thid + 1] > startD[bid]) {
      if (knodesD[currKnodeD[bid]].indices[thid] < knodes_elem)
        offsetD[bid] = knodesD[currKnodeD[bid]].indices[thid];
    }
    if (knodesD[lastKnodeD[bid]].keys[thid] <= endD[bid] &&
        knodesD[lastKnodeD[bid]].keys[thid + 1] > endD[bid]) {
      if (knodesD[lastKnodeD[bid]].indices[thid] < knodes_elem)
        offset_2D[bid] = knodesD[lastKnodeD[bid]].indices[thid];
    }
    __syncthreads();
    if (thid == 0) {
      currKnodeD[bid] = offsetD[bid];
      lastKnodeD[bid] = offset_2D[bid];
    }
    __syncthreads();
  }
  if (knodesD[currKnodeD[bid]].keys[thid] == startD[bid])
    RecstartD[bid] = knodesD[currKnodeD[bid]].indices[thid];
  __syncthreads();
  if (knodesD[lastKnodeD[bid]].keys[thid] == endD[bid])
    ReclenD[bid] = knodesD[lastKnodeD[bid]].indices[thid] - RecstartD[bid] + 1;
}

int main(int argc, char** argv) {
  const long size = argc > 3 ? std::atol(argv[1]) : 1000000;
  const long count = argc > 3 ? std::atol(argv[2]) : 6000;
  const long range = argc > 3 ? std::atol(argv[3]) : 6000;
  Tree tree;
  for (long k = 0; k < size; ++k)
    tree.insert((int)k);
  std::vector<Knode> knodes;
  std::vector<Record> records(size);
  const long height = tree.flatten(knodes, records);
  // Keys inserted ascending are their own record numbers: a range's first record is its start, its length
  // end - start + 1.
  GlibcRand rng;
  std::vector<int> start(count), end(count), want_len(count);
  for (long i = 0; i < count; ++i) {
    int s = rng.key(size), e = (int)(s + range);
    if (e >= size) {
      s = (int)(s - (e - size));
      e = (int)(size - 1);
    }
    start[i] = s;
    end[i] = e;
    want_len[i] = e - s + 1;
  }
  std::vector<long> zeros(count, 0);
  std::vector<int> recstart(count, 0), reclen(count, 0);

  Knode* d_knodes;
  long *d_curr, *d_offset, *d_last, *d_offset2;
  int *d_start, *d_end, *d_recstart, *d_reclen;
  CHECK_CUDA(cudaMalloc(&d_knodes, knodes.size() * sizeof(Knode)));
  CHECK_CUDA(cudaMalloc(&d_curr, count * sizeof(long)));
  CHECK_CUDA(cudaMalloc(&d_offset, count * sizeof(long)));
  CHECK_CUDA(cudaMalloc(&d_last, count * sizeof(long)));
  CHECK_CUDA(cudaMalloc(&d_offset2, count * sizeof(long)));
  CHECK_CUDA(cudaMalloc(&d_start, count * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_end, count * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_recstart, count * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_reclen, count * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(d_knodes, knodes.data(), knodes.size() * sizeof(Knode), cudaMemcpyHostToDevice));
  for (long* d : {d_curr, d_offset, d_last, d_offset2})
    CHECK_CUDA(cudaMemcpy(d, zeros.data(), count * sizeof(long), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_start, start.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_end, end.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_recstart, recstart.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_reclen, reclen.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  findRangeK<<<count, kOrder>>>(height, d_knodes, (long)knodes.size(), d_curr, d_offset, d_last, d_offset2,
                                d_start, d_end, d_recstart, d_reclen);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(recstart.data(), d_recstart, count * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(reclen.data(), d_reclen, count * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_knodes));
  CHECK_CUDA(cudaFree(d_curr));
  CHECK_CUDA(cudaFree(d_offset));
  CHECK_CUDA(cudaFree(d_last));
  CHECK_CUDA(cudaFree(d_offset2));
  CHECK_CUDA(cudaFree(d_start));
  CHECK_CUDA(cudaFree(d_end));
  CHECK_CUDA(cudaFree(d_recstart));
  CHECK_CUDA(cudaFree(d_reclen));
  std::printf("b+tree of %ld keys, height %ld, %zu knodes; %ld range queries of %ld keys\n", size, height,
              knodes.size(), count, range);
  return report("btree_range", count_mismatches("Recstart", recstart.data(), start.data(), count, 0.0) +
                                   count_mismatches("Reclen", reclen.data(), want_len.data(), count, 0.0));
}
