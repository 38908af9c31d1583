#include "dcsweep/workload/swf.hpp"

#include <libdeflate.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/huge_pages.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

constexpr int kSwfFields = 18;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// Parses one numeric field whole (parse_record reads the common integer field itself).
bool parse_field(const char* begin, const char* end, double& out) {
  return begin != end && std::from_chars(begin, end, out).ptr == end;
}

/// s.resize(size), storage that grows advised into huge pages before it is written.
void resize_in_huge_pages(std::string& s, std::size_t size) {
  if (size > s.capacity()) reserve_in_huge_pages(s, size);
  s.resize(size);
}

std::string read_bytes(const std::string& path) {
  std::unique_ptr<std::FILE, decltype(&std::fclose)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
  std::string bytes;
  std::size_t size = 0;
  // The opened file's size, where it is a regular file of a plausible size, is read in one go
  // (one byte more to see its end); otherwise, or if it grows meanwhile, in chunks that double.
  struct stat st {};
  const bool sized = fstat(fileno(file.get()), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
                     std::uint64_t(st.st_size) < (std::uint64_t{1} << 40);
  for (std::size_t chunk = sized ? std::max<std::size_t>(std::size_t(st.st_size) + 1, 1 << 16) : std::size_t{1} << 20;;
       chunk *= 2) {
    resize_in_huge_pages(bytes, size + chunk);
    const std::size_t got = std::fread(bytes.data() + size, 1, chunk, file.get());
    size += got;
    if (got < chunk) break;
  }
  if (std::ferror(file.get())) throw InputError(path + ": cannot read (" + std::strerror(errno) + ")");
  bytes.resize(size);
  return bytes;
}

}  // namespace

std::string decompress_gzip_text(std::string raw, const std::string& path) {
  const auto is_gzip = [&](std::size_t at) {
    return raw.size() - at >= 18 && std::uint8_t(raw[at]) == 0x1f && std::uint8_t(raw[at + 1]) == 0x8b;
  };
  if (!is_gzip(0)) return raw;
  std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)> inflater(
      libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
  if (!inflater) throw std::bad_alloc();
  std::string text;
  std::size_t in = 0, out = 0;
  while (in < raw.size()) {
    if (!is_gzip(in)) throw InputError(path + ": cannot read: trailing bytes after gzip data");
    std::uint32_t isize = 0;  // the last member's size: a first guess for this one
    std::memcpy(&isize, raw.data() + raw.size() - 4, 4);
    // Deflate expands at most 1032:1; past that the data is corrupt, not large (bounded memory).
    const std::size_t most = out + 1032 * (raw.size() - in) + (1 << 16);
    resize_in_huge_pages(text, std::max(text.size(), std::min(out + std::max<std::size_t>(isize, 1 << 16), most)));
    for (;;) {
      std::size_t used = 0, written = 0;
      const libdeflate_result r = libdeflate_gzip_decompress_ex(inflater.get(), raw.data() + in, raw.size() - in,
                                                                text.data() + out, text.size() - out, &used, &written);
      if (r == LIBDEFLATE_INSUFFICIENT_SPACE && text.size() < most) {
        resize_in_huge_pages(text, std::min(text.size() * 2, most));
        continue;
      }
      if (r != LIBDEFLATE_SUCCESS) throw InputError(path + ": cannot read: corrupt or truncated gzip data");
      in += used;
      out += written;
      break;
    }
  }
  text.resize(out);
  return text;
}

