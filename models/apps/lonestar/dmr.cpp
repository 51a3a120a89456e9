// lonestar/dmr (application): Delaunay mesh refinement as LonestarGPU runs it (the paper's Lonestar-DMR;
// learned from the benchmark's public description, Kulkarni et al.'s algorithm (PLDI 2007) and Nasre,
// Burtscher and Pingali's account of its GPU implementation ("Morph Algorithms on GPUs", PPoPP 2013:
// triangles in arrays, cavities claimed by marking, new triangles added); written here anew). The input is a
// Delaunay triangulation of `points` uniformly random points in the unit square (built by the constructor, as
// Triangle builds the benchmark's inputs); the refinement makes every triangle's smallest angle at least 30
// degrees by inserting the circumcentres of bad triangles.
//
// The host program is the refinement's rounds, two launches a round of a fixed grid (`blocks` CTAs of 256;
// Table 2's DMR runs 82), topology-driven: every thread walks the triangles t = its index, + the grid's
// threads, ... up to the triangle count:
//   refine_mark: the thread takes the first bad triangle of its walk, locates its circumcentre by
//     walking from it across the edges that face the point (through the neighbour arrays), and builds the
//     cavity: the triangles whose circumcircle holds the point, reached breadth-first from the one holding
//     it, and the frontier (the cavity's outside neighbours, whose neighbour pointers will change). A walk
//     that leaves the domain through a boundary edge, or a cavity that encroaches a boundary edge (the point
//     within the edge's diametral circle), splits that edge at its midpoint instead (Ruppert's rule). The
//     cavity and frontier go to the thread's local memory (global memory, interleaved by thread, as CUDA
//     lays out a local array) and each of their triangles is marked with the thread's priority (atomicMin
//     of round and triangle: the lowest triangle wins, and a later round's key is below every earlier one's,
//     so no reset is needed); the thread counts itself in the round's work (atomicAdd), which the host reads;
//   refine_commit: a thread whose marks all held (it owns every triangle it will touch, so winners' regions
//     are disjoint) retriangulates: the new point and one new triangle per cavity boundary edge appended
//     (atomicAdd on the counts), linked to each other and to the frontier, their badness computed. The
//     cavity's slots take the first new triangles (an insertion adds 2 triangles, or 1 splitting a boundary
//     edge, to the cavity's count): LonestarGPU's code flags the cavity deleted and appends every new
//     triangle, which keeps deleted slots in the arrays (and reads their flags in every walk); reusing them
//     keeps the arrays at the mesh's size. A thread that lost a mark retries in a later round.
// The host stops when a round's marking finds no bad triangle (or, as a safety, at `rounds` rounds or when
// the triangle arrays' capacity, `capacity` x the input's triangles, would be exceeded: the original
// reallocates on the host instead). Triangles: vertex and neighbour triples (edge e joins vertex e and
// vertex e + 1, counter-clockwise; neighbour -1 on the boundary), the bad flag, the owner key.
// The geometry (orientation and in-circle determinants, circumcentres, angles) is computed in doubles; the
// locate walk and the cavity search run per thread as the kernel's loops do, their loads issued per visited
// triangle.
#include <algorithm>
#include <cmath>
#include <limits>

#include "apps/lonestar/worklist.hpp"  // atomicAdd returning the old value
#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;
constexpr std::size_t kMaxEntries = 48;  // cavity + frontier a thread holds (local memory)
constexpr int kMaxWalk = 4096;           // steps of a locate walk
constexpr double kCos30 = 0.86602540378443865;
constexpr std::int64_t kNoOwner = std::numeric_limits<std::int64_t>::max();

struct Point {
  double x, y;
};

// The mesh as plain arrays (the application's Data values): what the constructor builds and what each
// thread's walk reads and its retriangulation writes.
struct Mesh {
  std::vector<double>&px, &py;
  std::vector<std::int32_t>&v, &n, &bad;

