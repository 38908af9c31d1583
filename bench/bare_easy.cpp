// Baseline for the engine benchmark: the least a program can do to run textbook EASY over an SWF
// trace: decompress, parse the four fields it needs, and schedule node *counts* (no node sets,
// no allocator, no plug-ins, no metrics). dcsweep's end-to-end time is quoted as a ratio to this.
// usage: bare_easy TRACE.swf[.gz] CORES_PER_NODE NODES
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <queue>
#include <set>
#include <string>
#include <vector>

namespace {

struct BareJob {
  double submit, runtime, estimate;
  long nodes;
};

std::vector<BareJob> read_jobs(const char* path, long cores) {
  gzFile f = gzopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "bare_easy: error: %s: cannot open\n", path);
    std::exit(2);
  }
  std::vector<BareJob> jobs;
  char line[4096];
  while (gzgets(f, line, sizeof line)) {
    if (line[0] == ';' || line[0] == '\n') continue;
    double v[9];
    char* p = line;
    for (double& x : v) x = std::strtod(p, &p);
    const long procs = v[4] > 0 ? long(v[4]) : long(v[7]);
    if (v[1] < 0 || v[3] <= 0 || procs <= 0) continue;
    jobs.push_back({v[1], v[3], v[8] > 0 ? v[8] : v[3], (procs + cores - 1) / cores});
  }
  gzclose(f);
  return jobs;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: bare_easy TRACE.swf[.gz] CORES_PER_NODE NODES\n");
    return 2;
  }
  std::vector<BareJob> jobs = read_jobs(argv[1], std::atol(argv[2]));
  const long total = std::atol(argv[3]);
  long free = total;
  using End = std::pair<double, std::size_t>;
  std::priority_queue<End, std::vector<End>, std::greater<>> ends;
  std::set<End> running;  // by estimated end
  std::deque<std::size_t> queue;
  std::vector<double> start(jobs.size());
  std::size_t next = 0;
  double checksum = 0;
  auto run = [&](std::size_t j, double now) {
    free -= jobs[j].nodes;
    start[j] = now;
    ends.push({now + std::min(jobs[j].runtime, jobs[j].estimate), j});
    running.insert({now + jobs[j].estimate, j});
    checksum += now;
  };
  while (next < jobs.size() || !ends.empty()) {
    const double now = std::min(ends.empty() ? 1e300 : ends.top().first, next < jobs.size() ? jobs[next].submit : 1e300);
    while (!ends.empty() && ends.top().first == now) {
      const std::size_t j = ends.top().second;
      ends.pop();
      free += jobs[j].nodes;
      running.erase({start[j] + jobs[j].estimate, j});
    }
    while (next < jobs.size() && jobs[next].submit == now) queue.push_back(next++);
    while (!queue.empty() && jobs[queue.front()].nodes <= free) {
      run(queue.front(), now);
      queue.pop_front();
    }
    if (queue.size() < 2 || free == 0) continue;
    long avail = free;
    double shadow = now;
    for (const End& e : running) {
      if (avail >= jobs[queue.front()].nodes && e.first > shadow) break;
      avail += jobs[e.second].nodes;
      shadow = e.first;
    }
    long extra = avail - jobs[queue.front()].nodes;
    for (auto it = queue.begin() + 1; it != queue.end() && free > 0;) {
      const BareJob& b = jobs[*it];
      const bool short_enough = now + b.estimate <= shadow;
      if (b.nodes <= free && (short_enough || b.nodes <= extra)) {
        if (!short_enough) extra -= b.nodes;
        run(*it, now);
        it = queue.erase(it);
      } else {
        ++it;
      }
    }
  }
  std::printf("%zu jobs, checksum %.0f\n", jobs.size(), checksum);
  return 0;
}
