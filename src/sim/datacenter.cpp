#include "dcsweep/sim/datacenter.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/utilization.hpp"

namespace dcsweep {

std::vector<ParamSpec> datacenter_params() {
  std::vector<ParamSpec> out{
      node_power_param(),
  };
  // The room's and its cooling's parameters are read on a platform with a room: every one but the
  // trace's machine (the cooling controllers' own, through `cooling`, then too).
  ParamReader with_room{"platform", {}};
  for (const std::string& name : platform_registry().names()) {
    if (name != "trace") with_room.values.push_back(name);
  }
  for (ParamSpec& s : room_params()) out.push_back(std::move(s));
  for (ParamSpec& s : cooling_params()) out.push_back(std::move(s));
  for (std::size_t k = 1; k < out.size(); ++k) {
    if (out[k].read_by.empty()) out[k].read_by = {with_room};
  }
  return out;
}

std::vector<MetricSpec> datacenter_metric_specs() {
  return {{"compute_energy_j", "J", "energy of the nodes (integral of their power)"},
          {"avg_compute_power_w", "W", "mean node power"},
          {"cooling_energy_j", "J", "energy of the cooling (integral of P_AC)"},
          {"avg_cooling_power_w", "W", "mean cooling power"},
          {"max_cooling_power_w", "W", "peak cooling power"},
          {"max_inlet_c", "C", "hottest inlet temperature over the run"},
          {"time_above_redline_s", "s", "time the hottest inlet was above redline_c"},
          {"avg_supply_temp_c", "C", "mean CRAC supply temperature"},
          {"time_supply_below_floor_s", "s",
           "time the CRAC supply was below supply_temp_min_c (colder than a real CRAC delivers)"},
          {"total_energy_j", "J", "compute plus cooling energy ([P4]); NaN without a cooling model"},
          {"avg_thermostat_high_c", "C", "time-average high thermostat setting (cooling thermostat)"},
          {"min_thermostat_high_c", "C",
           "lowest high thermostat setting over the run (cooling thermostat; what thermostat_setting = peak fixes)"},
          {"sp_eir", "",
           "[P4] Sec. IV: total energy over a lower bound on the optimal placement's, with the same start times "
           "(sim/sp_eir.hpp; cooling thermostat on a room with D, up to 2,048 zones)"},
          {"max_compute_power_w", "W",
           "peak of the nodes' total power (idle and off nodes included) over the run: what power_budget_w bounds"},
          {"max_total_power_w", "W", "peak of node plus cooling power over the run; NaN without a cooling model"}};
}

std::vector<SeriesSpec> datacenter_series_specs() {
  return {{"total_power_w", "W", "node plus cooling power, mean over each series_interval_s"},
          {"cooling_power_w", "W", "cooling power, mean over each series_interval_s"},
          {"max_inlet_c", "C", "hottest inlet temperature, maximum over each series_interval_s"}};
}

CoolingRoom cooling_room(const Platform& platform, const ParamSet& p, const NodePowerTable* power) {
  CoolingRoom room{platform.room.crac_airflow_m3s * platform.room.cracs, p.real("air_density_kg_m3"),
                   p.real("air_heat_capacity_j_kgk"), p.was_set("redline_c") ? p.real("redline_c") : platform.redline_c,
                   room_air_volume_m3(platform)};
  room.stated_low_extract_w = platform.room.crac_low_extract_w;
  room.stated_high_extract_w = platform.room.crac_high_extract_w;
  if (!power) return room;
  room.idle_power_w = room.peak_power_w = 0;
  for (std::int32_t n = 0; n < platform.node_count; ++n) {
    const TypePower& t = (*power)[platform.node_type.empty() ? 0 : platform.node_type[std::size_t(n)]];
    room.idle_power_w += t.idle_w;
    room.peak_power_w += t.busy_w;
  }
  return room;
}

bool thermal_enabled(const Scenario& s) {
  const std::string& model = s.params.text("thermal_model");
  if (model == "none") return false;
  if (model == "auto") return s.platform.has_room();
  if (!s.platform.has_room()) {
    throw InputError("thermal_model '" + model + "' needs a platform with a room; '" + s.platform.name + "' has none");
  }
  return true;
}

/// Fixed-width bins of simulated time for the physics series.
class DataCenterModel::Bins {
 public:
  explicit Bins(double interval_s) : interval_s_(interval_s) {}