  Point p(std::int64_t i) const { return {px[std::size_t(i)], py[std::size_t(i)]}; }
  std::int32_t vert(std::int64_t t, int e) const { return v[std::size_t(t * 3 + (e % 3))]; }
  static double orient(Point a, Point b, Point c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  }
  // Whether q lies strictly inside t's circumcircle (t counter-clockwise).
  bool in_circle(std::int64_t t, Point q) const {
    const Point a = p(vert(t, 0)), b = p(vert(t, 1)), c = p(vert(t, 2));
    const double ax = a.x - q.x, ay = a.y - q.y, bx = b.x - q.x, by = b.y - q.y, cx = c.x - q.x,
                 cy = c.y - q.y;
    return (ax * ax + ay * ay) * (bx * cy - cx * by) - (bx * bx + by * by) * (ax * cy - cx * ay) +
               (cx * cx + cy * cy) * (ax * by - bx * ay) >
           0;
  }
  Point circumcentre(std::int64_t t) const {
    const Point a = p(vert(t, 0)), b = p(vert(t, 1)), c = p(vert(t, 2));
    const double bx = b.x - a.x, by = b.y - a.y, cx = c.x - a.x, cy = c.y - a.y;
    const double d = 2 * (bx * cy - by * cx), b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
    return {a.x + (cy * b2 - by * c2) / d, a.y + (bx * c2 - cx * b2) / d};
  }
  // A triangle is bad if one of its angles is below 30 degrees.
  bool is_bad(Point a, Point b, Point c) const {
    const Point q[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
      const Point o = q[i], u = q[(i + 1) % 3], w = q[(i + 2) % 3];
      const double ux = u.x - o.x, uy = u.y - o.y, wx = w.x - o.x, wy = w.y - o.y;
      const double dot = ux * wx + uy * wy, len = std::sqrt((ux * ux + uy * uy) * (wx * wx + wy * wy));
      if (dot > kCos30 * len) return true;
    }
    return false;
  }
};

// One thread's claim: the point it inserts, the boundary edge it splits (triangle, edge; -1: none), the
// cavity and the frontier, and every triangle its walk and search read (the loads it issues).
struct Claim {
  Point at{0, 0};
  std::int64_t split_tri = -1;
  int split_edge = -1;
  std::vector<std::int64_t> cavity, frontier, visited;
  bool ok = false;
};

// Locates `q` from triangle `t`: the triangle holding it, or the boundary edge the walk leaves through.
bool locate(const Mesh& m, std::int64_t& t, Point q, int& exit_edge, std::vector<std::int64_t>& visited) {
  exit_edge = -1;
  for (int step = 0; step < kMaxWalk; ++step) {
    visited.push_back(t);
    int cross = -1;
    for (int e = 0; e < 3 && cross < 0; ++e)
      if (Mesh::orient(m.p(m.vert(t, e)), m.p(m.vert(t, e + 1)), q) < 0) cross = e;
    if (cross < 0) return true;
    const std::int32_t next = m.n[std::size_t(t * 3 + cross)];
    if (next < 0) {
      exit_edge = cross;
      return true;
    }
    t = next;
  }
  return false;
}

// The cavity of q from `start` (which holds q, or q is the midpoint of its `split` edge): breadth-first over
// neighbours whose circumcircle holds q. Returns false when it must split a boundary edge instead
// (encroached: `enc_tri`, `enc_edge`) or holds too many triangles.
bool build_cavity(const Mesh& m, std::int64_t start, Point q, int split, Claim& c, std::int64_t& enc_tri,
                  int& enc_edge) {
  c.cavity.assign(1, start);
  c.frontier.clear();
  for (std::size_t i = 0; i < c.cavity.size(); ++i) {
    const std::int64_t t = c.cavity[i];
    for (int e = 0; e < 3; ++e) {
      const std::int32_t nb = m.n[std::size_t(t * 3 + e)];
      if (nb < 0) {
        if (t == start && e == split) continue;
        const Point a = m.p(m.vert(t, e)), b = m.p(m.vert(t, e + 1));
        const double mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2,
                     r2 = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)) / 4;
        if (split < 0 && (q.x - mx) * (q.x - mx) + (q.y - my) * (q.y - my) < r2) {
          enc_tri = t;
          enc_edge = e;
          return false;
        }
        continue;
      }
      if (std::find(c.cavity.begin(), c.cavity.end(), nb) != c.cavity.end() ||
          std::find(c.frontier.begin(), c.frontier.end(), nb) != c.frontier.end())
        continue;
      c.visited.push_back(nb);
      if (m.in_circle(nb, q))
        c.cavity.push_back(nb);
      else
        c.frontier.push_back(nb);
      if (c.cavity.size() + c.frontier.size() > kMaxEntries) return false;
    }
  }
  // A triangle first seen outside may have been reached again from inside: it stays in the cavity only.
  std::vector<std::int64_t> f;
  for (std::int64_t t : c.frontier)
    if (std::find(c.cavity.begin(), c.cavity.end(), t) == c.cavity.end()) f.push_back(t);
  c.frontier = std::move(f);
  return true;
}

