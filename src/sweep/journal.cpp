#include "dcsweep/sweep/journal.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

constexpr char kMagic[] = "DCSWEEP-JOURNAL 1\n";
constexpr std::uint32_t kRecordMark = 0x52435344;  // "DSCR"

std::uint32_t crc(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <class T>
bool take(std::string_view& in, T& value) {
  if (in.size() < sizeof(T)) return false;
  std::memcpy(&value, in.data(), sizeof value);
  in.remove_prefix(sizeof value);
  return true;
}

void frame(std::string_view payload, std::string& out) {
  put(out, kRecordMark);
  put(out, static_cast<std::uint32_t>(payload.size()));
  out += payload;
  put(out, crc(payload));
}

/// The next intact record's payload, or false at the end or at a torn/corrupt record.
bool unframe(std::string_view& in, std::string_view& payload) {
  std::uint32_t mark = 0, size = 0, sum = 0;
  std::string_view rest = in;
  if (!take(rest, mark) || mark != kRecordMark || !take(rest, size) || rest.size() < size + sizeof sum) return false;
  payload = rest.substr(0, size);
  rest.remove_prefix(size);
  take(rest, sum);
  if (sum != crc(payload)) return false;
  in = rest;
  return true;
}

void put_text(std::string& out, const std::string& text) {
  put(out, static_cast<std::uint64_t>(text.size()));
  out += text;
}

bool take_text(std::string_view& in, std::string& text) {
  std::uint64_t n = 0;
  if (!take(in, n) || n > in.size()) return false;
  text = std::string(in.substr(0, n));
  in.remove_prefix(n);
  return true;
}

/// Decodes a record that passed its CRC into `results`; false if it does not decode.
bool decodes(std::string_view payload, std::vector<PointResult>& results) {
  try {
    results.push_back(decode(payload));
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

/// Moves `in` past the next intact record after its first byte (appending its result); false, with
/// `in` unchanged, when none follows. A false match of the mark is ruled out by the CRC.
bool skip_to_next_record(std::string_view& in, std::vector<PointResult>& results) {
  const std::string_view mark(reinterpret_cast<const char*>(&kRecordMark), sizeof kRecordMark);
  for (std::size_t at = in.find(mark, 1); at != std::string_view::npos; at = in.find(mark, at + 1)) {
    std::string_view rest = in.substr(at), payload;
    if (unframe(rest, payload) && decodes(payload, results)) {
      in = rest;
      return true;
    }
  }
  return false;
}

std::string system_error(const std::string& path, const std::string& what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

std::string journal_path(const std::string& output) { return output + ".journal"; }

JournalContents read_journal(const std::string& path) {
  const std::string bytes = read_text_file(path, "the journal");
  std::string_view in = bytes;
  const std::string_view magic(kMagic, sizeof kMagic - 1);
  std::string_view payload;
  JournalContents out;
  if (in.substr(0, magic.size()) != magic) throw InputError(path + ": not a dcsweep journal");
  in.remove_prefix(magic.size());
  if (!unframe(in, payload) || !take_text(payload, out.header.spec_path) ||
      !take_text(payload, out.header.spec_text) || !take_text(payload, out.header.created) ||
      !take(payload, out.header.points)) {
    throw InputError(path + ": the journal's header is damaged; delete it and the result file to start over");
  }
  out.valid_bytes = bytes.size() - in.size();
  while (!in.empty()) {
    if (unframe(in, payload) && decodes(payload, out.results)) {
      out.valid_bytes = bytes.size() - in.size();
      continue;
    }
    // Damaged bytes: resynchronize on the next record that frames and decodes, if any.
    const std::size_t damaged_at = bytes.size() - in.size();
    if (!skip_to_next_record(in, out.results)) break;
    out.skipped.push_back({damaged_at, bytes.size() - in.size() - damaged_at});
    out.valid_bytes = bytes.size() - in.size();  // the record found was consumed
  }
  out.torn_tail = out.valid_bytes < bytes.size();
  return out;
}

Journal Journal::create(const std::string& path, const JournalHeader& header) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(system_error(path, "cannot create the run journal"));
  Journal journal(path, fd);
  std::string payload;
  put_text(payload, header.spec_path);
  put_text(payload, header.spec_text);
  put_text(payload, header.created);
  put(payload, header.points);
  std::string bytes(kMagic, sizeof kMagic - 1);
  frame(payload, bytes);
  journal.write_all(bytes);
  journal.sync();
  return journal;
}

Journal Journal::reopen(const std::string& path, std::uint64_t valid_bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(system_error(path, "cannot open the run journal"));
  Journal journal(path, fd);
  if (::ftruncate(fd, static_cast<off_t>(valid_bytes)) != 0 || ::lseek(fd, 0, SEEK_END) < 0) {
    throw InputError(system_error(path, "cannot cut the journal's torn tail"));
  }
  return journal;
}

Journal::Journal(Journal&& other) noexcept : path_(std::move(other.path_)), fd_(other.fd_) { other.fd_ = -1; }

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(std::span<const PointResult> results) {
  if (results.empty()) return;
  std::string bytes, payload;
  for (const PointResult& r : results) {
    payload.clear();
    encode(r, payload);
    frame(payload, bytes);
  }
  write_all(bytes);
}

void Journal::write_all(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(system_error(path_, "cannot append to the run journal"));
    done += static_cast<std::size_t>(n);
  }
}

void Journal::sync() {
  if (::fdatasync(fd_) != 0) throw std::runtime_error(system_error(path_, "cannot sync the run journal"));
}

}  // namespace dcsweep
