#pragma once
// One run at a time per output: rank 0 holds an exclusive lock on OUT.h5.lock from before it
// reads anything until the file is complete, so a second `dcsweep run` on the same output
// (--resume or not; a requeued Slurm job whose first incarnation is still finishing; a user
// resubmitting a job that looks stuck) is refused at once, naming the holder, instead of both
// appending to one journal.
//
// The lock is an open-file-description lock (fcntl F_OFD_SETLK; classic F_SETLK where the kernel
// lacks it): the kernel drops it when the holder dies, so a killed run never leaves a stale lock,
// and on NFS it goes through the NFS lock manager, so it holds across nodes. The file's text
// (host, pid, start time) only names the holder for the error message. Where the file system
// refuses locks altogether (Lustre mounted without -o flock, some FUSE systems) the run warns and
// falls back to that text: a live holder on the same host is still refused; on other hosts a
// second run cannot be detected (docs/user-guide.md: "One run at a time").
#include <iosfwd>
#include <string>

namespace dcsweep {

class RunLock {
 public:
  /// Takes the lock of `output`, waiting up to `wait_s` for a holder to finish (0: refuse at once).
  /// InputError naming the holder when it cannot. Warnings go to `err`.
  static RunLock acquire(const std::string& output, double wait_s, std::ostream& err);

  RunLock(RunLock&& other) noexcept;
  RunLock& operator=(RunLock&&) = delete;
  RunLock(const RunLock&) = delete;
  ~RunLock();

  static std::string lock_path(const std::string& output) { return output + ".lock"; }

 private:
  RunLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

}  // namespace dcsweep