// The claim of bad triangle `t`: its circumcentre's cavity, or a boundary edge's split.
Claim claim(const Mesh& m, std::int64_t t) {
  Claim c;
  c.at = m.circumcentre(t);
  std::int64_t at = t;
  int exit_edge = -1;
  if (!locate(m, at, c.at, exit_edge, c.visited)) return c;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (exit_edge >= 0) {  // split the boundary edge at its midpoint
      const Point a = m.p(m.vert(at, exit_edge)), b = m.p(m.vert(at, exit_edge + 1));
      c.at = {(a.x + b.x) / 2, (a.y + b.y) / 2};
      c.split_tri = at;
      c.split_edge = exit_edge;
    }
    std::int64_t enc_tri = -1;
    int enc_edge = -1;
    if (build_cavity(m, at, c.at, exit_edge, c, enc_tri, enc_edge)) {
      c.ok = true;
      return c;
    }
    if (enc_tri < 0 || exit_edge >= 0) return c;  // too large, or a split that encroaches (not retried)
    at = enc_tri;
    exit_edge = enc_edge;
  }
  return c;
}

// The new triangles of a claim: one per cavity boundary edge (a, b), as (a, b, point), with the outside
// neighbour across (a, b) (-1 on the boundary).
struct Fan {
  std::vector<std::int32_t> a, b, outside;
};
Fan fan_of(const Mesh& m, const Claim& c) {
  Fan f;
  for (std::int64_t t : c.cavity)
    for (int e = 0; e < 3; ++e) {
      const std::int32_t nb = m.n[std::size_t(t * 3 + e)];
      if (nb >= 0 && std::find(c.cavity.begin(), c.cavity.end(), nb) != c.cavity.end()) continue;
      if (t == c.split_tri && e == c.split_edge) continue;
      f.a.push_back(m.vert(t, e));
      f.b.push_back(m.vert(t, e + 1));
      f.outside.push_back(nb);
    }
  return f;
}

