// A set of output files (a run's stats.json, stats.txt, config.yaml, ...; a workload dump's traces and
// workload.yaml) that appears in its directory whole or not at all. See docs/stats.md, "Output sets".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace numagpu {

class OutputSet {
 public:
  // `owned`: every name a set in `dir` may hold. `last`: the file that marks the set as written (stats.json,
  // workload.yaml); it appears after all the others. Nothing is written before probe() or add().
  OutputSet(std::string dir, std::vector<std::string> owned, std::string last);
  // A set that was not committed removes its staging directory, and `dir` itself when probe() created it
  // and it is still empty: a failed run or dump leaves nothing behind.
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // Creates `dir` (and its parents) when missing and checks that a file can be written there, by writing
  // and removing a small probe file: a read-only or full directory is found before any work is done.
  // Throws std::runtime_error, one line naming `dir` and the reason (the directory, if it made it, is removed
  // again).
  void probe();

  // Writes one file of the set (atomically, stats/atomic_write.hpp) into a private staging directory inside
  // `dir` (".numagpu-staging.<pid>.<n>", created by the first call). Throws WriteError naming the file's
  // final path in `dir` when it cannot be written.
  void add(const std::string& name, std::string_view contents);
  // For a file another writer produces (a streamed trace): makes it part of the set and returns where in
  // the staging directory to write it, completely, before commit().
  std::string staged(const std::string& name);
  // Where a file of the set ends up.
  std::string path(const std::string& name) const;

  // Moves the set into `dir`: removes the previous `last` first (so no reader takes an older marker for this
  // set's), then every owned name this set does not hold (so sets never mix), renames each staged file into
  // place and `last` at the end, and syncs the directory. Throws WriteError on failure; what was already
  // moved stays, without `last`.
  void commit();
  // What the destructor does for a set not committed, now (e.g. while signals are still held back).
  void abandon();

 private:
  std::string dir_;
  std::vector<std::string> owned_;
  std::string last_;
  std::string staging_;             // empty until the first add()
  std::vector<std::string> added_;  // in order
  bool created_dir_ = false;        // probe() made `dir`
  bool committed_ = false;
};

}  // namespace numagpu
