#include "dcsweep/sweep/runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sweep/cost.hpp"
#include "dcsweep/sweep/distribution.hpp"
#include "dcsweep/sweep/inputs.hpp"
#include "dcsweep/sweep/journal.hpp"
#include "dcsweep/sweep/liveness.hpp"
#include "dcsweep/sweep/progress.hpp"
#include "dcsweep/sweep/result_file.hpp"
#include "dcsweep/sweep/run_lock.hpp"
#include "mpi_messages.hpp"

namespace dcsweep {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using namespace mpi;  // NOLINT(google-build-using-namespace): the message helpers of this library
enum Verdict : int { kGo = 0, kBadInput = 2, kNothingToDo = 3 };

std::string broadcast_text(std::string text, MPI_Comm comm) {
  std::uint64_t size = text.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm);
  text.resize(size);
  MPI_Bcast(text.data(), static_cast<int>(size), MPI_BYTE, 0, comm);
  return text;
}

std::string encode_chunk(const std::vector<std::uint64_t>& chunk) {
  return {reinterpret_cast<const char*>(chunk.data()), chunk.size() * sizeof(std::uint64_t)};
}

std::vector<std::uint64_t> decode_chunk(const std::string& bytes) {
  std::vector<std::uint64_t> chunk(bytes.size() / sizeof(std::uint64_t));
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(chunk.data()));
  return chunk;
}

// ---- the sweep ----

class SweepRun {
 public:
  SweepRun(const RunOptions& options, MPI_Comm comm, std::ostream& out, std::ostream& err)
      : options_(options), comm_(comm), out_(out), err_(err), catalog_(simulation_catalog()) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  int run() {
    const int code = run_to_end();
    // Flushed before MPI_Finalize: under mpirun, what a rank prints after it may be lost.
    out_.flush();
    err_.flush();
    return code;
  }

 private:
  int run_to_end() {
    start_ = Clock::now();
    const int verdict = setup();
    if (verdict == kBadInput) return 2;
    if (verdict == kNothingToDo) return rank_ == 0 ? report_complete() : broadcast_exit(0);
    rank_ == 0 ? coordinate() : work();
    while (next_round()) rank_ == 0 ? coordinate() : work();
    return write();
  }

  // -- setup: every rank ends with the same verdict --

  int setup() {
    std::string message, spec_text;
    int verdict = kGo;
    if (rank_ == 0) {
      try {
        spec_text = read_spec_text(options_.spec_path);
      } catch (const InputError& e) {
        message = e.what();
        verdict = kBadInput;
      }
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, comm_);
    if (verdict != kGo) return fail_setup(message);
    spec_text = broadcast_text(spec_text, comm_);
    try {
      spec_ = parse_spec(spec_text, options_.spec_path, catalog_);
      grid_.emplace(spec_, catalog_);
      shared_points_ = spec_.design.adaptive.points.size();
      layout_ = ResultLayout::of_grid(*grid_);
      loader_ = caching_trace_loader();
      heat_ = caching_heat_provider();
      if (rank_ == 0) check_output_free();
    } catch (const InputError& e) {
      message = e.what();
      verdict = kBadInput;
    }
    // Every rank parsed the same text; rank 0 alone checked the output.
    MPI_Bcast(&verdict, 1, MPI_INT, 0, comm_);
    if (verdict == kBadInput) return fail_setup(message);
    if (!estimate_costs_together(message)) return fail_setup(message);
    try {
      if (rank_ == 0) verdict = prepare_output();
    } catch (const InputError& e) {
      message = e.what();
      verdict = kBadInput;
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, comm_);
    if (verdict == kBadInput) return fail_setup(message);
    if (verdict == kGo && adaptive()) share_points();  // (a resume has replayed its rounds on rank 0)
    return verdict;
  }

  // -- adaptive designs: rounds of the same engine --

  bool adaptive() const { return spec_.design.kind == DesignKind::adaptive; }