// Incremental Delaunay triangulation (Bowyer-Watson with the same cavities) of the unit square's corners
// and `count` random points, inserted in the order of a serpentine walk over a grid of cells (short walks).
void triangulate(Mesh& m, std::int64_t count, std::uint64_t seed, std::int32_t& points, std::int32_t& tris) {
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
  auto uniform = [&s] {  // splitmix64: the same points on every host
    s += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double(z >> 11) + 0.5) * 0x1.0p-53;
  };
  std::vector<Point> q(static_cast<std::size_t>(count));
  for (Point& p : q)
    p = {uniform(), uniform()};
  const std::int64_t g = std::max<std::int64_t>(1, std::int64_t(std::sqrt(double(count) / 4)));
  auto key = [g](Point p) {
    const std::int64_t cx = std::min(g - 1, std::int64_t(p.x * double(g))),
                       cy = std::min(g - 1, std::int64_t(p.y * double(g)));
    return cy * g + (cy % 2 ? g - 1 - cx : cx);
  };
  std::stable_sort(q.begin(), q.end(), [&](Point a, Point b) { return key(a) < key(b); });
  const Point corners[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int i = 0; i < 4; ++i) {
    m.px[std::size_t(i)] = corners[i].x;
    m.py[std::size_t(i)] = corners[i].y;
  }
  const std::int32_t init_v[6] = {0, 1, 2, 0, 2, 3}, init_n[6] = {-1, -1, 1, 0, -1, -1};
  std::copy(init_v, init_v + 6, m.v.begin());
  std::copy(init_n, init_n + 6, m.n.begin());
  points = 4;
  tris = 2;
  std::vector<std::int64_t> free_slots;
  std::int64_t last = 0;
  for (const Point& p : q) {
    Claim c;
    int exit_edge = -1;
    std::int64_t at = last;
    if (!locate(m, at, p, exit_edge, c.visited) || exit_edge >= 0) continue;
    c.at = p;
    // Only for the input: no encroachment rule (the points are inside), no size bound.
    c.cavity.assign(1, at);
    for (std::size_t i = 0; i < c.cavity.size(); ++i)
      for (int e = 0; e < 3; ++e) {
        const std::int32_t nb = m.n[std::size_t(c.cavity[i] * 3 + e)];
        if (nb >= 0 && std::find(c.cavity.begin(), c.cavity.end(), nb) == c.cavity.end() &&
            m.in_circle(nb, p))
          c.cavity.push_back(nb);
      }
    const Fan f = fan_of(m, c);
    const std::int32_t pid = points++;
    m.px[std::size_t(pid)] = p.x;
    m.py[std::size_t(pid)] = p.y;
    // Slots: the cavity's, then new ones.
    std::vector<std::int64_t> slot(c.cavity.begin(), c.cavity.end());
    while (slot.size() < f.a.size())
      slot.push_back(tris++);
    for (std::size_t k = 0; k < f.a.size(); ++k) {
      const std::int64_t t = slot[k];
      m.v[std::size_t(t * 3)] = f.a[k];
      m.v[std::size_t(t * 3 + 1)] = f.b[k];
      m.v[std::size_t(t * 3 + 2)] = pid;
    }
    for (std::size_t k = 0; k < f.a.size(); ++k) {
      const std::int64_t t = slot[k];
      m.n[std::size_t(t * 3)] = f.outside[k];
      if (f.outside[k] >= 0)
        for (int e = 0; e < 3; ++e)
          if (m.vert(f.outside[k], e) == f.b[k] && m.vert(f.outside[k], e + 1) == f.a[k])
            m.n[std::size_t(f.outside[k] * 3 + e)] = std::int32_t(t);
      m.n[std::size_t(t * 3 + 1)] = m.n[std::size_t(t * 3 + 2)] = -1;
      for (std::size_t j = 0; j < f.a.size(); ++j) {
        if (f.a[j] == f.b[k]) m.n[std::size_t(t * 3 + 1)] = std::int32_t(slot[j]);
        if (f.b[j] == f.a[k]) m.n[std::size_t(t * 3 + 2)] = std::int32_t(slot[j]);
      }
    }
    last = slot[0];
  }
  for (std::int64_t t = 0; t < tris; ++t)
    m.bad[std::size_t(t)] = m.is_bad(m.p(m.vert(t, 0)), m.p(m.vert(t, 1)), m.p(m.vert(t, 2)));
}

class DmrApp : public Application {
 public:
  DmrApp(const Args& a, const std::string& input)
      : Application(a, input),
        blocks_(a["blocks"]),
        max_rounds_(a["rounds"]),
        points_(a["points"]),
        capacity_(a["capacity"]) {
    Mesh m = mesh();
    std::int32_t points = 0, tris = 0;
    triangulate(m, points_, std::uint64_t(a["seed"]), points, tris);
    count_.values = {tris, points};
    set_launch_bound(std::uint64_t(2 * max_rounds_), "two launches a round, at most `rounds` rounds");
  }