  /// Values that hold over [t0, t1): mean-binned powers, max-binned inlet temperature.
  void add(double t0, double t1, double total_w, double cooling_w, double inlet_c) {
    if (t1 <= t0 || interval_s_ == 0) return;  // 0: no series asked for
    if (!started_) {
      first_ = static_cast<std::int64_t>(std::floor(t0 / interval_s_));
      started_ = true;
    }
    check_series_span(t1 - double(first_) * interval_s_, interval_s_);
    for (std::int64_t b = std::max(first_, static_cast<std::int64_t>(std::floor(t0 / interval_s_)));; ++b) {
      const double lo = std::max(t0, double(b) * interval_s_), hi = std::min(t1, double(b + 1) * interval_s_);
      if (lo >= t1) break;
      if (hi <= lo) continue;
      const auto i = static_cast<std::size_t>(b - first_);
      if (i >= covered_.size()) {
        covered_.resize(i + 1, 0.0);
        total_.resize(i + 1, 0.0);
        cooling_.resize(i + 1, 0.0);
        inlet_.resize(i + 1, -INFINITY);
      }
      const double dt = hi - lo;
      covered_[i] += dt;
      total_[i] += total_w * dt;
      cooling_[i] += cooling_w * dt;
      inlet_[i] = std::max(inlet_[i], inlet_c);
    }
  }

  void emit(Report& report, bool thermal) const {
    const auto specs = datacenter_series_specs();
    for (std::size_t k = 0; k < specs.size(); ++k) {
      Series s{specs[k].name, specs[k].unit, {}, {}};
      const bool has = k == 0 || thermal;
      for (std::size_t i = 0; has && i < covered_.size(); ++i) {
        if (covered_[i] <= 0) continue;
        s.times_s.push_back(double(first_ + std::int64_t(i)) * interval_s_);
        s.values.push_back(k == 0 ? total_[i] / covered_[i] : k == 1 ? cooling_[i] / covered_[i] : inlet_[i]);
      }
      report.series.push_back(std::move(s));
    }
  }

