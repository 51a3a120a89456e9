// proxy/miniamr (application): a MiniAMR-like block-structured adaptive mesh refinement stencil (MiniAMR,
// the Mantevo proxy of Sandia; learned from its documentation and the Mantevo report describing its
// algorithm, written here anew). The unit cube is covered by blocks of B^3 cells (B = `block`, each block
// stored with one ghost layer: (B + 2)^3 cells per variable), `blocks`^3 blocks at level 0; a block of level
// L refines into 8 blocks of level L + 1 (half the size, the same B^3 cells). A sphere moves through the
// domain (MiniAMR's moving objects); every `refine_every` steps (and before the first) every block that the
// sphere's surface crosses and whose level is below `levels` is refined, then the refinement is balanced
// so that face neighbours differ by at most one level (MiniAMR's 2:1 rule), neighbours found on the host.
//
// Per time step the host launches, on the current list of blocks (it hands the kernels the list and the
// neighbour table, both carrying data, which steer the addresses):
//   exchange: the ghost exchange, one CTA of B x B threads per (block, face), one thread per face cell: per
//     variable it reads the neighbour's cell and writes its own ghost cell: from a neighbour of the same
//     level its adjacent interior layer, from a coarser one the covering coarse cell (injection), from 4
//     finer ones the average of the 2 x 2 fine cells; a face on the domain boundary exchanges nothing;
//   stencil: MiniAMR's 7-point average, one CTA of B x B threads per block marching through its B planes in
//     z (the planes below and at kept in registers: 5 loads and a store per cell and variable), into the
//     other grid; the grids then swap.
// A refinement launches split: one CTA per new child block (B x B threads marching in z), each cell the
// parent's covering cell (injection) for every variable; the parent's slot is then free for a later child.
//
// Simplified, and said so: no coarsening (blocks that the sphere has left stay refined, so the block count
// only grows), one moving sphere (MiniAMR's default objects are several, of several shapes), no checksums or
// communication between ranks (one GPU holds every block), ghost cells of edges and corners are not
// exchanged (the 7-point stencil does not read them), and restriction/prolongation between levels are
// injection and 2 x 2 averaging. Grid values steer nothing and are not computed (addresses only); arrays
// are sized for `max_blocks` blocks.
#include <array>
#include <cmath>
#include <map>
#include <tuple>

#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

enum FaceType : std::int32_t { kBoundary = 0, kSame = 1, kCoarser = 2, kFiner = 3 };

struct Block {
  int level;
  std::int64_t i, j, k;  // position in blocks of its level
};

class MiniAmrApp : public Application {
 public:
  MiniAmrApp(const Args& a, const std::string& input)
      : Application(a, input),
        b_(a["block"]),
        vars_(a["vars"]),
        nb0_(a["blocks"]),
        levels_(int(a["levels"])),
        steps_(a["steps"]),
        refine_every_(a["refine_every"]),
        capacity_(a["max_blocks"]) {
    if (b_ % 2) throw KernelError("argument 'block': must be even");
    if (nb0_ * nb0_ * nb0_ > capacity_)
      throw KernelError("argument 'max_blocks': fewer than the initial blocks");
    for (std::int64_t k = 0; k < nb0_; ++k)
      for (std::int64_t j = 0; j < nb0_; ++j)
        for (std::int64_t i = 0; i < nb0_; ++i)
          add_block(Block{0, i, j, k});
    // The refinements depend on the sphere only: run them once on the host now, so that a mesh outgrowing
    // max_blocks is refused with the arguments (not in the middle of the run), then start again.
    const auto slots = slots_;
    const auto blocks = block_;
    const std::int64_t next = next_slot_;
    for (std::int64_t step = 0; step < steps_; step += refine_every_)
      refine(step / refine_every_, false);
    slots_ = slots;
    block_ = blocks;
    free_.clear();
    next_slot_ = next;
  }

  void host() override {
    for (std::int64_t step = 0; step < steps_; ++step) {
      if (step % refine_every_ == 0) refine(step / refine_every_, true);
      launch("exchange", exchange());
      launch("stencil", stencil());
      cur_ = 1 - cur_;
    }
  }

  std::size_t blocks() const { return slots_.size(); }

 private:
  // ---- the mesh, on the host ------------------------------------------------------------------------