  void host() override {
    for (std::int64_t round = 0; round < max_rounds_; ++round) {
      launch("refine_mark", mark(round));
      if (work_.values[std::size_t(round)] == 0) break;
      launch("refine_commit", commit(round));
      if (full_.values[0] != 0) break;
    }
  }

 private:
  Mesh mesh() { return {px_.values, py_.values, v_.values, n_.values, bad_.values}; }
  std::int64_t total_threads() const { return blocks_ * kThreads; }
  // The key of the thread holding triangle t in `round`: a later round's keys are below an earlier one's.
  std::int64_t key(std::int64_t round, std::int64_t t) const { return ((max_rounds_ - round) << 32) | t; }
  Launch grid() const {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(blocks_), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 48;
    return l;
  }
  // A per-thread list's element j, as a value (a local array's element: the load is issued by the caller
  // where the kernel reads local memory).
  static V<std::int64_t> pick(const std::vector<std::vector<std::int64_t>>& lists, const V<std::int64_t>& j) {
    Cta& c = j.cta();
    return zip(j, c.threadIdx_x(), InstrClass::kInt, [&lists](std::int64_t i, std::int64_t t) {
      const auto& l = lists[std::size_t(t)];
      return std::size_t(i) < l.size() ? l[std::size_t(i)] : std::int64_t(0);
    });
  }
  static V<std::int64_t> sizes(Cta& c, const std::vector<std::vector<std::int64_t>>& lists) {
    return map(c.threadIdx_x(), InstrClass::kInt,
               [&lists](std::int64_t t) { return std::int64_t(lists[std::size_t(t)].size()); });
  }
  // The loads of reading triangles `lists` (per thread): its vertices, neighbours and corner coordinates,
  // with the orientation or in-circle test's arithmetic.
  void read_triangles(Cta& c, const std::vector<std::vector<std::int64_t>>& lists) {
    V<std::int64_t> j(c, 0);
    const V<std::int64_t> len = sizes(c, lists);
    c.while_([&] { return j < len; },
             [&] {
               const V<std::int64_t> t = pick(lists, j);
               for (std::int64_t e = 0; e < 3; ++e) {
                 const V<std::int64_t> vert = convert<std::int64_t>(c.load(v_, t * 3 + e));
                 c.load(px_, vert);
                 c.load(py_, vert);
                 c.load(n_, t * 3 + e);
               }
               c.charge(InstrClass::kFp64, 20);  // three orientations or an in-circle determinant
               j = j + 1;
             });
  }

