#pragma once
// The run journal, OUT.h5.journal: the durable record of every finished point while a sweep
// runs. Rank 0 appends each result as it arrives (one write per batch, fdatasync about once a
// second), so a run killed at any moment loses only the points in flight. --resume reads the
// journal, skips what it holds and writes the complete file. Records are framed with a length
// and a CRC-32; a torn last record (kill during a write) is detected and dropped, and damaged bytes
// in the middle (a bad disk block) cost only the records they hit: reading resynchronizes on the
// next intact record.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dcsweep/sweep/point.hpp"

namespace dcsweep {

struct JournalHeader {
  std::string spec_path;
  std::string spec_text;      ///< the spec the run started with
  std::string created;        ///< when the sweep first started (UTC, ISO 8601)
  std::uint64_t points = 0;   ///< grid size
};

/// Damaged bytes between intact records (skipped when reading; the records around them are kept).
struct DamagedRegion {
  std::uint64_t offset;  ///< where it starts in the file
  std::uint64_t bytes;
};

struct JournalContents {
  JournalHeader header;
  std::vector<PointResult> results;    ///< in the order they were recorded
  std::uint64_t valid_bytes = 0;       ///< up to the end of the last intact record
  bool torn_tail = false;              ///< bytes after the last intact record (dropped on reopen)
  std::vector<DamagedRegion> skipped;  ///< damaged regions between intact records
};

/// The journal's path for an output file.
std::string journal_path(const std::string& output);

/// Reads a journal; InputError when it is not one (wrong magic, unreadable header).
JournalContents read_journal(const std::string& path);

class Journal {
 public:
  /// Creates a new journal; fails (InputError naming the path) if it exists or cannot be written.
  static Journal create(const std::string& path, const JournalHeader& header);
  /// Opens an existing journal for appending after its intact prefix (a torn tail is cut off).
  static Journal reopen(const std::string& path, std::uint64_t valid_bytes);

  Journal(Journal&& other) noexcept;
  Journal& operator=(Journal&&) = delete;
  ~Journal();

  void append(std::span<const PointResult> results);
  /// Forces what was appended to stable storage.
  void sync();

 private:
  Journal(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  void write_all(const std::string& bytes);

  std::string path_;
  int fd_ = -1;
};

}  // namespace dcsweep
