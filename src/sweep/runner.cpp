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
#include <fstream>
#include <iomanip>
#include <mutex>
#include <numeric>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sweep/cost.hpp"
#include "dcsweep/sweep/distribution.hpp"
#include "dcsweep/sweep/journal.hpp"
#include "dcsweep/sweep/progress.hpp"
#include "dcsweep/sweep/result_file.hpp"

namespace dcsweep {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

enum Tag : int { kRequest = 1, kWork = 2, kResults = 3, kBlock = 4 };
enum Verdict : int { kGo = 0, kBadInput = 2, kNothingToDo = 3 };

// ---- small MPI helpers (main thread only) ----

void send_bytes(const std::string& bytes, int to, int tag, MPI_Comm comm) {
  if (bytes.size() > static_cast<std::size_t>(INT32_MAX)) throw std::runtime_error("message above 2 GiB");
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, comm);
}

/// Waits for `request` without spinning a core: ranks may share cores with rank 0's worker.
void wait_politely(MPI_Request& request) {
  int done = 0;
  auto pause = std::chrono::microseconds(20);
  for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&request, &done, MPI_STATUS_IGNORE)) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

/// Receives one message of any length from `from` with `tag`, politely.
std::string receive_bytes(int from, int tag, MPI_Comm comm) {
  int flag = 0;
  MPI_Status status;
  auto pause = std::chrono::microseconds(20);
  for (MPI_Iprobe(from, tag, comm, &flag, &status); !flag; MPI_Iprobe(from, tag, comm, &flag, &status)) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::string bytes(static_cast<std::size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_BYTE, from, tag, comm, MPI_STATUS_IGNORE);
  return bytes;
}

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