  Launch mark(std::int64_t round) {
    Launch l = grid();
    l.body = [this, round](Cta& c) {
      const V<std::int64_t> g = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      const V<std::int64_t> tris = convert<std::int64_t>(c.load(count_, c.uniform(0)));
      // The walk over the thread's triangles to the first live bad one.
      V<std::int64_t> t = g, mine(c, -1);
      c.while_([&] { return t < tris && mine < 0; },
               [&] {
                 const V<std::int32_t> bad = c.load(bad_, t);
                 c.if_(bad != 0, [&] { mine = t; });
                 t = t + total_threads();
               });
      c.exit_if(mine < 0);
      c.atomic_add(work_, c.uniform(round), V<std::int32_t>(c, 1));
      // Each thread's claim (the walk and the cavity search, per thread), then the loads they issue.
      const Mesh m = mesh();
      std::vector<std::vector<std::int64_t>> visited(c.threads()), entries(c.threads());
      for (unsigned th = 0; th < c.threads(); ++th) {
        if (!c.active(th)) continue;
        Claim& cl = claims_[std::size_t(g[th])];
        cl = claim(m, mine[th]);
        visited[th] = cl.visited;
        if (!cl.ok) continue;
        entries[th] = cl.cavity;
        entries[th].insert(entries[th].end(), cl.frontier.begin(), cl.frontier.end());
      }
      read_triangles(c, visited);
      c.charge(InstrClass::kFp64, 12);  // the circumcentre
      // The claim into local memory and the marks.
      const V<std::int64_t> n_entries = sizes(c, entries);
      c.store(cav_n_, g, convert<std::int32_t>(n_entries));
      c.store(cav_t_, g, convert<std::int32_t>(mine));
      c.if_(n_entries > 0, [&] {
        V<std::int64_t> j(c, 0);
        const V<std::int64_t> k =
            map(mine, InstrClass::kInt, [this, round](std::int64_t x) { return key(round, x); });
        c.while_([&] { return j < n_entries; },
                 [&] {
                   const V<std::int64_t> e = pick(entries, j);
                   c.store(cav_, j * total_threads() + g, convert<std::int32_t>(e));
                   c.atomic_min(owner_, e, k);
                   j = j + 1;
                 });
      });
    };
    // LASP's index terms (LADM §III-C). isbad at t = g + m 256 gridDim.x, g = tx + 256 bx (the topology-
    // driven walk): blockIdx.x in the loop-invariant group, stride x m with gridDim.x in the stride: Table
    // II row 1 strided by the grid's threads (a CTA's 256 x 4 B a step). A triangle's vertices and
    // neighbours are its records (uint3s: e = 0..2 field offsets) at triangles from the walk and the
    // cavity search, the points at those vertices, the owner marks at the cavity's triangles: gathered,
    // row 7; the counts and the round's work counter at fixed slots. The claim arrays (local_claim*) stand
    // for the thread's local memory (the original keeps the cavity in a local array), which is no global
    // pointer the kernel is passed: LADM's pass never sees them, and nothing is stated for them.
    // tri_vertices (12 B a triangle slot, equal to tri_neighbours and stated first; above the per-round work
    // counters from 1,666 points, at `rounds`' default) chooses: kernel-wide, RTWICE.
    l.accesses = mesh_accesses();
    l.accesses.push_back(lasp_access(
        bad_, {true, false, false, runtime::LoopVariant::kMGridDimX, std::uint64_t(total_threads())},
        kThreads * 4));
    l.accesses.push_back(lasp_access(work_, runtime::terms::kFixedSlot));
    return l;
  }

  // The mesh as both kernels reach it (the claim's triangles, their vertices' points, the marks): gathered.
  std::vector<runtime::ArrayAccess> mesh_accesses() const {
    using runtime::terms::kGathered;
    return {lasp_access(v_, kGathered),     lasp_access(n_, kGathered),
            lasp_access(px_, kGathered),    lasp_access(py_, kGathered),
            lasp_access(owner_, kGathered), lasp_access(count_, runtime::terms::kFixedSlot)};
  }

