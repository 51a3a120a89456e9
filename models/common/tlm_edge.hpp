// Standard TLM-2.0 at numagpu's edges (docs/tlm-edges.md): what a payload that did not come from a TxnPool
// (a host's `tlm_generic_payload`, without numagpu's extension or with it) must satisfy before it enters the
// model, the response status it gets otherwise, and the memory that holds data when the configuration asks
// for it (memory.functional). Inside the model every payload is pooled; a foreign payload is represented by a
// pooled stand-in while it is in flight, and its data is read from or written to the FunctionalMemory when
// its transaction completes at the edge it entered (the caches and the DRAM move no data).
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include <tlm>

#include "common/txn.hpp"

namespace numagpu {

// A sparse byte store over the machine's addresses: pages are allocated when first written, and bytes never
// written read as zero.
class FunctionalMemory {
 public:
  static constexpr std::uint64_t kPageBytes = 4096;

  // Copies `length` bytes at `address` into `dst` (read) or from `src` (write). A byte enable array
  // (`enables`, `enable_length` > 0, repeated over the access as TLM-2.0 defines it) selects the bytes moved:
  // a disabled byte is neither written nor read (its destination byte is left as it was).
  void read(std::uint64_t address, unsigned char* dst, unsigned length,
            const unsigned char* enables = nullptr, unsigned enable_length = 0) const;
  void write(std::uint64_t address, const unsigned char* src, unsigned length,
             const unsigned char* enables = nullptr, unsigned enable_length = 0);
  std::size_t pages() const { return pages_.size(); }

  // Direct memory interface (docs/tlm-edges.md, "DMI"). A contiguous run of bytes holding `address`:
  // [start, end] (inclusive, as tlm_dmi has it) at `bytes` (the byte at `start`). Its page, allocated if
  // never written, or the host memory mapped there. Pointers stay valid for the store's lifetime (pages are
  // never freed) or, for a mapped region, until it is unmapped.
  struct Span {
    unsigned char* bytes = nullptr;
    std::uint64_t start = 0, end = 0;
  };
  Span span(std::uint64_t address);
  // The bytes of [start, end] are a host target's own memory at `bytes` (the DMI pointer it granted): reads
  // and writes there go to it instead of the store's pages. unmap() ends that (the host invalidated it).
  void map(std::uint64_t start, std::uint64_t end, unsigned char* bytes);
  void unmap(std::uint64_t start, std::uint64_t end);
  bool mapped() const { return !regions_.empty(); }

 private:
  // Where `a` lives, and how many bytes from it are contiguous there (at most `length`): a mapped region's
  // bytes, the page's (allocated when `allocate`), or null (a page never written).
  unsigned char* locate(std::uint64_t a, unsigned length, unsigned& chunk, bool allocate) const;
  mutable std::unordered_map<std::uint64_t, std::unique_ptr<unsigned char[]>> pages_;
  std::vector<Span> regions_;  // mapped host memory, looked at only when there is some
};

// What an edge needs to know of the machine to judge a foreign payload (set by the System in its SimContext).
struct EdgeFacts {
  FunctionalMemory* memory = nullptr;  // memory.functional: true; null: no data is held
  unsigned line_bytes = 128;           // an access may not cross a line
  unsigned address_bits = 48;          // memory.address_bits: addresses at or above 2^bits are outside memory
  bool sectored = false;               // stand-ins then ask for the 32 B sectors the access touches
};

// TLM_OK_RESPONSE when `gp` may enter the model, else the error status it is answered with:
// TLM_ADDRESS_ERROR_RESPONSE (outside memory), TLM_BURST_ERROR_RESPONSE (length 0, longer than a line,
// crossing a line, streaming width below the length), TLM_BYTE_ENABLE_ERROR_RESPONSE (byte enable pointer
// without a length), TLM_GENERIC_ERROR_RESPONSE (no data pointer), TLM_COMMAND_ERROR_RESPONSE (a command
// other than read, write or ignore).
tlm::tlm_response_status check_foreign(const tlm::tlm_generic_payload& gp, const EdgeFacts& facts);
// Moves a completed access's data between `gp` and the memory (a read fills gp's data, a write stores it),
// honouring byte enables; does nothing without memory or for the ignore command.
void apply_data(tlm::tlm_generic_payload& gp, const EdgeFacts& facts);
// The debug access (transport_dbg) of `gp` on the memory: the bytes moved (0 without memory, for the ignore
// command, or an access outside memory).
unsigned debug_access(tlm::tlm_generic_payload& gp, const EdgeFacts& facts);

// numagpu's attributes of a foreign payload: its NumaAttr extension when it has one, else a new one built
// from its address, command and length and attached to it (freed with the payload, or by its memory manager
// when it has one). A pooled stand-in for it is filled from these (open_stand_in).
NumaAttr& foreign_attr(tlm::tlm_generic_payload& gp);

// A foreign payload's stand-in, from entry to its end: the one lifecycle of both edges a host's payload
// enters by (a component's socket, ForeignInputs in common/ports.cpp; a host initiator's plug point,
// system/external_ports.cpp). open_stand_in when the payload is admitted, answer_foreign when the model's
// response comes back, close_stand_in when the stand-in's part is over. An edge that returns before the
// response (nb_transport) also holds the foreign payload meanwhile (acquire/release with its memory manager).
//
// The pooled payload that stands for `foreign` inside the model, taken from `pool`: the line holding its
// bytes (an unsectored machine moves whole lines; a sectored one the sectors touched), its operation, the
// attribute's routing fields; both are linked through NumaAttr::counterpart.
tlm::tlm_generic_payload& open_stand_in(TxnPool& pool, tlm::tlm_generic_payload& foreign,
                                        const EdgeFacts& facts);
// Hands the stand-in's response to its foreign payload, which it returns: the response status as the model
// set it, unchanged (every target inside sets it when it responds, RequestInputs::respond; a status still
// TLM_INCOMPLETE_RESPONSE is passed on for the host's checker to see, not turned into success), and, when
// it is a success, the data moved between the payload and the functional memory (apply_data).
tlm::tlm_generic_payload& answer_foreign(const tlm::tlm_generic_payload& stand_in, const EdgeFacts& facts);
// Unlinks the stand-in from its foreign payload and returns it to its pool; returns the foreign payload.
tlm::tlm_generic_payload& close_stand_in(tlm::tlm_generic_payload& stand_in);

// The operation a foreign command asks for.
inline MemOp foreign_op(const tlm::tlm_generic_payload& gp) {
  return gp.get_command() == tlm::TLM_WRITE_COMMAND ? MemOp::kWrite : MemOp::kRead;
}
// The line address of `address`.
inline std::uint64_t line_of(std::uint64_t address, unsigned line_bytes) {
  return address - address % line_bytes;
}

}  // namespace numagpu