std::vector<PointResult> decode_results(std::string_view bytes) {
  std::vector<PointResult> results;
  while (!bytes.empty()) results.push_back(decode(bytes));
  return results;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path + ": cannot open the spec");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
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
    const int verdict = setup();
    if (verdict == kBadInput) return 2;
    if (verdict == kNothingToDo) return rank_ == 0 ? report_complete() : broadcast_exit(0);
    const auto start = Clock::now();
    rank_ == 0 ? coordinate() : work();
    const int code = write(std::chrono::duration<double>(Clock::now() - start).count());
    return code;
  }

 private:
  // -- setup: every rank ends with the same verdict --

  int setup() {
    std::string message, spec_text;
    int verdict = kGo;
    if (rank_ == 0) {
      try {
        spec_text = read_text(options_.spec_path);
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
      layout_ = ResultLayout::of_simulation();
      loader_ = caching_trace_loader();
      if (rank_ == 0) verdict = prepare_output();
    } catch (const InputError& e) {
      message = e.what();
      verdict = kBadInput;
    }
    // Rank 0's verdict wins: the others parsed the same text, so they agree on a spec error.
    MPI_Bcast(&verdict, 1, MPI_INT, 0, comm_);
    if (verdict == kBadInput) return fail_setup(message);
    return verdict;
  }

  int fail_setup(const std::string& message) {
    if (rank_ == 0) err_ << "dcsweep: error: " << message << "\n";
    return kBadInput;
  }

  /// Rank 0: costs, the output and journal checks, the initial file. InputError when bad.
  int prepare_output() {
    const std::string& output = options_.output;
    const std::string journal = journal_path(output);
    costs_ = estimate_costs(*grid_, loader_);
    results_.assign(grid_->size(), PointResult{});
    const bool have_output = fs::exists(output), have_journal = fs::exists(journal);
    if (!options_.resume && (have_output || have_journal)) {
      throw InputError(output + ": already exists" + (have_journal ? " (an unfinished run: its journal is there)" : "") +
                       "; use --resume to finish it, or choose another -o");
    }
    if (options_.resume && have_journal) return recover(journal);
    if (options_.resume && have_output) return check_complete(output);
    const fs::path parent = fs::absolute(output).parent_path();
    if (!fs::is_directory(parent)) throw InputError(output + ": directory " + parent.string() + " does not exist");
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
    for (PointResult& r : contents.results) {
      if (r.flat < results_.size() && results_[r.flat].status == PointStatus::pending) {
        resumed_ += 1;
        results_[r.flat] = std::move(r);
      }
    }
    journal_.emplace(Journal::reopen(journal, contents.valid_bytes));
    lay_out({});
    if (!options_.quiet) {
      err_ << "dcsweep: resuming " << options_.output << ": " << resumed_ << " of " << grid_->size()
           << " points already done" << (contents.torn_tail ? " (a torn last record was dropped)" : "") << "\n";
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
    refuse_changes(parse_spec(table.spec_text, options_.spec_path, catalog_), "the file was written");
    for (const std::int8_t s : table.status) {
      if (s == 0) throw InputError(output + ": has pending points but no journal to resume from; remove it to start over");
      if (s == 2) ++complete_failures_;
    }
    return kNothingToDo;
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

  void coordinate() {
    std::vector<std::uint64_t> todo;
    for (std::uint64_t i = 0; i < grid_->size(); ++i) {
      if (results_[i].status == PointStatus::pending) todo.push_back(i);
    }
    ChunkPlanner planner(todo, costs_, size_);
    Progress progress(todo.size(), planner.total_cost(), options_.quiet, err_, isatty(STDERR_FILENO) == 1);
    std::mutex mutex;                  // guards planner and delivered
    std::vector<PointResult> delivered;
    std::exception_ptr local_failure;
    std::atomic<bool> local_done = false;
    std::thread local([&] {
      try {
        for (;;) {
          std::vector<std::uint64_t> chunk;
          {
            std::lock_guard lock(mutex);
            chunk = planner.next();
          }
          if (chunk.empty()) break;
          for (const std::uint64_t p : chunk) {
            PointResult r = evaluate_point(*grid_, p, layout_, loader_, 0);
            std::lock_guard lock(mutex);
            delivered.push_back(std::move(r));
          }
        }
      } catch (...) {
        local_failure = std::current_exception();
      }
      local_done = true;
    });

    try {
      serve(todo.size(), planner, progress, mutex, delivered, local_failure, local_done);
    } catch (const std::exception& e) {
      abort_run(e.what());  // the worker thread is still running: end the job here, the journal is safe
    }
    local.join();
    if (local_failure) {
      try {
        std::rethrow_exception(local_failure);
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

  /// Rank 0's main thread: answers chunk requests, journals results, reports progress.
  void serve(std::size_t todo, ChunkPlanner& planner, Progress& progress, std::mutex& mutex,
             std::vector<PointResult>& delivered, const std::exception_ptr& local_failure,
             const std::atomic<bool>& local_done) {
    std::size_t received = 0;
    int stopped = 0;
    auto last_sync = Clock::now();
    auto pause = std::chrono::microseconds(20);
    std::vector<PointResult> batch;
    while (received < todo || stopped < size_ - 1 || !local_done) {
      bool active = false;
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &status);
      if (flag) {
        active = true;
        const std::string bytes = receive_bytes(status.MPI_SOURCE, status.MPI_TAG, comm_);
        if (status.MPI_TAG == kRequest) {
          std::vector<std::uint64_t> chunk;
          {
            std::lock_guard lock(mutex);
            chunk = planner.next();
          }
          if (chunk.empty()) ++stopped;
          send_bytes(encode_chunk(chunk), status.MPI_SOURCE, kWork, comm_);
        } else if (status.MPI_TAG == kResults) {
          for (PointResult& r : decode_results(bytes)) batch.push_back(std::move(r));
        }
      }
      {
        std::lock_guard lock(mutex);
        for (PointResult& r : delivered) batch.push_back(std::move(r));
        delivered.clear();
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
      progress.maybe_print();
      if (local_done && local_failure) break;
      if (!active) {
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
      } else {
        pause = std::chrono::microseconds(20);
      }
    }
  }

  // -- run: the other ranks compute, asking for the next chunk while they work on this one --

  void work() {
    std::string none;
    MPI_Send(none.data(), 0, MPI_BYTE, 0, kRequest, comm_);
    std::vector<std::uint64_t> chunk = decode_chunk(receive_bytes(0, kWork, comm_));
    while (!chunk.empty()) {
      MPI_Request ask;
      MPI_Isend(none.data(), 0, MPI_BYTE, 0, kRequest, comm_, &ask);
      std::string bytes;
      for (const std::uint64_t p : chunk) encode(evaluate_point(*grid_, p, layout_, loader_, rank_), bytes);
      send_bytes(bytes, 0, kResults, comm_);
      wait_politely(ask);
      chunk = decode_chunk(receive_bytes(0, kWork, comm_));
    }
  }

  // -- write: every rank writes its block of rows collectively --

  int write(double run_s) {
    const std::vector<WriteBlock> blocks = split_rows(*grid_, size_);
    WriteBlock mine = blocks[static_cast<std::size_t>(rank_)];
    std::vector<PointResult> block_results;
    int failures = 0;
    if (rank_ == 0) {
      failures = static_cast<int>(std::count_if(results_.begin(), results_.end(),
                                                [](const PointResult& r) { return r.status == PointStatus::failed; }));
      const std::size_t series_count = layout_.series.size();
      std::vector<std::uint64_t> totals(series_count, 0);
      std::vector<std::vector<std::uint64_t>> bases(blocks.size(), std::vector<std::uint64_t>(series_count));
      for (std::size_t b = 0; b < blocks.size(); ++b) {
        bases[b] = totals;
        for (std::uint64_t i = blocks[b].begin; i < blocks[b].end; ++i) {
          for (std::size_t s = 0; s < series_count; ++s) totals[s] += results_[i].series[s].values.size();
        }
      }
      lay_out(totals);
      for (int r = 1; r < size_; ++r) {
        const WriteBlock& b = blocks[static_cast<std::size_t>(r)];
        std::string bytes;
        bytes.append(reinterpret_cast<const char*>(&failures), sizeof failures);
        bytes.append(reinterpret_cast<const char*>(bases[std::size_t(r)].data()), series_count * sizeof(std::uint64_t));
        for (std::uint64_t i = b.begin; i < b.end; ++i) encode(results_[i], bytes);
        send_bytes(bytes, r, kBlock, comm_);
      }
      mine.series_base = bases[0];
      block_results.assign(std::make_move_iterator(results_.begin() + std::ptrdiff_t(mine.begin)),
                           std::make_move_iterator(results_.begin() + std::ptrdiff_t(mine.end)));
    } else {
      const std::string bytes = receive_bytes(0, kBlock, comm_);
      std::string_view in = bytes;
      std::memcpy(&failures, in.data(), sizeof failures);
      in.remove_prefix(sizeof failures);
      mine.series_base.resize(layout_.series.size());
      std::memcpy(mine.series_base.data(), in.data(), mine.series_base.size() * sizeof(std::uint64_t));
      in.remove_prefix(mine.series_base.size() * sizeof(std::uint64_t));
      block_results = decode_results(in);
    }
    write_result_block(options_.output, comm_, file_layout(), mine, block_results);
    if (rank_ == 0) {
      journal_.reset();
      fs::remove(journal_path(options_.output));
      // The block results were moved out; bring rank 0's back for the summary's bookkeeping.
      std::move(block_results.begin(), block_results.end(), results_.begin() + std::ptrdiff_t(mine.begin));
      summarize(run_s, failures);
    }
    return failures > 0 ? 1 : 0;
  }

  void summarize(double run_s, int failures) {
    double point_s = 0;
    for (const PointResult& r : results_) point_s += r.wall_s;
    const std::uint64_t n = grid_->size();
    out_ << "dcsweep: wrote " << options_.output << "\n"
         << "  " << n << " points: " << n - std::uint64_t(failures) << " ok, " << failures << " failed";
    if (resumed_ > 0) out_ << " (" << resumed_ << " recovered from the journal)";
    out_ << "; " << size_ << (size_ == 1 ? " rank, " : " ranks, ") << format_number(std::round(run_s * 100) / 100)
         << " s (sum of point times " << format_number(std::round(point_s * 100) / 100) << " s)\n  dims: ";
    for (const Axis& axis : spec_.axes) out_ << axis.name << "[" << axis.size() << "] x ";
    out_ << "replicate[" << spec_.replicates << "]\n";
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
  SweepSpec spec_;
  std::optional<Grid> grid_;
  ResultLayout layout_;
  TraceLoader loader_;
  // rank 0 only
  std::vector<double> costs_;
  std::vector<PointResult> results_;
  std::optional<Journal> journal_;
  std::string created_;
  std::uint64_t resumed_ = 0;
  int complete_failures_ = 0;
};

}  // namespace

int run_sweep(const RunOptions& options, MPI_Comm comm, std::ostream& out, std::ostream& err) {
  return SweepRun(options, comm, out, err).run();
}

}  // namespace dcsweep