  Launch commit(std::int64_t round) {
    Launch l = grid();
    l.body = [this, round](Cta& c) {
      const V<std::int64_t> g = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      const V<std::int64_t> n_entries = convert<std::int64_t>(c.load(cav_n_, g));
      c.exit_if(n_entries == 0);
      const V<std::int64_t> mine = convert<std::int64_t>(c.load(cav_t_, g));
      c.store(cav_n_, g, V<std::int32_t>(c, 0));  // the claim is used up, won or lost
      // Are all the marks still the thread's?
      V<bool> owns(c, true);
      V<std::int64_t> j(c, 0);
      c.while_([&] { return j < n_entries; },
               [&] {
                 const V<std::int64_t> e = convert<std::int64_t>(c.load(cav_, j * total_threads() + g));
                 const V<std::int64_t> o = c.load(owner_, e);
                 owns = owns && o == map(mine, InstrClass::kInt,
                                         [this, round](std::int64_t x) { return key(round, x); });
                 j = j + 1;
               });
      c.exit_if(!owns);
      // The winners retriangulate their claim (in local memory since the marking; the mesh around it is as
      // the marking saw it: nobody else touches a triangle it owns): its fan of new triangles and their
      // places.
      Mesh m = mesh();
      std::vector<const Claim*> claims(c.threads(), nullptr);
      std::vector<Fan> fans(c.threads());
      std::vector<std::vector<std::int64_t>> cavity(c.threads()), news(c.threads());
      V<std::int32_t> fan_size(c, 0);
      for (unsigned th = 0; th < c.threads(); ++th) {
        if (!c.active(th)) continue;
        claims[th] = &claims_[std::size_t(g[th])];
        fans[th] = fan_of(m, *claims[th]);
        cavity[th] = claims[th]->cavity;
        fan_size[th] = std::int32_t(fans[th].a.size() - cavity[th].size());  // the triangles appended
      }
      // Room for the new triangles (a thread that finds none gives up: the host stops after this round).
      std::int64_t room = std::int64_t(v_.values.size() / 3) - count_.values[0];
      V<bool> fits(c, false);
      for (unsigned th = 0; th < c.threads(); ++th) {
        if (!c.active(th)) continue;
        fits[th] = fan_size[th] <= room;
        if (fits[th]) room -= fan_size[th];
      }
      c.if_(!fits, [&] { c.store(full_, c.uniform(0), V<std::int32_t>(c, 1)); });
      c.exit_if(!fits);
      const V<std::int32_t> first_tri = worklist::atomic_add_old(c, count_, c.uniform(0), fan_size);
      const V<std::int32_t> point = worklist::atomic_add_old(c, count_, c.uniform(1), V<std::int32_t>(c, 1));
      read_triangles(c, cavity);  // the cavity's edges, to find its boundary
      c.store(px_, convert<std::int64_t>(point), map(c.threadIdx_x(), InstrClass::kInt, [&](std::int64_t th) {
                return claims[std::size_t(th)] ? claims[std::size_t(th)]->at.x : 0.0;
              }));
      c.store(py_, convert<std::int64_t>(point), map(c.threadIdx_x(), InstrClass::kInt, [&](std::int64_t th) {
                return claims[std::size_t(th)] ? claims[std::size_t(th)]->at.y : 0.0;
              }));
      // The new triangles' vertices and neighbours, by thread (written below, as the kernel's stores).
      std::vector<std::vector<std::int64_t>> tri_at(c.threads()), tri_val(c.threads()), nb_at(c.threads()),
          nb_val(c.threads()), bad_val(c.threads());
      for (unsigned th = 0; th < c.threads(); ++th) {
        if (!c.active(th)) continue;
        const Fan& f = fans[th];
        std::vector<std::int64_t>& slot = news[th];  // the cavity's slots, then the appended ones
        slot = cavity[th];
        for (std::int64_t k = 0; slot.size() < f.a.size(); ++k)
          slot.push_back(first_tri[th] + k);
        for (std::size_t k = 0; k < f.a.size(); ++k) {
          const std::int64_t t = slot[k];
          const std::int64_t vs[3] = {f.a[k], f.b[k], point[th]};
          std::int64_t ns[3] = {f.outside[k], -1, -1};
          for (std::size_t j2 = 0; j2 < f.a.size(); ++j2) {
            if (f.a[j2] == f.b[k]) ns[1] = slot[j2];
            if (f.b[j2] == f.a[k]) ns[2] = slot[j2];
          }
          for (int e = 0; e < 3; ++e) {
            tri_at[th].push_back(t * 3 + e);
            tri_val[th].push_back(vs[e]);
            nb_at[th].push_back(t * 3 + e);
            nb_val[th].push_back(ns[e]);
          }
          bad_val[th].push_back(m.is_bad(m.p(vs[0]), m.p(vs[1]), claims[th]->at));
          if (f.outside[k] >= 0)  // the frontier triangle's edge (b, a) now faces the new triangle
            for (int e = 0; e < 3; ++e)
              if (m.vert(f.outside[k], e) == f.b[k] && m.vert(f.outside[k], e + 1) == f.a[k]) {
                nb_at[th].push_back(f.outside[k] * 3 + e);
                nb_val[th].push_back(t);
              }
        }
      }
      // The new triangles written (vertices, neighbours, bad flags); the frontier's pointers updated.
      store_list(c, v_, tri_at, &tri_val, 0);
      store_list(c, n_, nb_at, &nb_val, 0);
      store_list(c, bad_, news, &bad_val, 0);
      c.charge(InstrClass::kFp64, 30);  // a new triangle's angles (per triangle, charged once: a bound)
    };
    // LASP: the owner marks at the claim's triangles, the new point at the counts' old value, the new and
    // reused triangles' records and bad flags at their slots: gathered (row 7); counts and full at fixed
    // slots; the claim arrays, local memory, unstated (as in refine_mark). tri_vertices chooses:
    // kernel-wide, RTWICE.
    l.accesses = mesh_accesses();
    l.accesses.push_back(lasp_access(bad_, runtime::terms::kGathered));
    l.accesses.push_back(lasp_access(full_, runtime::terms::kFixedSlot));
    return l;
  }

