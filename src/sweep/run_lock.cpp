#include "dcsweep/sweep/run_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <chrono>
#include <cstring>
#include <ostream>
#include <thread>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

enum class Outcome { taken, held, unsupported };

/// `error`: the errno of a refusal.
Outcome try_lock(int fd, int& error) {
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
#ifdef F_OFD_SETLK
  if (fcntl(fd, F_OFD_SETLK, &lock) == 0) return Outcome::taken;
  error = errno;
  if (error != EINVAL) return error == EAGAIN || error == EACCES ? Outcome::held : Outcome::unsupported;
#endif
  if (fcntl(fd, F_SETLK, &lock) == 0) return Outcome::taken;
  error = errno;
  return error == EAGAIN || error == EACCES ? Outcome::held : Outcome::unsupported;
}

std::string read_holder(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char text[256] = {};
  const ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  std::string holder(text, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
  return holder;
}

std::string this_host() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

/// "host H, pid P, since T": who we are, written into the lock file once we hold it.
std::string holder_text() {
  return "host " + this_host() + ", pid " + std::to_string(getpid()) + ", since " + utc_now() + "\n";
}

/// Without kernel locks: is the recorded holder a live process on this host?
bool live_holder_here(const std::string& holder) {
  const std::string prefix = "host " + this_host() + ", pid ";
  if (holder.rfind(prefix, 0) != 0) return false;
  const long pid = std::strtol(holder.c_str() + prefix.size(), nullptr, 10);
  return pid > 0 && pid != getpid() && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

/// The lock file still is the path's file (a finishing holder unlinks it before releasing).
bool still_linked(int fd, const std::string& path) {
  struct stat by_fd {}, by_path {};
  return fstat(fd, &by_fd) == 0 && stat(path.c_str(), &by_path) == 0 && by_fd.st_ino == by_path.st_ino &&
         by_fd.st_dev == by_path.st_dev;
}

void record_holder(int fd) {
  const std::string text = holder_text();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
    return;  // the name is only for messages; the lock itself is what counts
  }
}

}  // namespace

RunLock RunLock::acquire(const std::string& output, double wait_s, std::ostream& err) {
  const std::string path = lock_path(output);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  bool told = false;
  for (;;) {
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw InputError(path + ": cannot create the run's lock file: " + std::strerror(errno));
    int error = 0;
    const Outcome outcome = try_lock(fd, error);
    if (outcome == Outcome::taken && still_linked(fd, path)) {
      record_holder(fd);
      return RunLock(fd, path);
    }
    if (outcome == Outcome::unsupported) {
      const std::string holder = read_holder(path);
      if (!live_holder_here(holder)) {
        err << "dcsweep: warning: " << path << ": the file system does not support locks (" << std::strerror(error)
            << "); a second run on " << output << " from another host would not be detected\n";
        record_holder(fd);
        return RunLock(fd, path);
      }
    }
    close(fd);
    if (outcome == Outcome::taken) continue;  // we locked a file its holder had just unlinked: again
    const std::string holder = read_holder(path);
    if (std::chrono::steady_clock::now() >= deadline) {
      const std::string waited = wait_s > 0 ? " (waited " + std::to_string(std::lround(wait_s)) + " s)" : "";
      throw InputError(output + ": another dcsweep run is using it (" + (holder.empty() ? "holder unknown" : holder) +
                       "); wait for it to end or stop it" + waited);
    }
    if (!told) err << "dcsweep: waiting for " << output << ": another run holds it (" << holder << ")" << std::endl;
    told = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

RunLock::RunLock(RunLock&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) { other.fd_ = -1; }

RunLock::~RunLock() {
  if (fd_ < 0) return;
  unlink(path_.c_str());  // while still holding it: a waiter that opened the old file sees it unlinked
  close(fd_);
}

}  // namespace dcsweep