 private:
  double interval_s_;
  bool started_ = false;
  std::int64_t first_ = 0;
  std::vector<double> covered_, total_, cooling_, inlet_;
};

DataCenterModel::DataCenterModel(const Scenario& s, NodePowerTable power, HeatDistributionBuild heat)
    : platform_(s.platform),
      power_(std::move(power)),
      heat_(std::move(heat)),
      redline_c_(cooling_room(s.platform, s.params, nullptr).redline_c),
      off_w_(s.params.real("node_off_power_w")),
      boot_w_(s.params.real("node_boot_s") > 0 ? s.params.real("node_boot_energy_j") / s.params.real("node_boot_s") : 0),
      floor_c_(s.params.real("supply_temp_min_c")),
      bins_(std::make_unique<Bins>(s.params.real("series_interval_s"))) {
  for (const TypePower& t : power_) delta_w_.push_back(t.busy_w - t.idle_w);
  if (!platform_.node_type.empty()) {  // where each node's run of equal types ends
    type_run_end_.resize(platform_.node_type.size());
    for (std::size_t n = type_run_end_.size(); n-- > 0;) {
      const bool last = n + 1 == type_run_end_.size() || platform_.node_type[n + 1] != platform_.node_type[n];
      type_run_end_[n] = last ? std::int32_t(n + 1) : type_run_end_[n + 1];
    }
  }
  const std::int32_t zones = heat_.d          ? std::int32_t(heat_.d->size())
                             : heat_.crac_node ? std::int32_t(heat_.crac_node->zones())
                                               : platform_.node_count;
  const std::int32_t zone_nodes = heat_.zones ? heat_.zones->zone_nodes : 1;
  zone_dp_.assign(std::size_t(zones), 0.0);
  is_touched_.assign(std::size_t(zones), 0);
  // Every node starts idle: that power is the first change.
  for (std::int32_t n = 0; n < platform_.node_count; ++n) {
    const double idle = power_[platform_.node_type.empty() ? 0 : platform_.node_type[std::size_t(n)]].idle_w;
    compute_w_ += idle;
    if (thermal()) touch(std::size_t(n / zone_nodes), idle);
  }
  pending_ = true;
  if (thermal()) zone_power_w_ = Eigen::VectorXd::Zero(zones);
  if (heat_.d || heat_.crac_node) {
    if (heat_.d) inlet_ = std::make_unique<InletRise>(heat_.d);
    CoolingRoom room = cooling_room(platform_, s.params, &power_);
    const bool thermostat = s.params.text("cooling") == "thermostat";
    if (thermostat && s.params.text("thermostat_setting") == "worst_case") room.full_load = full_load();
    cooling_ = cooling_registry().at(s.params.text("cooling")).make({s.params, s.key}, room);
    if (thermostat && heat_.d && heat_.d->size() <= kSpEirMaxZones) start_sp_eir(s, room);
  }
}

/// Every node busy in the default configuration: the state thermostat_setting = worst_case plans for.
CoolingInput DataCenterModel::full_load() const {
  const std::int32_t zone_nodes = heat_.zones ? heat_.zones->zone_nodes : 1;
  Eigen::VectorXd zone_w = Eigen::VectorXd::Zero(Eigen::Index(zone_dp_.size()));
  double total = 0;
  for (std::int32_t n = 0; n < platform_.node_count; ++n) {
    const double busy = power_[type_of(n)].busy_w;
    zone_w(n / zone_nodes) += busy;
    total += busy;
  }
  const ThermalState state = thermal_state(heat_, zone_w);
  const double bound = heat_.supply_share ? supply_bound_c(heat_, state.rise_k, redline_c_) : NAN;
  return {total, state.rise_k.maxCoeff(), state.removed_heat_w, bound};
}

/// The bound's own CRAC: the same thermostat, its setting always Eq. 6's for the moment's bound.
void DataCenterModel::start_sp_eir(const Scenario& s, const CoolingRoom& room) {
  sp_bound_ = std::make_unique<SpEirBound>(platform_, power_, heat_, off_w_, redline_c_);
  ParamSet highest = s.params;
  highest.set("thermostat_setting", std::string("highest"));
  bound_cooling_ = cooling_registry().at("thermostat").make({highest, s.key}, room);
}

DataCenterModel::~DataCenterModel() = default;

void DataCenterModel::touch(std::size_t zone, double dp) {
  if (!is_touched_[zone]) {
    is_touched_[zone] = 1;
    touched_.push_back(std::int32_t(zone));
  }
  zone_dp_[zone] += dp;
}

void DataCenterModel::change_range(std::int32_t a, std::int32_t b, std::span<const double> delta_w, double sign) {
  const std::int32_t zone_nodes = heat_.zones ? heat_.zones->zone_nodes : 1;
  // nodes [lo, hi), all of one type: the same power change over the whole run.
  auto add_run = [&](std::int32_t lo, std::int32_t hi, double dp) {
    compute_w_ += dp * (hi - lo);
    if (!thermal()) return;
    if (zone_nodes == 1) {
      runs_.push_back({lo, hi, dp});  // node level: applied as is
      return;
    }
    for (std::int32_t z = lo / zone_nodes; z * zone_nodes < hi; ++z) {  // zones: aggregated first
      touch(std::size_t(z), dp * (std::min(hi, (z + 1) * zone_nodes) - std::max(lo, z * zone_nodes)));
    }
  };
  if (type_run_end_.empty()) return add_run(a, b, sign * delta_w.front());
  for (std::int32_t lo = a; lo < b;) {  // split where the node type changes
    const std::int32_t hi = std::min(b, type_run_end_[std::size_t(lo)]);
    add_run(lo, hi, sign * delta_w[platform_.node_type[std::size_t(lo)]]);
    lo = hi;
  }
}

void DataCenterModel::change(std::span<const NodeId> nodes, std::span<const double> delta_w, double sign) {
  pending_ = true;
  for_each_run(nodes, [&](NodeId a, NodeId b) { change_range(a, b, delta_w, sign); });
}

void DataCenterModel::change(const Placement& placement, std::span<const double> delta_w, double sign) {
  if (!placement.nodes.empty() || placement.runs.empty()) return change(placement.nodes, delta_w, sign);
  pending_ = true;
  for (const NodeRun& run : placement.runs) change_range(run.first, run.first + run.count, delta_w, sign);
}

/// Per node type, what a node of the placement draws above idle. The default configuration is the
/// precomputed table (the common case, and bit-identical to the model before configurations).
std::span<const double> DataCenterModel::job_delta(const Placement& p) {
  if (std::isnan(p.config.cpu_cap_w) && p.config.pstate < 0 && p.comm_stretch == 1.0) return delta_w_;
  scratch_delta_.clear();
  for (const TypePower& t : power_) scratch_delta_.push_back(dcsweep::busy_power_w(t, p.config, p.comm_stretch) - t.idle_w);
  return scratch_delta_;
}

void DataCenterModel::on_job_start(double, const Placement& placement) {
  change(placement, job_delta(placement), +1);
  busy_nodes_ += placement.node_count;
}

void DataCenterModel::on_job_end(double, const Placement& placement, bool) {
  change(placement, job_delta(placement), -1);
  busy_nodes_ -= placement.node_count;
}

void DataCenterModel::on_job_resize(double, const Placement& before, const Placement& after) {
  change(before, job_delta(before), -1);
  change(after, job_delta(after), +1);
  busy_nodes_ += after.node_count - before.node_count;
}

/// Above idle, per node type, in a power state: off draws node_off_power_w, booting the boot energy
/// spread over the boot time.
double DataCenterModel::state_delta(std::size_t type, NodeState state) const {
  const double idle = power_[type].idle_w;
  if (state == NodeState::off) return off_w_ - idle;
  if (state == NodeState::booting) return boot_w_ - idle;
  return 0.0;
}

void DataCenterModel::on_node_state(double, std::span<const NodeId> nodes, NodeState from, NodeState to) {
  scratch_delta_.clear();
  for (std::size_t t = 0; t < power_.size(); ++t) scratch_delta_.push_back(state_delta(t, to) - state_delta(t, from));
  change(nodes, scratch_delta_, +1);
  const auto count = std::int32_t(nodes.size());
  off_nodes_ += (to == NodeState::off ? count : 0) - (from == NodeState::off ? count : 0);
}

void DataCenterModel::settle() {
  if (!pending_) return;
  pending_ = false;
  if (!thermal()) return;
  apply_changes();
  const CoolingInput in = cooling_input();
  max_rise_k_ = in.max_rise_k;
  removed_heat_w_ = in.removed_heat_w;
  cooling_->update(last_s_, in);
  if (sp_bound_) {  // booting nodes count as on
    const MomentBound& m = sp_bound_->at(busy_nodes_, platform_.node_count - off_nodes_);
    bound_compute_w_ = m.compute_power_w;
    bound_cooling_->update(last_s_, {m.compute_power_w, NAN, NAN, m.supply_bound_c});
  }
}

CoolingInput DataCenterModel::cooling_input() {
  CoolingInput in{compute_w_, 0};
  if (heat_.crac_node) {
    const ThermalState state = thermal_state(heat_, zone_power_w_);
    in.max_rise_k = state.rise_k.maxCoeff();
    in.removed_heat_w = state.removed_heat_w;
    crac_rise_k_ = state.rise_k;
  } else {
    in.max_rise_k = inlet_->max();
  }
  if (heat_.supply_share) in.supply_bound_c = supply_bound_c(heat_, inlet_->rise(), redline_c_);
  return in;
}

double DataCenterModel::cooling_power_w() const {
  if (!cooling_) return 0;
  if (!thermal()) return cooling_->power_w();
  auto* self = const_cast<DataCenterModel*>(this);
  self->apply_changes();  // the changes of this very moment count
  return cooling_->power_for(self->cooling_input());
}

void DataCenterModel::apply_changes() {
  for (const Run& run : runs_) zone_power_w_.segment(run.begin, run.end - run.begin).array() += run.dp;
  for (const std::int32_t z : touched_) zone_power_w_(z) += zone_dp_[std::size_t(z)];
  if (inlet_) {
    for (const Run& run : runs_) inlet_->add(run.begin, run.end, run.dp);
  }
  runs_.clear();
  // Aggregated zones: InletRise merges the boundaries of neighbouring zones with the same change.
  if (inlet_) {
    for (const std::int32_t z : touched_) inlet_->add(z, z + 1, zone_dp_[std::size_t(z)]);
  }
  for (const std::int32_t z : touched_) {
    zone_dp_[std::size_t(z)] = 0;
    is_touched_[std::size_t(z)] = 0;
  }
  touched_.clear();
}

void DataCenterModel::advance_to(double time_s) {
  if (!started_) {
    started_ = true;
    start_s_ = last_s_ = time_s;
  }
  settle();  // the changes of the last time, before integrating up to this one
  const double dt = time_s - last_s_;
  if (dt <= 0) return;
  compute_j_ += compute_w_ * dt;
  peak_compute_w_ = std::isnan(peak_compute_w_) ? compute_w_ : std::max(peak_compute_w_, compute_w_);
  double cooling_w = 0, inlet_c = NAN;
  if (cooling_) {
    const CoolingInterval iv = cooling_->advance(time_s, redline_c_);
    cooling_j_ += iv.energy_j;
    cooling_w = iv.energy_j / dt;
    peak_cooling_w_ = std::max(peak_cooling_w_, iv.peak_power_w);
    // The node power holds over the interval, so the peak total is at the cooling's peak.
    const double total_w = compute_w_ + iv.peak_power_w;
    peak_total_w_ = std::isnan(peak_total_w_) ? total_w : std::max(peak_total_w_, total_w);
    // The hottest inlet at the interval's highest supply: s_i T_sup + rise_i with F ([P4] Eq. 1).
    inlet_c = heat_.supply_share ? (iv.max_supply_c * heat_.supply_share->array() + inlet_->rise().array()).maxCoeff()
                                 : iv.max_supply_c + max_rise_k_;
    max_inlet_c_ = std::max(max_inlet_c_, inlet_c);
    above_s_ += iv.time_above_s;
    supply_cs_ += iv.mean_supply_c * dt;
    below_floor_s_ += iv.time_below_floor_s;
    min_supply_c_ = std::min(min_supply_c_, iv.min_supply_c);
    max_supply_c_ = std::max(max_supply_c_, iv.max_supply_c);
    const double setting = cooling_->setting_c();
    setting_cs_ += setting * dt;
    min_setting_c_ = std::min(min_setting_c_, setting);
  }
  if (bound_cooling_) {
    bound_cooling_j_ += bound_cooling_->advance(time_s, redline_c_).energy_j;
    bound_compute_j_ += bound_compute_w_ * dt;
  }
  bins_->add(last_s_, time_s, compute_w_ + cooling_w, cooling_w, inlet_c);
  last_s_ = time_s;
}

const Eigen::VectorXd& DataCenterModel::zone_power_w() const {
  const_cast<DataCenterModel*>(this)->apply_changes();  // the changes of this very moment count
  return zone_power_w_;
}

const Eigen::VectorXd& DataCenterModel::inlet_rise_k() const {
  auto* self = const_cast<DataCenterModel*>(this);
  if (!thermal()) return zone_power_w_;  // empty
  self->apply_changes();
  if (inlet_) return self->inlet_->rise();
  self->crac_rise_k_ = thermal_state(heat_, zone_power_w_).rise_k;
  return crac_rise_k_;
}

double DataCenterModel::idle_power_w(std::int32_t node) const { return power_[type_of(node)].idle_w; }

double DataCenterModel::busy_power_w(std::int32_t node, const JobConfig& config) const {
  return dcsweep::busy_power_w(power_[type_of(node)], config);
}

std::int32_t DataCenterModel::zone_of(std::int32_t node) const {
  return node / (heat_.zones ? heat_.zones->zone_nodes : 1);
}

double DataCenterModel::supply_c() const { return cooling_ ? cooling_->supply_c() : NAN; }

double DataCenterModel::next_event_s() {
  if (!cooling_ || !started_) return INFINITY;
  settle();
  return std::min(cooling_->next_event_s(), bound_cooling_ ? bound_cooling_->next_event_s() : INFINITY);
}

void DataCenterModel::on_timer(double time_s) {
  settle();
  if (cooling_ && cooling_->next_event_s() <= time_s) cooling_->on_timer(time_s);
  if (bound_cooling_ && bound_cooling_->next_event_s() <= time_s) bound_cooling_->on_timer(time_s);
}

void DataCenterModel::report(double end_s, Report& report) {
  if (started_) advance_to(end_s);
  const double span = last_s_ - start_s_;
  const bool thermal = cooling_ != nullptr;
  const auto specs = datacenter_metric_specs();
  const double values[] = {compute_j_,
                           span > 0 ? compute_j_ / span : NAN,
                           thermal ? cooling_j_ : NAN,
                           thermal && span > 0 ? cooling_j_ / span : NAN,
                           thermal ? peak_cooling_w_ : NAN,
                           thermal && span > 0 ? max_inlet_c_ : NAN,
                           thermal ? above_s_ : NAN,
                           thermal && span > 0 ? supply_cs_ / span : NAN,
                           thermal ? below_floor_s_ : NAN,
                           thermal ? compute_j_ + cooling_j_ : NAN,
                           span > 0 ? setting_cs_ / span : NAN,  // NaN settings: not a thermostat
                           span > 0 && !std::isinf(min_setting_c_) ? min_setting_c_ : NAN,
                           bound_cooling_ && span > 0 ? (compute_j_ + cooling_j_) / (bound_compute_j_ + bound_cooling_j_)
                                                      : NAN,
                           peak_compute_w_,
                           thermal ? peak_total_w_ : NAN};
  for (std::size_t i = 0; i < specs.size(); ++i) report.add(specs[i], values[i]);
  bins_->emit(report, thermal);
  for (std::string& w : supply_warnings()) report.warnings.push_back(std::move(w));
}

/// Said once per run, at its end, with the extent of the problem.
std::vector<std::string> DataCenterModel::supply_warnings() const {
  std::vector<std::string> out;
  if (below_floor_s_ > 0) {
    out.push_back("the CRAC supply was below supply_temp_min_c = " + format_number(floor_c_) + " C for " +
                  format_number(std::round(below_floor_s_)) + " s of the run (down to " +
                  format_number(std::round(min_supply_c_ * 100) / 100) +
                  " C), colder than a real CRAC delivers; thermostat: lower crac_high_extract_w or raise "
                  "crac_airflow_m3s or the thermostat settings");
  }
  if (max_supply_c_ > redline_c_) {
    out.push_back("the CRAC supply reached " + format_number(std::round(max_supply_c_ * 100) / 100) +
                  " C, above redline_c = " + format_number(redline_c_) + " C" +
                  (heat_.supply_share ? std::string(", warmer than any inlet may be")
                                      : std::string(": every inlet was above the redline")));
  }
  return out;
}

std::unique_ptr<DataCenterModel> make_datacenter_model(const Scenario& s, const HeatProvider& heat) {
  auto power = make_node_power(s.params, s.platform, s.key);
  if (!power) return nullptr;
  HeatDistributionBuild build;
  if (thermal_enabled(s)) build = heat ? heat(s.platform, s.params) : build_heat_distribution(s.platform, s.params);
  return std::make_unique<DataCenterModel>(s, std::move(*power), std::move(build));
}

}  // namespace dcsweep