  // Stores, per thread, values[j] (or `constant`) at lists[j] of `a`, as a loop over the thread's list.
  void store_list(Cta& c, const Array<std::int32_t>& a, const std::vector<std::vector<std::int64_t>>& at,
                  const std::vector<std::vector<std::int64_t>>* values, std::int32_t constant) {
    V<std::int64_t> j(c, 0);
    const V<std::int64_t> len = sizes(c, at);
    c.while_([&] { return j < len; },
             [&] {
               const V<std::int64_t> i = pick(at, j);
               c.store(a, i, values ? convert<std::int32_t>(pick(*values, j)) : V<std::int32_t>(c, constant));
               j = j + 1;
             });
  }

  std::int64_t blocks_, max_rounds_, points_, capacity_;
  // Capacity: the input's 2 points + 2 triangles times `capacity`; an insertion adds at least 1 triangle, so
  // as many points more than the input's suffice.
  std::uint64_t tris_ = std::uint64_t(2 * points_ + 2) * std::uint64_t(capacity_);
  std::uint64_t verts_ = std::uint64_t(points_ + 4) + tris_;
  std::vector<Claim> claims_ = std::vector<Claim>(std::size_t(blocks_ * kThreads));  // local memory's claims
  Data<double> px_{this, "px", verts_}, py_{this, "py", verts_};
  Data<std::int32_t> v_{this, "tri_vertices", 3 * tris_}, n_{this, "tri_neighbours", 3 * tris_, -1};
  Data<std::int32_t> bad_{this, "isbad", tris_};
  Data<std::int64_t> owner_{this, "owner", tris_, kNoOwner};
  Data<std::int32_t> count_{this, "counts", 2};  // triangles, points
  // Each thread's local memory: its claim's entries (interleaved by thread), their number, its triangle.
  Data<std::int32_t> cav_{this, "local_claim", kMaxEntries* std::uint64_t(blocks_* kThreads)};
  Data<std::int32_t> cav_n_{this, "local_claim_size", std::uint64_t(blocks_* kThreads)};
  Data<std::int32_t> cav_t_{this, "local_claim_triangle", std::uint64_t(blocks_* kThreads)};
  Data<std::int32_t> work_{this, "work", std::uint64_t(max_rounds_)};  // bad triangles taken, per round
  Data<std::int32_t> full_{this, "full", 1};                           // the arrays ran out of room
};

}  // namespace

ApplicationEntry app_lonestar_dmr() {
  return {"lonestar/dmr",
          "Delaunay mesh refinement as LonestarGPU runs it: a fixed grid walks the triangles, each thread "
          "claims a bad triangle's cavity by marking (atomicMin), the winners retriangulate (new triangles "
          "appended), rounds until no triangle has an angle under 30 degrees; on a Delaunay triangulation "
          "of random points in the unit square",
          {{"points", 5000, 0, 20000000, "random points of the input (its triangles: 2 x points + 2)"},
           {"seed", 1, 0, 1000000, "the points' random sequence"},
           {"blocks", 82, 1, 100000, "the fixed grid's CTAs of 256 threads (Table 2's DMR: 82)"},
           {"rounds", 100000, 1, 1000000, "the most rounds (2 launches each) the host runs"},
           {"capacity", 10, 1, 64, "triangle slots, as a multiple of the input's triangles"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<DmrApp>(a, input); }};
}

}  // namespace numagpu::kernels
