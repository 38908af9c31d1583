#include "dcsweep/sim/job_events.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/core/int_runs.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {

JobEventLog::JobEventLog(const Platform& platform, const NodePowerTable* power) : platform_(platform) {
  if (power) power_ = *power;
  caps_ = power_ &&
          std::any_of(power_->begin(), power_->end(), [](const TypePower& t) { return !std::isnan(t.cap_offset_w); });
}

const TypePower& JobEventLog::type_power(std::int32_t node) const {
  return (*power_)[platform_.node_type.empty() ? 0 : platform_.node_type[std::size_t(node)]];
}

void JobEventLog::add(double time_s, const char* event, const Placement& p, bool running) {
  rows_ += format_number(time_s) + ',' + event + ',' + std::to_string(p.job.id) + ',' + std::to_string(p.nodes.size()) +
           ',' + runs_text(p.nodes) + ',';
  if (caps_ && !p.nodes.empty()) {
    const TypePower& t = type_power(p.nodes.front());
    // Without a cap of its own a job runs at the model's default one (its busy power).
    rows_ += format_number(std::isnan(p.config.cpu_cap_w) ? t.busy_w - t.cap_offset_w : p.config.cpu_cap_w);
  }
  rows_ += ',';
  if (power_) {
    double watts = 0;
    if (running) {
      for (const NodeId n : p.nodes) watts += busy_power_w(type_power(n), p.config, p.comm_stretch);
    }
    rows_ += format_number(watts);
  }
  rows_ += '\n';
}

}  // namespace dcsweep