  /// Per sample, the refine metric's mean over the replicates that have a value (NaN: none has).
  std::vector<double> refine_metric_values() const {
    const auto& metrics = layout_.metrics;
    const auto m = std::size_t(std::find_if(metrics.begin(), metrics.end(), [&](const MetricSpec& s) {
                                 return s.name == spec_.design.adaptive.metric;
                               }) - metrics.begin());
    const auto replicates = static_cast<std::size_t>(spec_.replicates);
    std::vector<double> out(results_.size() / replicates, NAN);
    for (std::size_t s = 0; s < out.size(); ++s) {
      double sum = 0;
      int count = 0;
      for (std::size_t r = s * replicates; r < (s + 1) * replicates; ++r) {
        const double v = results_[r].status == PointStatus::ok ? results_[r].metrics[m] : NAN;
        if (!std::isnan(v)) sum += v, ++count;
      }
      if (count > 0) out[s] = sum / count;
    }
    return out;
  }

  /// Rank 0's points go to every rank; the grid, the costs and the results follow them.
  void share_points() {
    analysis::AdaptivePoints points = spec_.design.adaptive.points;
    std::uint64_t n = points.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm_);
    points.x.resize(n * points.axes);
    points.round.resize(n);
    MPI_Bcast(points.x.data(), static_cast<int>(points.x.size()), MPI_DOUBLE, 0, comm_);
    MPI_Bcast(points.round.data(), static_cast<int>(n), MPI_INT32_T, 0, comm_);
    if (rank_ != 0) adopt_points(spec_, std::move(points));
    if (n == shared_points_) return;  // (the same on every rank: each shared the same points before)
    shared_points_ = n;
    grid_.emplace(spec_, catalog_);
    std::string message;
    if (!estimate_costs_together(message)) {
      if (rank_ == 0) abort_run(message);
      return;
    }
    if (rank_ == 0) results_.resize(grid_->size());
  }

  /// After a round: rank 0 refines from the results, every rank takes the new points. False when
  /// the design is finished.
  bool next_round() {
    if (!adaptive()) return false;
    const std::size_t before = spec_.design.adaptive.points.size();
    if (rank_ == 0) refine_design(spec_, refine_metric_values());
    share_points();
    const std::size_t added = spec_.design.adaptive.points.size() - before;
    if (rank_ == 0 && !options_.quiet && added > 0) {
      err_ << "dcsweep: round " << spec_.design.adaptive.points.rounds() - 1 << ": " << added
           << " new points refine " << spec_.design.adaptive.metric << " (" << before + added << " in all)\n";
    }
    return added > 0;
  }

  /// Takes journaled (or kept) results of points that exist; an adaptive design's later rounds
  /// are replayed from them: each round complete in `records` gives the next round's points,
  /// the same as the run that recorded them. Records of points not (yet) there stay in `records`.
  void absorb(std::vector<PointResult>& records) {
    for (;;) {
      std::vector<PointResult> later;
      for (PointResult& r : records) {
        if (r.flat >= results_.size()) {
          later.push_back(std::move(r));
          continue;
        }
        // A later record of a point replaces a failed one: it was computed again (--retry-failed).
        if (results_[r.flat].status == PointStatus::ok) continue;
        if (results_[r.flat].status == PointStatus::pending) resumed_ += 1;
        results_[r.flat] = std::move(r);
      }
      records = std::move(later);
      const bool complete = std::none_of(results_.begin(), results_.end(),
                                         [](const PointResult& r) { return r.status == PointStatus::pending; });
      if (!adaptive() || !complete || refine_design(spec_, refine_metric_values()) == 0) break;
      grid_.emplace(spec_, catalog_);
      results_.resize(grid_->size());
      costs_.resize(grid_->size(), 0.0);  // (estimated again once every rank has the points)
    }
  }

  /// The cost estimate, shared: each rank builds every size-th distinct workload (reading those
  /// traces, which also checks them), then the estimates are combined. False with the message of
  /// the lowest failing rank (on rank 0) when a workload cannot be built.
  bool estimate_costs_together(std::string& message) {
    int failed_rank = size_;
    try {
      costs_ = estimate_costs(*grid_, loader_, {}, static_cast<std::size_t>(rank_), static_cast<std::size_t>(size_),
                              heat_);
    } catch (const InputError& e) {
      message = e.what();
      failed_rank = rank_;
    }
    int first_failure = size_;
    MPI_Allreduce(&failed_rank, &first_failure, 1, MPI_INT, MPI_MIN, comm_);
    if (first_failure < size_) {
      if (first_failure != 0) {
        if (rank_ == first_failure) send_bytes(message, 0, kBlock, comm_);
        if (rank_ == 0) message = receive_bytes(first_failure, kBlock, comm_);
      }
      return false;
    }
    if (rank_ == 0) {
      MPI_Reduce(MPI_IN_PLACE, costs_.data(), static_cast<int>(costs_.size()), MPI_DOUBLE, MPI_MAX, 0, comm_);
    } else {
      MPI_Reduce(costs_.data(), nullptr, static_cast<int>(costs_.size()), MPI_DOUBLE, MPI_MAX, 0, comm_);
    }
    return true;
  }

  /// Rank 0, before anything is read: a run going on, or a second run on a finished or
  /// interrupted output (without --resume), is refused. The lock is held until the file is complete.
  void check_output_free() {
    const std::string& output = options_.output;
    const fs::path parent = fs::absolute(output).parent_path();
    if (!fs::is_directory(parent)) throw InputError(output + ": directory " + parent.string() + " does not exist");
    lock_.emplace(RunLock::acquire(output, options_.lock_wait_s, err_));
    const bool have_output = fs::exists(output), have_journal = fs::exists(journal_path(output));
    if (!options_.resume && (have_output || have_journal)) {
      throw InputError(output + ": already exists" + (have_journal ? " (an unfinished run: its journal is there)" : "") +
                       "; use --resume to finish it, or choose another -o");
    }
  }

  int fail_setup(const std::string& message) {
    if (rank_ == 0) err_ << "dcsweep: error: " << message << "\n";
    return kBadInput;
  }

  /// Rank 0: the journal (new, or read back to resume) and the initial file. InputError when bad.
  int prepare_output() {
    const std::string& output = options_.output;
    const std::string journal = journal_path(output);
    results_.assign(grid_->size(), PointResult{});
    if (options_.resume && fs::exists(journal)) return recover(journal);
    if (options_.resume && fs::exists(output)) return check_complete(output);
    created_ = utc_now();
    journal_.emplace(Journal::create(journal, {options_.spec_path, spec_.text, created_, grid_->size()}));
    try {
      lay_out({});
    } catch (const std::exception& e) {
      journal_.reset();
      fs::remove(journal);
      throw InputError(std::string(e.what()) + " (is the output path writable?)");
    }
    return kGo;
  }

  void refuse_changes(const SweepSpec& was, const std::string& where) const {
    const std::vector<std::string> changes = spec_differences(was, spec_);
    if (!changes.empty()) {
      throw InputError(options_.output + ": cannot resume: the spec changed since " + where + ": " + join(changes, "; "));
    }
  }

  int recover(const std::string& journal) {
    JournalContents contents = read_journal(journal);
    SweepSpec was;
    try {
      was = parse_spec(contents.header.spec_text, contents.header.spec_path, catalog_);
    } catch (const InputError& e) {
      throw InputError(journal + ": the spec the run started with no longer parses (" + e.what() + ")");
    }
    refuse_changes(was, "the run started");
    created_ = contents.header.created;
    absorb(contents.results);
    if (options_.retry_failed) forget_failed();
    journal_.emplace(Journal::reopen(journal, contents.valid_bytes));
    lay_out({});
    if (!options_.quiet) {
      err_ << "dcsweep: resuming " << options_.output << ": " << resumed_ << " of " << grid_->size()
           << " points already done" << (contents.torn_tail ? " (a torn last record was dropped)" : "") << "\n";
      for (const DamagedRegion& d : contents.skipped) {
        err_ << "dcsweep: warning: " << journal << ": " << d.bytes << " damaged bytes at offset " << d.offset
             << " skipped (the points they held are computed again)\n";
      }
    }
    return kGo;
  }

  int check_complete(const std::string& output) {
    PointsTable table;
    try {
      table = read_points_table(output);
    } catch (const std::exception& e) {
      throw InputError(std::string(e.what()) + "; it has no journal to resume from");
    }
    const SweepSpec was = parse_spec(table.spec_text, options_.spec_path, catalog_);
    refuse_changes(was, "the file was written");
    for (const std::int8_t s : table.status) {
      if (s == 0) throw InputError(output + ": has pending points but no journal to resume from; remove it to start over");
      if (s == 2) ++complete_failures_;
    }
    if (!options_.retry_failed || complete_failures_ == 0) return kNothingToDo;
    return reopen_complete(output, was);
  }

  /// --retry-failed on a finished file: its points go into a new journal (so a kill now loses
  /// nothing), the failed ones are forgotten, and the run computes them.
  int reopen_complete(const std::string& output, const SweepSpec& was) {
    std::vector<PointResult> kept = read_point_results(output, layout_);
    const std::size_t in_file = kept.size();
    absorb(kept);  // (an adaptive design's rounds are replayed from them)
    resumed_ = 0;
    if (in_file != grid_->size()) throw InputError(output + ": holds " + std::to_string(in_file) + " points, its spec " + std::to_string(grid_->size()));
    created_ = utc_now();
    journal_.emplace(Journal::create(journal_path(output), {options_.spec_path, was.text, created_, grid_->size()}));
    journal_->append(results_);
    journal_->sync();
    resumed_ = grid_->size();
    forget_failed();
    lay_out({});
    if (!options_.quiet) {
      err_ << "dcsweep: resuming " << output << ": computing its " << complete_failures_ << " failed points again\n";
    }
    complete_failures_ = 0;
    return kGo;
  }

  /// --retry-failed: the failed points become pending again.
  void forget_failed() {
    for (std::size_t i = 0; i < results_.size(); ++i) {
      if (results_[i].status == PointStatus::failed) results_[i] = PointResult{}, resumed_ -= 1;
    }
  }

  int report_complete() {
    out_ << "dcsweep: " << options_.output << " is complete (" << grid_->size() << " points, " << complete_failures_
         << " failed): nothing to resume\n";
    return broadcast_exit(complete_failures_ > 0 ? 1 : 0);
  }

  int broadcast_exit(int code) {
    MPI_Bcast(&code, 1, MPI_INT, 0, comm_);
    return code;
  }

  void lay_out(std::span<const std::uint64_t> series_lengths) {
    const Provenance provenance{options_.version, options_.git_commit, created_, size_};
    create_result_file(options_.output, file_layout(), provenance, series_lengths, costs_);
  }

  FileLayout file_layout() const { return {spec_, *grid_, catalog_, layout_}; }

  // -- run: rank 0 coordinates and computes --

  /// What rank 0's worker thread shares with the serving thread (which alone calls MPI).
  struct LocalWorker {
    std::mutex mutex;                   // guards the planner and `delivered`
    std::vector<PointResult> delivered;
    std::exception_ptr failure;
    std::atomic<bool> done = false;
    std::atomic<std::uint64_t> point = kNoPoint;  // the point it is on, for the liveness report
    std::atomic<double> since_s = 0;
    static constexpr std::uint64_t kNoPoint = ~std::uint64_t{0};
  };

  double seconds_since_start() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  void compute_locally(ChunkPlanner& planner, LocalWorker& local) {
    try {
      for (;;) {
        std::vector<std::uint64_t> chunk;
        {
          std::lock_guard lock(local.mutex);
          chunk = planner.next();
        }
        if (chunk.empty()) break;
        for (const std::uint64_t p : chunk) {
          local.since_s = seconds_since_start();
          local.point = p;
          PointResult r = evaluate_point(*grid_, p, layout_, loader_, heat_, 0, &rate_);
          std::lock_guard lock(local.mutex);
          local.delivered.push_back(std::move(r));
        }
      }
    } catch (...) {
      local.failure = std::current_exception();
    }
    local.point = LocalWorker::kNoPoint;
    local.done = true;
  }

  void coordinate() {
    std::vector<std::uint64_t> todo;
    for (std::uint64_t i = 0; i < grid_->size(); ++i) {
      if (results_[i].status == PointStatus::pending) todo.push_back(i);
    }
    ChunkPlanner planner(todo, costs_, size_);
    Progress progress(todo.size(), planner.total_cost(), options_.quiet, err_, isatty(STDERR_FILENO) == 1);
    LocalWorker local;
    std::thread thread([&] { compute_locally(planner, local); });
    try {
      serve(todo.size(), planner, progress, local);
    } catch (const std::exception& e) {
      abort_run(e.what());  // the worker thread is still running: end the job here, the journal is safe
    }
    thread.join();
    if (local.failure) {
      try {
        std::rethrow_exception(local.failure);
      } catch (const std::exception& e) {
        abort_run(e.what());
      }
    }
    journal_->sync();
    progress.finish();
  }

  [[noreturn]] void abort_run(const std::string& what) {
    err_ << "dcsweep: failed on rank " << rank_ << ": " << what << " (finished points are in "
         << journal_path(options_.output) << "; finish with --resume)" << std::endl;
    MPI_Abort(comm_, 1);
    std::abort();
  }

  /// Rank 0's main thread: answers chunk requests, journals results, reports progress and stalls.
  /// It never blocks in MPI: chunks go out as non-blocking sends (mpi_messages.hpp).
  void serve(std::size_t todo, ChunkPlanner& planner, Progress& progress, LocalWorker& local) {
    std::size_t received = 0;
    int stopped = 0;
    auto last_sync = Clock::now();
    Backoff backoff;
    SendQueue sends;
    Liveness liveness(size_, options_.stall_warning_s, seconds_since_start());
    std::vector<PointResult> batch;
    while (received < todo || stopped < size_ - 1 || !local.done) {
      bool active = false;
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &status);
      if (flag) {
        active = true;
        const int from = status.MPI_SOURCE;
        const std::string bytes = receive_bytes(from, status.MPI_TAG, comm_);
        if (status.MPI_TAG == kRequest) {
          std::vector<std::uint64_t> chunk;
          {
            std::lock_guard lock(local.mutex);
            chunk = planner.next();
          }
          if (chunk.empty()) ++stopped;
          liveness.handed(from, chunk, seconds_since_start());
          sends.post(encode_chunk(chunk), from, kWork, comm_);
        } else if (status.MPI_TAG == kResults) {
          std::vector<PointResult> results = decode_results(bytes);
          liveness.finished(from, results.size(), seconds_since_start());
          for (PointResult& r : results) batch.push_back(std::move(r));
        }
      }
      sends.test();
      {
        std::lock_guard lock(local.mutex);
        if (!local.delivered.empty()) liveness.finished(0, local.delivered.size(), seconds_since_start());
        for (PointResult& r : local.delivered) batch.push_back(std::move(r));
        local.delivered.clear();
      }
      if (!batch.empty()) {
        active = true;
        journal_->append(batch);
        for (PointResult& r : batch) {
          progress.point_done(r.status == PointStatus::failed, costs_[r.flat]);
          results_[r.flat] = std::move(r);
        }
        received += batch.size();
        batch.clear();
      }
      if (Clock::now() - last_sync > std::chrono::seconds(1)) {
        journal_->sync();
        last_sync = Clock::now();
      }
      if (liveness.stalled(seconds_since_start())) report_stall(liveness, received, todo, local, sends);
      progress.maybe_print();
      if (local.done && local.failure) break;
      if (active) {
        backoff.reset();
      } else {
        backoff.pause();
      }
    }
    sends.wait_all();
  }

  void report_stall(Liveness& liveness, std::size_t received, std::size_t todo, const LocalWorker& local,
                    const SendQueue& sends) {
    Liveness::Local on;
    if (const std::uint64_t p = local.point; p != LocalWorker::kNoPoint) on = {p, local.since_s};
    Liveness::PendingSends pending;
    for (int r = 0; r < size_; ++r) pending.push_back(sends.pending_to(r));
    if (auto warning = liveness.check(seconds_since_start(), received, todo, on, pending)) {
      err_ << (isatty(STDERR_FILENO) == 1 ? "\n" : "") << *warning << std::endl;
    }
  }

  // -- run: the other ranks compute, asking for the next chunk while they work on this one --

  void work() {
    SendQueue sends;  // never a blocking send: see mpi_messages.hpp
    sends.post({}, 0, kRequest, comm_);
    std::vector<std::uint64_t> chunk = decode_chunk(receive_bytes(0, kWork, comm_));
    while (!chunk.empty()) {
      sends.post({}, 0, kRequest, comm_);
      std::string bytes;
      for (const std::uint64_t p : chunk) encode(evaluate_point(*grid_, p, layout_, loader_, heat_, rank_, &rate_), bytes);
      sends.post(std::move(bytes), 0, kResults, comm_);
      chunk = decode_chunk(receive_bytes(0, kWork, comm_));
      sends.test();
    }
    sends.wait_all();
  }

  // -- write: every rank writes its block of rows collectively --

  int write() {
    const Provenance provenance{options_.version, options_.git_commit, created_, size_};
    const int failures = write_results(options_.output, comm_, file_layout(), provenance, costs_, results_);
    if (rank_ == 0) {
      journal_.reset();
      fs::remove(journal_path(options_.output));
      lock_.reset();
      summarize(std::chrono::duration<double>(Clock::now() - start_).count(), failures);
    }
    return failures > 0 ? 1 : 0;
  }

  static std::string rounds_text(const analysis::AdaptivePoints& points) {
    std::vector<std::string> per_round;
    for (const std::size_t n : analysis::points_per_round(points)) per_round.push_back(std::to_string(n));
    return std::to_string(points.rounds()) + (points.rounds() == 1 ? " round" : " rounds") + ", points per round " +
           join(per_round);
  }

  void summarize(double run_s, int failures) {
    double point_s = 0;
    for (const PointResult& r : results_) point_s += r.wall_s;
    const std::uint64_t n = grid_->size();
    out_ << "dcsweep: wrote " << options_.output << "\n"
         << "  " << n << " points: " << n - std::uint64_t(failures) << " ok, " << failures << " failed";
    if (resumed_ > 0) out_ << " (" << resumed_ << " recovered from the journal)";
    out_ << "; " << size_ << (size_ == 1 ? " rank, " : " ranks, ") << format_number(std::round(run_s * 1000) / 1000)
         << " s from spec to file (sum of point times " << format_number(std::round(point_s * 1000) / 1000)
         << " s)\n  dims: ";
    for (const Axis& axis : spec_.axes) out_ << axis.name << "[" << axis.size() << "] x ";
    out_ << "replicate[" << spec_.replicates << "]\n";
    if (adaptive()) out_ << "  adaptive design: " << rounds_text(spec_.design.adaptive.points) << "\n";
    out_ << "  " << std::left << std::setw(26) << "metric" << std::right << std::setw(14) << "min" << std::setw(14)
         << "mean" << std::setw(14) << "max" << "  units\n";
    for (std::size_t m = 0; m < layout_.metrics.size(); ++m) {
      double lo = INFINITY, hi = -INFINITY, sum = 0;
      std::size_t count = 0;
      for (const PointResult& r : results_) {
        const double v = r.metrics[m];
        if (std::isnan(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
        ++count;
      }
      auto cell = [](double v) {
        std::ostringstream s;
        s << std::setprecision(6) << v;
        return s.str();
      };
      out_ << "  " << std::left << std::setw(26) << layout_.metrics[m].name << std::right << std::setw(14)
           << (count ? cell(lo) : "nan") << std::setw(14) << (count ? cell(sum / double(count)) : "nan")
           << std::setw(14) << (count ? cell(hi) : "nan") << "  " << layout_.metrics[m].unit << "\n";
    }
    int shown = 0;
    for (const PointResult& r : results_) {
      if (r.status != PointStatus::failed || shown++ >= 5) continue;
      out_ << "  failed point " << r.flat << ": " << r.error << "\n";
    }
    if (failures > 0) {
      err_ << "dcsweep: " << failures << " of " << n << " points failed (see /points/error in " << options_.output
           << "); the others are saved\n";
    }
  }

  const RunOptions& options_;
  MPI_Comm comm_;
  std::ostream& out_;
  std::ostream& err_;
  const ParamCatalog& catalog_;
  int rank_ = 0, size_ = 1;
  Clock::time_point start_;
  SweepSpec spec_;
  std::optional<Grid> grid_;
  ResultLayout layout_;
  TraceLoader loader_;
  HeatProvider heat_;
  RatebasedCache rate_;  ///< model = ratebased points: tables, room maps, bounds (only one thread simulates)
  // rank 0 only
  std::vector<double> costs_;
  std::vector<PointResult> results_;
  std::optional<Journal> journal_;
  std::optional<RunLock> lock_;
  std::string created_;
  std::uint64_t resumed_ = 0;
  int complete_failures_ = 0;
  std::uint64_t shared_points_ = 0;  ///< adaptive: the points every rank has (setup: the first round)
};

}  // namespace

int run_sweep(const RunOptions& options, MPI_Comm comm, std::ostream& out, std::ostream& err) {
  return SweepRun(options, comm, out, err).run();
}

}  // namespace dcsweep