namespace {

/// Header lines look like "; MaxNodes: 5544" (Sandia-Ross writes ";MaxNodes:").
void parse_header_line(std::string_view line, SwfHeader& header) {
  line.remove_prefix(1);
  while (!line.empty() && is_space(line.front())) line.remove_prefix(1);
  auto read_value = [&](std::string_view key, std::int64_t& out) {
    if (!line.starts_with(key)) return;
    std::string_view rest = line.substr(key.size());
    while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
    std::int64_t value = 0;
    if (std::from_chars(rest.data(), rest.data() + rest.size(), value).ec == std::errc{}) {
      out = value;
    }
  };
  read_value("MaxNodes:", header.max_nodes);
  read_value("MaxProcs:", header.max_procs);
}

constexpr double kMaxSwfTime_s = 1e11;
constexpr double kMaxSwfCount = 1e15;

SwfRecord parse_record(std::string_view line, const std::string& name, std::int32_t line_no) {
  std::array<double, kSwfFields> field{};
  int count = 0;
  const char* p = line.data();
  const char* end = p + line.size();
  while (p != end) {
    while (p != end && is_space(*p)) ++p;
    if (p == end) break;
    const char* start = p;
    // One pass for the common field, an integer of at most 15 digits; anything else (a decimal
    // point, an exponent, more digits) is read again by from_chars.
    const bool negative = *p == '-';
    if (negative) ++p;
    std::int64_t value = 0;
    const char* digits = p;
    for (unsigned digit; p != end && (digit = static_cast<unsigned>(*p - '0')) <= 9; ++p) {
      if (p - digits < 16) value = value * 10 + digit;  // no overflow on a long field (from_chars reads it)
    }
    const bool integer = p != digits && p - digits <= 15 && (p == end || is_space(*p));
    if (!integer) {
      while (p != end && !is_space(*p)) ++p;
    }
    if (count < kSwfFields) {
      if (integer) {
        field[count] = static_cast<double>(negative ? -value : value);
      } else if (!parse_field(start, p, field[count])) {
        throw InputError(name + ":" + std::to_string(line_no) + ": field " + std::to_string(count + 1) +
                         " is not a number: '" + printable(std::string_view(start, std::size_t(p - start)), 40) + "'");
      }
    }
    ++count;
  }
  if (count != kSwfFields) {
    throw InputError(name + ":" + std::to_string(line_no) + ": expected 18 fields, found " +
                     std::to_string(count));
  }
  // Times beyond any machine's life would make a simulation span them (bins, queues): refused.
  for (const auto& [index, what] : {std::pair{1, "submit time"}, {3, "run time"}, {8, "requested time"}}) {
    if (field[index] > kMaxSwfTime_s) {
      throw InputError(name + ":" + std::to_string(line_no) + ": field " + std::to_string(index + 1) + " (" + what +
                       ") " + format_number(field[index]) + " s is implausible (above 1e11 s, 3,000 years)");
    }
  }
  // Counts and ids become integers: a value beyond any machine is refused, not cast (UB).
  for (const auto& [index, what] : {std::pair{0, "job number"}, {4, "allocated processors"},
                                    {7, "requested processors"}, {10, "status"}}) {
    if (!(std::abs(field[index]) <= kMaxSwfCount)) {
      throw InputError(name + ":" + std::to_string(line_no) + ": field " + std::to_string(index + 1) + " (" + what +
                       ") " + format_number(field[index]) + " is out of range (above 1e15)");
    }
  }
  SwfRecord r;
  r.id = static_cast<std::int64_t>(field[0]);
  r.submit_s = field[1];
  r.runtime_s = field[3];
  r.alloc_procs = static_cast<std::int64_t>(field[4]);
  r.req_procs = static_cast<std::int64_t>(field[7]);
  r.requested_s = field[8];
  r.status = static_cast<std::int32_t>(std::clamp(field[10], -1e9, 1e9));  // 1e15 passes the check above
  r.line = line_no;
  return r;
}

}  // namespace

SwfTrace parse_swf(std::string_view text, const std::string& name) {
  SwfTrace trace;
  trace.path = name;
  // A record's line of 18 fields is rarely under 64 bytes (the shipped traces': 92-95); shorter
  // lines grow the storage (unadvised) as they come. Capacity never written to is not resident.
  reserve_in_huge_pages(trace.records, text.size() / 64);
  std::int32_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t newline = text.find('\n', pos);
    const std::size_t stop = newline == std::string_view::npos ? text.size() : newline;
    std::string_view line = text.substr(pos, stop - pos);
    pos = stop + 1;
    ++line_no;
    std::size_t first = 0;
    while (first < line.size() && is_space(line[first])) ++first;
    line.remove_prefix(first);
    if (line.empty()) continue;
    if (line.front() == ';') {
      parse_header_line(line, trace.header);
      continue;
    }
    trace.records.push_back(parse_record(line, name, line_no));
  }
  return trace;
}

SwfTrace read_swf(const std::string& path) { return parse_swf(decompress_gzip_text(read_bytes(path), path), path); }

}  // namespace dcsweep
