#pragma once
// Reader for the Standard Workload Format (Parallel Workloads Archive, SWF v2), plain or gzip.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dcsweep {

/// The header fields that describe the machine the log was recorded on (-1 when absent).
struct SwfHeader {
  std::int64_t max_nodes = -1;
  std::int64_t max_procs = -1;
};

/// One job line, as recorded (SWF's -1 "unknown" kept as -1). Interpretation (which size, which
/// runtime, what is rejected) is the workload builder's, in one documented place.
struct SwfRecord {
  std::int64_t id = 0;           ///< field 1, job number
  double submit_s = 0;           ///< field 2
  double runtime_s = -1;         ///< field 4
  std::int64_t alloc_procs = -1; ///< field 5, allocated processors
  std::int64_t req_procs = -1;   ///< field 8, requested processors
  double requested_s = -1;       ///< field 9, requested (wall-clock limit) time
  std::int32_t status = -1;      ///< field 11: 1 completed, 0 failed, 5 cancelled
  std::int32_t line = 0;         ///< line number in the file, for messages
};

struct SwfTrace {
  std::string path;
  SwfHeader header;
  std::vector<SwfRecord> records;  ///< in file order
};

/// A file's bytes as text: gzip data inflated (several members, as `cat a.gz b.gz`, follow each
/// other; one pass into a buffer sized from the trailer's ISIZE, memory bounded by deflate's
/// 1032:1 ratio), anything else as it is. InputError naming `path` on corrupt gzip data.
std::string decompress_gzip_text(std::string raw, const std::string& path);

/// Reads a .swf or .swf.gz file. InputError "PATH:LINE: what is wrong" on a malformed line,
/// "PATH: cannot open" when missing.
SwfTrace read_swf(const std::string& path);

/// Parses SWF text; `name` is used in messages.
SwfTrace parse_swf(std::string_view text, const std::string& name);

}  // namespace dcsweep
