// What each fuzz target does with one input, shared by the libFuzzer programs (fuzz/*_fuzzer.cpp) and by the
// regression test that replays every input fuzzing ever found (tests/integration/fuzz_regressions_test.cpp).
//
// Each function feeds the input to a reader and checks the contract of docs/reliability.md: the input is
// accepted, or rejected with exactly one non-empty line of the documented exception type naming the input.
// It returns the broken promise, or nothing; crashes, hangs, sanitizer reports and other exception types are
// caught by the fuzzer (or fail the test) on their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace numagpu::fuzz {

// The error contract: `message` is one non-empty line starting with `must_start_with` (the input's name).
// Returns what is wrong with it, or nothing.
std::optional<std::string> check_error_line(const std::string& message, const std::string& must_start_with);

// A private directory for the files the trace targets write (on /dev/shm when there is one), removed at exit.
const std::string& scratch_dir();

// The configuration loader through the simulator's full schema and its cross-field checks: the input is a
// YAML layer over the built-in system and workload, like `numagpu run --workload INPUT`. `source_dir` is the
// repository (for configs/paper_4socket.yaml and configs/workloads/default.yaml).
std::optional<std::string> config_input(const std::uint8_t* data, std::size_t size,
                                        const std::string& source_dir);

// The Accel-Sim reader. The first byte chooses the framing of the rest (kFraming* below): a .traceg as plain
// text, compressed with gzip or xz on the fly, taken as raw bytes (possibly broken compressed data), or read
// as a kernelslist.g.
enum AccelSimFraming : std::uint8_t { kPlain, kGzip, kXz, kRaw, kKernelList, kFramings };
std::optional<std::string> accelsim_input(const std::uint8_t* data, std::size_t size);

// The .ngt reader: the first byte chooses plain, gzip or xz framing of the rest (kPlain, kGzip, kXz).
std::optional<std::string> ngt_input(const std::uint8_t* data, std::size_t size);

// The hardware tables of `numagpu correlate` (cli/hw_csv.hpp): the first byte picks the counter table (even)
// or the measured-power table (odd) for the rest. An accepted table must hold what the reader promises: each
// kernel once, named, every value a finite number within the reader's limits.
std::optional<std::string> hw_csv_input(const std::uint8_t* data, std::size_t size);

// The METIS graph reader (kernels/metis_graph.hpp): a graph it accepts has consistent rows (row_ptr starts
// at 0, never decreases, ends at the number of entries; every neighbour is a vertex; one weight per entry),
// and so does its extrusion into 3 layers; its reservations are bounded by the text (a header cannot size
// memory); read with an application's weight limit it gives the same graph or one line; a refusal is one
// line naming the input; the same bytes written to a file and read from it (parsed as they are read) give the
// same graph or the same error.
std::optional<std::string> metis_input(const std::uint8_t* data, std::size_t size);

}  // namespace numagpu::fuzz
