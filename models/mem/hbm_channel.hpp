// One HBM channel's banks and its FR-FCFS scheduler, stepped in cycles of the DRAM's command clock. Plain
// C++, no SystemC: the Dram module (mem/dram.hpp) converts its requests' times and asks it to advance.
//
// Each bank holds one open row. A request waits in the scheduler's queue (bounded, counted in column
// commands) until its bank is free; a free bank takes the oldest queued request for its open row if there is
// one (a row hit), else the oldest for the bank (first-ready, first-come first-served: Rixner et al., "Memory
// access scheduling", ISCA 2000; GPGPU-Sim's and Accel-Sim's -gpgpu_dram_scheduler 1). The bank then
// precharges and activates as the request's row needs, and issues one column command per burst_bytes of the
// request. Every cycle the channel may issue one column command and one row command (HBM2's separate row and
// column command buses), each to the bank whose request is oldest among those whose timing allows it.
//
// Timing (HbmTiming): an activate waits tRP after its bank's precharge, tRC after the bank's previous
// activate and tRRD after the channel's; a column command waits tRCD after its bank's activate, tCCD after
// the channel's previous column command (tCCDL within a bank group) and the data bus's turnaround; a
// precharge waits tRAS after the activate, tRTP after a read and WL + burst + tWR after a write to the bank.
// A read's data is on the bus CL after its command, a write's WL after, for `burst` cycles. Turnarounds as
// GPGPU-Sim derives them (gpu-sim.h, memory_config::init): read to write CL + burst + 2 - WL, write to read
// WL + burst
// + tCDLR. All-bank refresh every refresh_interval cycles: every bank precharged (tRP if a row is open), then
// no command to any bank for `refresh` cycles; rows are closed after it.
#pragma once

#include <cstdint>
#include <vector>

#include "mem/dram_spec.hpp"

namespace numagpu {

class HbmChannel {
 public:
  using Cycle = std::uint64_t;

  struct Request {
    std::uint64_t tag = 0;  // the caller's, returned at completion
    unsigned bank = 0;
    std::uint64_t row = 0;
    unsigned bursts = 1;  // column commands
    bool write = false;
  };
  // What the channel reports while it advances.
  class Sink {
   public:
    virtual ~Sink() = default;
    // One column command's data on the bus in [start, end).
    virtual void burst(Cycle start, Cycle end) = 0;
    // The request's last data left the bus at `data_end`.
    virtual void done(std::uint64_t tag, Cycle data_end) = 0;
  };
  struct Counts {
    std::uint64_t row_hits = 0;       // requests that found their row open
    std::uint64_t row_empty = 0;      // ... their bank closed (an activate)
    std::uint64_t row_conflicts = 0;  // ... another row open (a precharge and an activate)
    std::uint64_t refreshes = 0;
  };

  explicit HbmChannel(const HbmSpec& spec);

  // Room for a request of `bursts` column commands in the scheduler's queue.
  bool has_room(unsigned bursts) const { return queued_bursts_ + bursts <= spec_.queue_entries; }
  // Queues `r`, arrived at the first undecided cycle (decided_until(): advance() to its arrival first).
  // Check has_room first.
  void enqueue(const Request& r);
  // Decides every cycle before `end`.
  void advance(Cycle end, Sink& sink);
  // The first undecided cycle in which a command could issue or a refresh is due with work waiting; `kIdle`
  // when nothing is queued or in a bank.
  Cycle next_event() const;
  static constexpr Cycle kIdle = ~Cycle(0);
  bool idle() const { return queue_.empty() && busy_banks_ == 0; }
  std::size_t queued() const { return queue_.size(); }
  Cycle decided_until() const { return cursor_; }
  const Counts& counts() const { return counts_; }

 private:
  struct Queued {
    Request r;
    std::uint64_t order;  // arrival order: smaller is older
  };
  struct Bank {
    bool open = false;
    std::uint64_t row = 0;
    Cycle next_act = 0;  // earliest activate
    Cycle next_pre = 0;  // earliest precharge
    Cycle next_col = 0;  // earliest column command (tRCD after the activate)
    bool busy = false;   // serving `cur`
    Queued cur;
    unsigned waiting = 0;  // queued requests for this bank
    unsigned group = 0;    // its bank group: its number mod bank_groups
  };
  // The earliest cycle from `from` at which bank `b`'s current request's next command may issue.
  Cycle ready_cycle(const Bank& b, Cycle from) const;
  bool needs_row_command(const Bank& b) const { return !b.open || b.row != b.cur.r.row; }
  void assign_free_banks();
  void refresh_due_by(Cycle c);
  void step(Cycle c, Sink& sink);

  HbmSpec spec_;
  std::vector<Bank> banks_;
  std::vector<Cycle> group_next_col_;  // per bank group: earliest column command (tCCDL)
  std::vector<Queued> queue_;          // oldest first
  unsigned queued_bursts_ = 0;
  unsigned busy_banks_ = 0;
  unsigned free_waiting_ = 0;  // banks not busy with requests queued for them
  std::uint64_t next_order_ = 0;
  Cycle cursor_ = 0;           // cycles before it are decided
  Cycle next_col_ = 0;         // channel: earliest column command (tCCD, the bus)
  Cycle next_read_ = 0;        // earliest read command (write-to-read turnaround)
  Cycle next_write_ = 0;       // earliest write command (read-to-write turnaround)
  Cycle next_act_ = 0;         // channel: earliest activate (tRRD)
  Cycle refresh_due_ = kIdle;  // the next refresh
  Counts counts_;
  // assign_free_banks' scratch, kept to spare an allocation a step.
  std::vector<std::size_t> pick_;
  std::vector<char> hit_;
  std::vector<std::size_t> taken_;
};

}  // namespace numagpu
