// proxy/minicontact (application): a MiniContact-like contact search (the paper's HPC-MiniContact: the
// contact detection of an explicit structural dynamics code, learned from the public descriptions of contact
// search in finite-element impact codes: a broad phase that bins the master surface's faces in space so that
// each slave node tests only the faces near it, then a narrow phase that projects the node onto each
// candidate face; written here anew). Two bodies, each the surface of a cube of n x n x n unit hexahedra
// (6 n^2 quadrilateral faces, 6 n^2 + 2 nodes), approach each other along x: body 0 fills [0, n]^3, body 1
// [n + gap, 2n + gap] x [1/2, n + 1/2]^2 (offset half a face in y and z, so that a node of one body faces the
// interior of one face of the other). Every node is a slave of the other body's faces (a symmetric search).
//
// The host program runs `steps` search cycles, each eight launches of one thread a node, face or bucket
// (blocks of 128; 1,024 for the scan), as a GPU contact search is organized:
//   update_nodes (per node): the node moves by its body's velocity (the bodies close by `closing` a step);
//   clear_buckets (per bucket): the spatial hash table's counts and fill pointers zeroed;
//   face_bounds (per face): gathers its 4 nodes' coordinates through the face-node connectivity, stores its
//     bounding box grown by the search tolerance, hashes the cell of its centre (unit cells; Teschner et
//     al.'s spatial hash of the three cell coordinates into a power-of-two table) and counts itself in the
//     bucket (atomicAdd);
//   scan_buckets, scan_block_sums, add_block_offsets: the buckets' exclusive prefix sum, their starts (a
//     device-wide scan as three launches: per-CTA block scans, one CTA's scan of their totals, the offsets
//     added);
//   scatter_faces (per face): its slot in its bucket (atomicAdd on the bucket's fill pointer, the old value)
//     and its index written there;
//   search (per node): the 27 cells around the node's, each cell's bucket walked; a face of the other body
//     whose box holds the node goes to the narrow phase: the face's nodes gathered again, its unit normal
//     (the cross product of its diagonals), the node's gap to the face's plane and whether its projection
//     lies inside the face's four edges; the face with the least |gap| within the tolerance (the lower
//     index on a tie) is the node's contact, stored with its gap; a node in contact counts itself in the
//     step's contact count (atomicAdd), which the host reads.
// A cell of the search is a unit cube and a face's centre lies in it, so a node within the tolerance (< 1/2)
// of a face lies in one of the 27 cells around the face's centre: the broad phase misses no contact. Buckets
// shared by colliding cells hold faces of both, which the box test rejects (a face reached through two cells
// of one bucket is tested twice; the outcome is the same).
#include <cmath>
#include <unordered_map>

#include "apps/lonestar/worklist.hpp"  // atomicAdd returning the old value, cub::BlockScan's sum
#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBlock = 128, kScanThreads = 1024;
using runtime::terms::kGathered, runtime::terms::kPerThread;