  std::int32_t add_block(const Block& bl) {
    std::int32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      if (next_slot_ >= capacity_)
        throw KernelError("argument 'max_blocks': the refinements need more than " +
                          std::to_string(capacity_) + " blocks");
      slot = std::int32_t(next_slot_++);
    }
    slots_[key(bl)] = slot;
    block_[slot] = bl;
    return slot;
  }
  static std::tuple<int, std::int64_t, std::int64_t, std::int64_t> key(const Block& bl) {
    return {bl.level, bl.i, bl.j, bl.k};
  }
  const std::int32_t* find(int level, std::int64_t i, std::int64_t j, std::int64_t k) const {
    const auto it = slots_.find({level, i, j, k});
    return it == slots_.end() ? nullptr : &it->second;
  }
  std::int64_t side(int level) const { return nb0_ << level; }

  // Does the sphere's surface cross the block?
  bool crossed(const Block& bl, std::int64_t epoch) const {
    const double size = 1.0 / double(side(bl.level));
    const double t = 0.1 * double(epoch);
    const double centre[3] = {0.2 + t, 0.3 + 0.5 * t, 0.37}, radius = 0.25;
    double near = 0, far = 0;
    const std::int64_t at[3] = {bl.i, bl.j, bl.k};
    for (int d = 0; d < 3; ++d) {
      const double lo = double(at[d]) * size, hi = lo + size;
      const double dn = centre[d] < lo ? lo - centre[d] : centre[d] > hi ? centre[d] - hi : 0.0;
      const double df = std::max(std::abs(centre[d] - lo), std::abs(centre[d] - hi));
      near += dn * dn;
      far += df * df;
    }
    return near <= radius * radius && far >= radius * radius;
  }

  // `run`: launch the split (false: the mesh only, for the constructor's check).
  void refine(std::int64_t epoch, bool run) {
    std::map<std::int32_t, bool> marked;
    for (const auto& [k, slot] : slots_) {
      const Block& bl = block_.at(slot);
      if (bl.level < levels_ && crossed(bl, epoch)) marked[slot] = true;
    }
    // 2:1 balance: a refined block's coarser face neighbours refine too, until nothing changes.
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [slot, m] : std::map<std::int32_t, bool>(marked)) {
        const Block bl = block_.at(slot);
        for (int f = 0; f < 6; ++f) {
          std::int64_t at[3] = {bl.i, bl.j, bl.k};
          at[f / 2] += f % 2 ? 1 : -1;
          if (at[f / 2] < 0 || at[f / 2] >= side(bl.level)) continue;
          if (bl.level == 0 || find(bl.level, at[0], at[1], at[2])) continue;
          if (const std::int32_t* c = find(bl.level - 1, at[0] / 2, at[1] / 2, at[2] / 2))
            if (!marked.count(*c)) {
              marked[*c] = true;
              changed = true;
            }
        }
      }
    }
    if (!marked.empty()) {
      std::int64_t n = 0;
      std::vector<std::int32_t> parents;
      for (const auto& [slot, m] : marked) {
        const Block bl = block_.at(slot);
        slots_.erase(key(bl));
        parents.push_back(slot);
        for (int o = 0; o < 8; ++o) {
          const std::int32_t c = add_block(
              Block{bl.level + 1, 2 * bl.i + (o & 1), 2 * bl.j + ((o >> 1) & 1), 2 * bl.k + ((o >> 2) & 1)});
          parent_.values[std::size_t(n)] = slot;
          child_.values[std::size_t(n)] = c;
          octant_.values[std::size_t(n)] = o;
          ++n;
        }
      }
      if (run) launch("split", split(n));
      for (std::int32_t p : parents) {
        block_.erase(p);
        free_.push_back(p);
      }
    }
    tables();
  }

  // The block list and every block's face neighbours.
  void tables() {
    std::int64_t n = 0;
    for (const auto& [k, slot] : slots_) {
      list_.values[std::size_t(n++)] = slot;
      const Block& bl = block_.at(slot);
      for (int f = 0; f < 6; ++f) {
        const std::size_t at = std::size_t(slot) * 6 + std::size_t(f);
        const int axis = f / 2;
        std::int64_t p[3] = {bl.i, bl.j, bl.k};
        p[axis] += f % 2 ? 1 : -1;
        std::fill(nb_.values.begin() + std::ptrdiff_t(at * 4),
                  nb_.values.begin() + std::ptrdiff_t(at * 4 + 4), -1);
        quarter_.values[at] = 0;
        if (p[axis] < 0 || p[axis] >= side(bl.level)) {
          type_.values[at] = kBoundary;
        } else if (const std::int32_t* s = find(bl.level, p[0], p[1], p[2])) {
          type_.values[at] = kSame;
          nb_.values[at * 4] = *s;
        } else if (const std::int32_t* c =
                       bl.level > 0 ? find(bl.level - 1, p[0] / 2, p[1] / 2, p[2] / 2) : nullptr) {
          type_.values[at] = kCoarser;
          nb_.values[at * 4] = *c;
          const int da = axis == 0 ? 1 : 0, db = axis == 2 ? 1 : 2;  // the face's two axes, (a, b)
          const std::int64_t mine[3] = {bl.i, bl.j, bl.k};
          quarter_.values[at] = std::int32_t((mine[da] % 2) + 2 * (mine[db] % 2));
        } else {
          type_.values[at] = kFiner;
          const int da = axis == 0 ? 1 : 0, db = axis == 2 ? 1 : 2;
          for (int q = 0; q < 4; ++q) {
            std::int64_t ch[3] = {2 * p[0], 2 * p[1], 2 * p[2]};
            ch[axis] += f % 2 ? 0 : 1;  // the children touching our face
            ch[da] += q & 1;
            ch[db] += q >> 1;
            const std::int32_t* s = find(bl.level + 1, ch[0], ch[1], ch[2]);
            if (!s) throw KernelError("miniamr: the mesh lost its 2:1 balance");
            nb_.values[at * 4 + std::size_t(q)] = *s;
          }
        }
      }
    }
    nblocks_ = n;
  }

  // ---- kernels --------------------------------------------------------------------------------------

  V<std::int64_t> cell(const V<std::int64_t>& x, const V<std::int64_t>& y, const V<std::int64_t>& z) const {
    return x + (y + z * (b_ + 2)) * (b_ + 2);
  }
  // v mod n (an integer remainder: a divide, multiply and subtract).
  static V<std::int64_t> mod(const V<std::int64_t>& v, std::int64_t n) { return v - (v / n) * n; }
  // The base of variable `v` of the blocks in `slot`.
  V<std::int64_t> base(const V<std::int64_t>& slot, std::int64_t v) const {
    return (slot * vars_ + v) * cells_;
  }
  // LASP's index terms (LADM §III-C): a grid's cell base(slot, v) + cell(...) = (slot vars + v) cells + ...
  // takes its block from a table (slot = block_list[blockIdx.x], or a neighbour's, parent's or child's slot):
  // a data-dependent component (X[Y[bx]]), so row 7 whatever its loops over v and z add.
  runtime::ArrayAccess grid_by_slot(const Array<double>& g) const {
    return lasp_access(g, {false, false, true, runtime::LoopVariant::kM, std::uint64_t(cells_)});
  }
  // A per-block table read at blockIdx.x (or at a slot read from one: gathered).
  static runtime::ArrayAccess at_block(const Array<std::int32_t>& t) {
    return lasp_access(t, {true, false, false, runtime::LoopVariant::kNone, 0});
  }

  Launch shape(std::int64_t ctas, unsigned regs) const {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(ctas), 1, 1};
    l.block = {static_cast<std::uint32_t>(b_), static_cast<std::uint32_t>(b_), 1};
    l.regs_per_thread = regs;
    return l;
  }

  Launch exchange() {
    Launch l = shape(nblocks_ * 6, 32);
    // LASP: the grid at its own and its neighbours' slots: row 7 (the largest array decides: kernel-wide,
    // RTWICE); block_list[bx / 6]: row 1; the face tables at slot 6 + f: gathered.
    l.accesses = {grid_by_slot(grid_[cur_]), at_block(list_), lasp_access(type_, runtime::terms::kGathered),
                  lasp_access(nb_, runtime::terms::kGathered),
                  lasp_access(quarter_, runtime::terms::kGathered)};
    l.body = [this](Cta& c) {
      const std::int64_t entry = c.blockIdx.x / 6, f = c.blockIdx.x % 6, axis = f / 2;
      const V<std::int64_t> slot = convert<std::int64_t>(c.load(list_, c.uniform(entry)));
      const V<std::int32_t> type = c.load(type_, slot * 6 + f);
      c.charge(InstrClass::kBranch);
      if (type[0] == kBoundary) return;  // the same for every thread: a uniform branch
      const V<std::int64_t> a = c.threadIdx_x(), b = c.threadIdx_y();
      // Ghost cell of (a, b) on face f: along the axis 0 or B + 1, the others a + 1, b + 1.
      auto at = [&](const V<std::int64_t>& along, const V<std::int64_t>& pa, const V<std::int64_t>& pb) {
        return axis == 0 ? cell(along, pa, pb) : axis == 1 ? cell(pa, along, pb) : cell(pa, pb, along);
      };
      const std::int64_t ghost = f % 2 ? b_ + 1 : 0, source = f % 2 ? 1 : b_;
      const V<std::int64_t> g = c.uniform(ghost), src = c.uniform(source);
      const V<std::int64_t> mine = at(g, a + 1, b + 1);
      if (type[0] == kSame) {
        const V<std::int64_t> nb = convert<std::int64_t>(c.load(nb_, slot * 24 + f * 4));
        const V<std::int64_t> from = at(src, a + 1, b + 1);
        c.uniform_loop(std::uint64_t(vars_), [&](std::uint64_t v) {
          c.store(grid_[cur_], base(slot, std::int64_t(v)) + mine,
                  c.load(grid_[cur_], base(nb, std::int64_t(v)) + from));
        });
      } else if (type[0] == kCoarser) {
        const V<std::int64_t> nb = convert<std::int64_t>(c.load(nb_, slot * 24 + f * 4));
        const V<std::int64_t> q = convert<std::int64_t>(c.load(quarter_, slot * 6 + f));
        const V<std::int64_t> qa = mod(q, 2), qb = q / 2;
        const V<std::int64_t> from = at(src, (a + qa * b_) / 2 + 1, (b + qb * b_) / 2 + 1);
        c.uniform_loop(std::uint64_t(vars_), [&](std::uint64_t v) {
          c.store(grid_[cur_], base(slot, std::int64_t(v)) + mine,
                  c.load(grid_[cur_], base(nb, std::int64_t(v)) + from));
        });
      } else {
        const std::int64_t half = b_ / 2;
        const V<std::int64_t> q = a / half + (b / half) * 2;
        const V<std::int64_t> nb = convert<std::int64_t>(c.load(nb_, slot * 24 + f * 4 + q));
        const V<std::int64_t> fa = mod(a * 2, b_) + 1, fb = mod(b * 2, b_) + 1;
        c.uniform_loop(std::uint64_t(vars_), [&](std::uint64_t v) {
          const V<std::int64_t> nbase = base(nb, std::int64_t(v));
          V<double> sum = c.load(grid_[cur_], nbase + at(src, fa, fb));
          sum = sum + c.load(grid_[cur_], nbase + at(src, fa + 1, fb));
          sum = sum + c.load(grid_[cur_], nbase + at(src, fa, fb + 1));
          sum = sum + c.load(grid_[cur_], nbase + at(src, fa + 1, fb + 1));
          c.store(grid_[cur_], base(slot, std::int64_t(v)) + mine, sum * 0.25);
        });
      }
    };
    return l;
  }

  Launch stencil() {
    Launch l = shape(nblocks_, 32);
    // LASP: both grids at the listed slot: row 7; block_list[bx]: row 1.
    l.accesses = {grid_by_slot(grid_[cur_]), grid_by_slot(grid_[1 - cur_]), at_block(list_)};
    l.body = [this](Cta& c) {
      const V<std::int64_t> slot = convert<std::int64_t>(c.load(list_, c.uniform(c.blockIdx.x)));
      const V<std::int64_t> x = c.threadIdx_x() + 1, y = c.threadIdx_y() + 1;
      const Array<double>& in = grid_[cur_];
      const Array<double>& out = grid_[1 - cur_];
      c.uniform_loop(std::uint64_t(vars_), [&](std::uint64_t v) {
        const V<std::int64_t> vb = base(slot, std::int64_t(v));
        V<double> below = c.load(in, vb + cell(x, y, c.uniform(0)));
        V<double> here = c.load(in, vb + cell(x, y, c.uniform(1)));
        c.uniform_loop(std::uint64_t(b_), [&](std::uint64_t zz) {
          const V<std::int64_t> z = c.uniform(std::int64_t(zz) + 1);
          const V<double> above = c.load(in, vb + cell(x, y, z + 1));
          V<double> sum = below + here + above;
          sum = sum + c.load(in, vb + cell(x - 1, y, z));
          sum = sum + c.load(in, vb + cell(x + 1, y, z));
          sum = sum + c.load(in, vb + cell(x, y - 1, z));
          sum = sum + c.load(in, vb + cell(x, y + 1, z));
          c.store(out, vb + cell(x, y, z), sum * (1.0 / 7.0));
          below = here;
          here = above;
        });
      });
    };
    return l;
  }

  // Child n of the refinement takes its cells from its parent's covering cells (injection).
  Launch split(std::int64_t n) {
    Launch l = shape(n, 24);
    // LASP: the grid at the parent's and the child's slots: row 7; the split records at bx: row 1.
    l.accesses = {grid_by_slot(grid_[cur_]), at_block(parent_), at_block(child_), at_block(octant_)};
    l.body = [this](Cta& c) {
      const V<std::int64_t> e = c.uniform(c.blockIdx.x);
      const V<std::int64_t> parent = convert<std::int64_t>(c.load(parent_, e));
      const V<std::int64_t> child = convert<std::int64_t>(c.load(child_, e));
      const V<std::int64_t> o = convert<std::int64_t>(c.load(octant_, e));
      const std::int64_t half = b_ / 2;
      const V<std::int64_t> x = c.threadIdx_x(), y = c.threadIdx_y();
      const V<std::int64_t> px = x / 2 + mod(o, 2) * half + 1, py = y / 2 + mod(o / 2, 2) * half + 1;
      const V<std::int64_t> oz = (o / 4) * half;
      c.uniform_loop(std::uint64_t(vars_), [&](std::uint64_t v) {
        const V<std::int64_t> pb = base(parent, std::int64_t(v)), cb = base(child, std::int64_t(v));
        c.uniform_loop(std::uint64_t(b_), [&](std::uint64_t z) {
          const V<std::int64_t> pz = oz + std::int64_t(z / 2) + 1;
          c.store(grid_[cur_], cb + cell(x + 1, y + 1, c.uniform(std::int64_t(z) + 1)),
                  c.load(grid_[cur_], pb + cell(px, py, pz)));
        });
      });
    };
    return l;
  }

  std::int64_t b_, vars_, nb0_;
  int levels_;
  std::int64_t steps_, refine_every_, capacity_;
  std::int64_t cells_ = (b_ + 2) * (b_ + 2) * (b_ + 2), nblocks_ = 0, next_slot_ = 0;
  int cur_ = 0;
  std::map<std::tuple<int, std::int64_t, std::int64_t, std::int64_t>, std::int32_t> slots_;
  std::map<std::int32_t, Block> block_;
  std::vector<std::int32_t> free_;
  // Per block slot (capacity_ of them): its cells (vars_ variables of cells_ each, with the ghost layer), its
  // entry of the block list, its 6 faces' types, neighbours (4 a face) and quarters, and its split record.
  std::uint64_t cap_ = std::uint64_t(capacity_);
  Array<double> grid_[2] = {array<double>("grid0", std::uint64_t(capacity_) * vars_ * cells_),
                            array<double>("grid1", std::uint64_t(capacity_) * vars_ * cells_)};
  Data<std::int32_t> list_{this, "block_list", cap_, -1};
  Data<std::int32_t> type_{this, "face_type", cap_ * 6, kBoundary};
  Data<std::int32_t> nb_{this, "face_neighbours", cap_ * 24, -1};
  Data<std::int32_t> quarter_{this, "face_quarter", cap_ * 6};
  Data<std::int32_t> parent_{this, "split_parent", cap_, -1};
  Data<std::int32_t> child_{this, "split_child", cap_, -1};
  Data<std::int32_t> octant_{this, "split_octant", cap_};
};

}  // namespace

ApplicationEntry app_proxy_miniamr() {
  return {
      "proxy/miniamr",
      "A MiniAMR-like block-structured AMR stencil: per step a ghost exchange between neighbouring blocks "
      "(same level, coarser, finer) and a 7-point stencil per block; every few steps the blocks a moving "
      "sphere crosses split into 8 (2:1 balanced), changing the block list the kernels get",
      {{"block", 16, 4, 32, "cells per block side (even; B x B threads a CTA)"},
       {"blocks", 4, 1, 16, "blocks per side at level 0"},
       {"levels", 2, 0, 6, "refinement levels above level 0"},
       {"vars", 4, 1, 40, "variables per cell"},
       {"steps", 8, 1, 10000, "time steps (an exchange and a stencil each)"},
       {"refine_every", 4, 1, 10000, "steps between refinements (one also before the first step)"},
       {"max_blocks", 4096, 1, 16384, "block slots the arrays are sized for"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<MiniAmrApp>(a, input); }};
}

}  // namespace numagpu::kernels