class MiniContactApp : public Application {
 public:
  MiniContactApp(const Args& a, const std::string& input)
      : Application(a, input),
        n_(a["n"]),
        steps_(a["steps"]),
        tol_(double(a["tol"]) / 100.0),
        closing_(double(a["closing"]) / 100.0) {
    const double gap = double(a["gap"]) / 100.0;
    // The surface of each cube: the six sides, n x n faces each, nodes numbered as first met (a surface
    // extraction's order), faces counter-clockwise seen from outside.
    std::int32_t node = 0, face = 0;
    for (std::int32_t body = 0; body < 2; ++body) {
      const double ox = body == 0 ? 0.0 : double(n_) + gap, oyz = body == 0 ? 0.0 : 0.5;
      std::unordered_map<std::int64_t, std::int32_t> number;  // lattice point -> node
      const std::int64_t sn = n_ + 1;
      auto node_at = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
        const auto [it, fresh] = number.try_emplace(i + sn * (j + sn * k), node);
        if (fresh) {
          x_.values[std::size_t(node)] = ox + double(i);
          y_.values[std::size_t(node)] = oyz + double(j);
          z_.values[std::size_t(node)] = oyz + double(k);
          vx_.values[std::size_t(node)] = body == 0 ? closing_ / 2 : -closing_ / 2;
          body_.values[std::size_t(node)] = body;
          ++node;
        }
        return it->second;
      };
      // Side `axis` at coordinate 0 or n: the face (u, v) of the side spans the two other axes.
      for (int axis = 0; axis < 3; ++axis)
        for (std::int64_t at : {std::int64_t(0), n_})
          for (std::int64_t v = 0; v < n_; ++v)
            for (std::int64_t u = 0; u < n_; ++u) {
              const std::int64_t corners[4][2] = {{u, v}, {u + 1, v}, {u + 1, v + 1}, {u, v + 1}};
              for (int c = 0; c < 4; ++c) {
                // A side at 0 is walked in the opposite order, so both sides' faces turn outward.
                const auto& uv = corners[at == 0 ? 3 - c : c];
                std::int64_t p[3];
                p[axis] = at;
                p[(axis + 1) % 3] = uv[0];
                p[(axis + 2) % 3] = uv[1];
                face_nodes_.values[std::size_t(face) * 4 + std::size_t(c)] = node_at(p[0], p[1], p[2]);
              }
              face_body_.values[std::size_t(face++)] = body;
            }
    }
  }

  void host() override {
    for (std::int64_t step = 0; step < steps_; ++step) {
      launch("update_nodes", update_nodes());
      launch("clear_buckets", clear_buckets());
      launch("face_bounds", face_bounds());
      launch("scan_buckets", scan_buckets());
      launch("scan_block_sums", scan_block_sums());
      launch("add_block_offsets", add_block_offsets());
      launch("scatter_faces", scatter_faces());
      launch("search", search(step));
    }
  }

 private:
  static V<std::int64_t> thread(Cta& c) { return c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kBlock; }
  // The cell coordinate of a position (unit cells, shifted by 2 so that a neighbour cell's is not negative).
  static V<std::int64_t> cell(const V<double>& x) {
    return map(x, InstrClass::kSfu, [](double v) { return std::int64_t(std::floor(v)) + 2; });
  }
  V<std::int64_t> hash(const V<std::int64_t>& i, const V<std::int64_t>& j, const V<std::int64_t>& k) const {
    const std::int64_t mask = buckets_ - 1;
    const V<std::int64_t> ij = zip(i, j, InstrClass::kInt, [](std::int64_t a, std::int64_t b) {
      return (a * 73856093) ^ (b * 19349663);
    });
    i.cta().charge(InstrClass::kInt, 3);  // the multiplies and the mask
    return zip(ij, k, InstrClass::kInt,
               [mask](std::int64_t h, std::int64_t c) { return (h ^ (c * 83492791)) & mask; });
  }

  Launch update_nodes() {
    Launch l = one_thread_per_item(nodes_, kBlock, 16);
    l.body = [this](Cta& c) {
      const V<std::int64_t> n = thread(c);
      c.exit_if(n >= nodes_);
      c.store(x_, n, c.load(x_, n) + c.load(vx_, n));  // dt = 1
    };
    // LASP: x and vx at n = tx + 128 bx, no loop: row 1 (128 x 8 B a CTA); x (first) chooses: align-aware.
    l.accesses = {lasp_access(x_, kPerThread, kBlock * 8), lasp_access(vx_, kPerThread, kBlock * 8)};
    return l;
  }

  Launch clear_buckets() {
    Launch l = one_thread_per_item(buckets_, kBlock, 8);
    l.body = [this](Cta& c) {
      const V<std::int64_t> b = thread(c);
      c.exit_if(b >= buckets_);
      c.store(count_, b, V<std::int32_t>(c, 0));
      c.store(fill_, b, V<std::int32_t>(c, 0));
    };
    // LASP: both at b = tx + 128 bx: row 1, 128 x 4 B a CTA.
    l.accesses = {lasp_access(count_, kPerThread, kBlock * 4), lasp_access(fill_, kPerThread, kBlock * 4)};
    return l;
  }

  Launch face_bounds() {
    Launch l = one_thread_per_item(faces_, kBlock, 40);
    l.body = [this](Cta& c) {
      const V<std::int64_t> f = thread(c);
      c.exit_if(f >= faces_);
      const Array<double>* coord[3] = {&x_, &y_, &z_};
      std::vector<V<std::int64_t>> p;
      for (std::int64_t k = 0; k < 4; ++k)
        p.push_back(convert<std::int64_t>(c.load(face_nodes_, f * 4 + k)));
      std::vector<V<std::int64_t>> cells;
      for (std::int64_t d = 0; d < 3; ++d) {
        V<double> lo = c.load(*coord[d], p[0]), hi = lo, sum = lo;
        for (std::size_t k = 1; k < 4; ++k) {
          const V<double> v = c.load(*coord[d], p[k]);
          lo = select(v < lo, v, lo);
          hi = select(v > hi, v, hi);
          sum = sum + v;
        }
        c.store(box_, f * 6 + d, lo - tol_);
        c.store(box_, f * 6 + 3 + d, hi + tol_);
        cells.push_back(cell(sum * 0.25));
      }
      const V<std::int64_t> h = hash(cells[0], cells[1], cells[2]);
      c.store(face_bucket_, f, convert<std::int32_t>(h));
      c.atomic_add(count_, h, V<std::int32_t>(c, 1));
    };
    // LASP: a face's 4 nodes at 4 f + k and its box at 6 f + d are the face's records (an int4 and two
    // double3s in a GPU code; k and d are field offsets, not a loop moving the thread through the array), so
    // all of them are at f = tx + 128 bx: row 1 (128 x 16 B and 128 x 48 B a CTA), and face_bucket[f]. The
    // nodes' coordinates at the nodes just read and the bucket's count at the hash: gathered (row 7). box,
    // the largest, chooses: align-aware batches of 4096 / gcd(4096, 6144) = 2 CTAs' multiples, RTWICE.
    l.accesses = {lasp_access(face_nodes_, kPerThread, kBlock * 16),
                  lasp_access(x_, kGathered),
                  lasp_access(y_, kGathered),
                  lasp_access(z_, kGathered),
                  lasp_access(box_, kPerThread, kBlock * 48),
                  lasp_access(face_bucket_, kPerThread, kBlock * 4),
                  lasp_access(count_, kGathered)};
    return l;
  }

  // The buckets' exclusive prefix sum in three launches (the scan-then-propagate form of a device-wide
  // scan): each CTA of 1,024 scans its 1,024 buckets (block scan) and stores its total; one CTA scans the
  // totals (each thread a contiguous run of them); every bucket adds its CTA's offset.
  Launch scan_buckets() {
    Launch l = one_thread_per_item(buckets_, kScanThreads, 16);
    l.shared_bytes = (kScanThreads / 32) * sizeof(std::int64_t);
    l.body = [this](Cta& c) {
      const V<std::int64_t> b = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kScanThreads;
      V<std::int64_t> n(c, 0);
      c.if_(b < buckets_, [&] { n = convert<std::int64_t>(c.load(count_, b)); });
      const worklist::BlockSum sum = worklist::block_exclusive_sum(c, n);
      c.if_(b < buckets_, [&] { c.store(start_, b, convert<std::int32_t>(sum.offset)); });
      c.if_(c.threadIdx_x() == kScanThreads - 1, [&] {
        c.store(block_sum_, c.uniform(c.blockIdx.x), V<std::int32_t>(c, std::int32_t(sum.total)));
      });
    };
    // LASP: the counts and starts at b = tx + 1024 bx: row 1 (4 KiB a CTA); block_sums[bx]: row 1 (4 B).
    l.accesses = {lasp_access(count_, kPerThread, kScanThreads * 4),
                  lasp_access(start_, kPerThread, kScanThreads * 4), lasp_access(block_sum_, kPerThread, 4)};
    return l;
  }

  Launch scan_block_sums() {
    Launch l;
    l.grid = {1, 1, 1};
    l.block = {kScanThreads, 1, 1};
    l.regs_per_thread = 24;
    l.shared_bytes = (kScanThreads / 32) * sizeof(std::int64_t);
    l.body = [this](Cta& c) {
      const std::int64_t sums = scan_blocks_, run = (sums + kScanThreads - 1) / kScanThreads;
      const V<std::int64_t> first = c.threadIdx_x() * run;
      V<std::int64_t> i = first, total(c, 0);
      auto in_run = [&] { return i < first + run && i < sums; };
      c.while_(in_run, [&] {
        total = total + convert<std::int64_t>(c.load(block_sum_, i));
        i = i + 1;
      });
      V<std::int64_t> at = worklist::block_exclusive_sum(c, total).offset;
      i = first;
      c.while_(in_run, [&] {
        const V<std::int64_t> mine = convert<std::int64_t>(c.load(block_sum_, i));
        c.store(block_sum_, i, convert<std::int32_t>(at));
        at = at + mine;
        i = i + 1;
      });
    };
    // LASP: one CTA; block_sums at tx run + m, m the run's induction variable: the loop-variant group is
    // exactly m, ITL (row 6): kernel-wide, RONCE under CRB.
    l.accesses = {
        lasp_access(block_sum_, runtime::IndexTerms{false, false, false, runtime::LoopVariant::kUnitM, 0})};
    return l;
  }

  Launch add_block_offsets() {
    Launch l = one_thread_per_item(buckets_, kScanThreads, 12);
    l.body = [this](Cta& c) {
      const V<std::int64_t> b = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kScanThreads;
      c.exit_if(b >= buckets_);
      const V<std::int32_t> offset = c.load(block_sum_, c.uniform(c.blockIdx.x));
      c.store(start_, b, c.load(start_, b) + offset);
    };
    // LASP: bucket_start at b = tx + 1024 bx: row 1 (4 KiB a CTA); block_sums[bx]: row 1.
    l.accesses = {lasp_access(start_, kPerThread, kScanThreads * 4), lasp_access(block_sum_, kPerThread, 4)};
    return l;
  }

  Launch scatter_faces() {
    Launch l = one_thread_per_item(faces_, kBlock, 16);
    l.body = [this](Cta& c) {
      const V<std::int64_t> f = thread(c);
      c.exit_if(f >= faces_);
      const V<std::int64_t> h = convert<std::int64_t>(c.load(face_bucket_, f));
      const V<std::int32_t> slot = worklist::atomic_add_old(c, fill_, h, V<std::int32_t>(c, 1));
      const V<std::int64_t> at = convert<std::int64_t>(c.load(start_, h)) + convert<std::int64_t>(slot);
      c.store(bucket_faces_, at, convert<std::int32_t>(f));
    };
    // LASP: face_bucket[f], f = tx + 128 bx: row 1; the fill pointer and start at the face's bucket and the
    // slot at start + the atomic's old value: gathered (row 7). The bucket arrays (a power of two at least
    // the faces) are the largest; bucket_fill, stated first, chooses: kernel-wide, RTWICE.
    l.accesses = {lasp_access(face_bucket_, kPerThread, kBlock * 4), lasp_access(fill_, kGathered),
                  lasp_access(start_, kGathered), lasp_access(bucket_faces_, kGathered)};
    return l;
  }

  // The narrow phase of node q against face f: the gap to the face's plane and whether q's projection lies
  // inside the face (on the inner side of each edge, seen along the normal).
  void project(Cta& c, const V<std::int64_t>& f, const V<double> (&q)[3], V<double>& gap,
               V<bool>& inside) const {
    const Array<double>* coord[3] = {&x_, &y_, &z_};
    V<double> p[4][3] = {{V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0)},
                         {V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0)},
                         {V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0)},
                         {V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0)}};
    for (std::int64_t k = 0; k < 4; ++k) {
      const V<std::int64_t> id = convert<std::int64_t>(c.load(face_nodes_, f * 4 + k));
      for (int d = 0; d < 3; ++d)
        p[k][d] = c.load(*coord[d], id);
    }
    auto cross = [](const V<double>(&a)[3], const V<double>(&b)[3], int d) {
      return a[(d + 1) % 3] * b[(d + 2) % 3] - a[(d + 2) % 3] * b[(d + 1) % 3];
    };
    const V<double> d1[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
    const V<double> d2[3] = {p[3][0] - p[1][0], p[3][1] - p[1][1], p[3][2] - p[1][2]};
    V<double> nrm[3] = {cross(d1, d2, 0), cross(d1, d2, 1), cross(d1, d2, 2)};
    const V<double> len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    gap = V<double>(c, 0.0);
    for (int d = 0; d < 3; ++d) {
      nrm[d] = nrm[d] / len;
      const V<double> centre = (p[0][d] + p[1][d] + p[2][d] + p[3][d]) * 0.25;
      gap = gap + (q[d] - centre) * nrm[d];
    }
    inside = V<bool>(c, true);
    for (int k = 0; k < 4; ++k) {
      const int k1 = (k + 1) % 4;
      const V<double> edge[3] = {p[k1][0] - p[k][0], p[k1][1] - p[k][1], p[k1][2] - p[k][2]};
      const V<double> to[3] = {q[0] - p[k][0], q[1] - p[k][1], q[2] - p[k][2]};
      const V<double> side =
          cross(edge, to, 0) * nrm[0] + cross(edge, to, 1) * nrm[1] + cross(edge, to, 2) * nrm[2];
      inside = inside && side >= -1e-12;
    }
  }

  Launch search(std::int64_t step) {
    Launch l = one_thread_per_item(nodes_, kBlock, 64);
    l.body = [this, step](Cta& c) {
      const V<std::int64_t> n = thread(c);
      c.exit_if(n >= nodes_);
      const V<double> q[3] = {c.load(x_, n), c.load(y_, n), c.load(z_, n)};
      const V<std::int32_t> body = c.load(body_, n);
      const V<std::int64_t> home[3] = {cell(q[0]), cell(q[1]), cell(q[2])};
      V<std::int64_t> best_face(c, -1);
      V<double> best_gap(c, tol_);
      c.uniform_loop(27, [&](std::uint64_t k) {
        const std::int64_t dx = std::int64_t(k % 3) - 1, dy = std::int64_t(k / 3 % 3) - 1,
                           dz = std::int64_t(k / 9) - 1;
        const V<std::int64_t> h = hash(home[0] + dx, home[1] + dy, home[2] + dz);
        V<std::int64_t> i = convert<std::int64_t>(c.load(start_, h));
        const V<std::int64_t> end = i + convert<std::int64_t>(c.load(count_, h));
        c.while_([&] { return i < end; },
                 [&] {
                   const V<std::int64_t> f = convert<std::int64_t>(c.load(bucket_faces_, i));
                   c.if_(c.load(face_body_, f) != body, [&] {
                     V<bool> in_box(c, true);
                     for (std::int64_t d = 0; d < 3; ++d)
                       in_box =
                           in_box && q[d] >= c.load(box_, f * 6 + d) && q[d] <= c.load(box_, f * 6 + 3 + d);
                     c.if_(in_box, [&] {
                       V<double> gap(c, 0.0);
                       V<bool> inside(c, false);
                       project(c, f, q, gap, inside);
                       const V<double> size = select(gap < 0.0, 0.0 - gap, gap);
                       c.if_(inside && (size < best_gap || (size == best_gap && f < best_face)), [&] {
                         best_gap = size;
                         best_face = f;
                       });
                     });
                   });
                   i = i + 1;
                 });
      });
      c.store(contact_face_, n, convert<std::int32_t>(best_face));
      c.store(contact_gap_, n, best_gap);
      c.if_(best_face >= 0, [&] { c.atomic_add(contacts_, c.uniform(step), V<std::int32_t>(c, 1)); });
    };
    // LASP: the node's body, contact face and gap at n = tx + 128 bx: row 1. Each cell's bucket start and
    // count at the hash: gathered; bucket_faces[i], i from the bucket's start one face a step: the
    // loop-variant group is exactly m, ITL (a CSR row's walk). Every face array at f = bucket_faces[i] (the
    // box and the 4 nodes are f's records) and the coordinates at the face's nodes, read for every
    // candidate (the node's own 3 reads are the fewer): gathered. contacts[step]: a fixed slot. box, the
    // largest, chooses: kernel-wide, RTWICE.
    l.accesses = {lasp_access(x_, kGathered),
                  lasp_access(y_, kGathered),
                  lasp_access(z_, kGathered),
                  lasp_access(body_, kPerThread, kBlock * 4),
                  lasp_access(start_, kGathered),
                  lasp_access(count_, kGathered),
                  lasp_access(bucket_faces_, runtime::terms::kOwnRun),
                  lasp_access(face_body_, kGathered),
                  lasp_access(box_, kGathered),
                  lasp_access(face_nodes_, kGathered),
                  lasp_access(contact_face_, kPerThread, kBlock * 4),
                  lasp_access(contact_gap_, kPerThread, kBlock * 8),
                  lasp_access(contacts_, runtime::terms::kFixedSlot)};
    return l;
  }

  static std::int64_t table_size(std::int64_t faces) {
    std::int64_t b = 1;
    while (b < faces)
      b *= 2;
    return b;
  }

  std::int64_t n_, steps_;
  double tol_, closing_;
  std::int64_t faces_ = 12 * n_ * n_, nodes_ = 2 * (6 * n_ * n_ + 2), buckets_ = table_size(faces_);
  std::uint64_t node_count_ = std::uint64_t(nodes_), face_count_ = std::uint64_t(faces_),
                bucket_count_ = std::uint64_t(buckets_);
  // The nodes: position, velocity (x), body; the contact each finds and its gap.
  Data<double> x_{this, "x", node_count_}, y_{this, "y", node_count_}, z_{this, "z", node_count_},
      vx_{this, "vx", node_count_};
  Data<std::int32_t> body_{this, "node_body", node_count_};
  Data<std::int32_t> contact_face_{this, "contact_face", node_count_, -1};
  Data<double> contact_gap_{this, "contact_gap", node_count_};
  // The faces: their 4 nodes (face-major), grown bounding box (lo x, y, z, hi x, y, z), body, bucket.
  Data<std::int32_t> face_nodes_{this, "face_nodes", 4 * face_count_};
  Data<double> box_{this, "box", 6 * face_count_};
  Data<std::int32_t> face_body_{this, "face_body", face_count_},
      face_bucket_{this, "face_bucket", face_count_};
  // The spatial hash table: each bucket's count, start and fill pointer, and the faces by bucket.
  Data<std::int32_t> count_{this, "bucket_count", bucket_count_}, start_{this, "bucket_start", bucket_count_},
      fill_{this, "bucket_fill", bucket_count_};
  Data<std::int32_t> bucket_faces_{this, "bucket_faces", face_count_};
  std::int64_t scan_blocks_ = (buckets_ + kScanThreads - 1) / kScanThreads;
  Data<std::int32_t> block_sum_{this, "block_sums", std::uint64_t(scan_blocks_)};  // totals, then offsets
  // Nodes in contact, a count per step (what the host reads back).
  Data<std::int32_t> contacts_{this, "contacts", std::uint64_t(steps_)};
};

}  // namespace

ApplicationEntry app_proxy_minicontact() {
  return {
      "proxy/minicontact",
      "A MiniContact-like contact search between two approaching bodies' surfaces (n x n x n cubes of "
      "unit faces): node motion, face bounding boxes binned in a spatial hash (count, scan, scatter), and "
      "a node-to-face search over the 27 cells around each node with a projection onto each candidate",
      {{"n", 405, 1, 2000, "faces along a cube's edge (12 n^2 faces and 12 n^2 + 4 nodes in all)"},
       {"steps", 1, 1, 1000, "search cycles (8 launches each)"},
       {"gap", 20, 0, 1000, "the bodies' initial distance, in hundredths of a face"},
       {"tol", 25, 1, 49, "the search tolerance, in hundredths of a face (below half a face: the 27 cells)"},
       {"closing", 5, 0, 100, "how much closer the bodies come each step, in hundredths of a face"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<MiniContactApp>(a, input); }};
}

}  // namespace numagpu::kernels
