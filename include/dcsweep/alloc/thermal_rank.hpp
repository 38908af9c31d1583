#pragma once
// [P4]'s placement policies: static server rankings, a job takes the best-ranked free nodes.
//   lrh  Least Recirculated Heat ([P4] ref. 11): ascending by the heat a node's exhaust puts into
//        the room's inlets at full utilisation, colsum(D)_zone x P_full(node) (K: the sum of the
//        inlet rises it causes); ties by node id.
//   hts  Highest Thermostat Setting ([P4] Eq. 8, Alg. 1): descending by the high thermostat
//        setting the node's inlet allows with every node at full utilisation,
//        (T_red - (D P_full)_zone) / s_zone (Eq. 8's other terms are the same for every node);
//        the CRAC's setting then follows Eq. 6 after every start and end (cooling = thermostat,
//        thermostat_setting = highest: required).
// and consolidation:
//   mtdp Pakbaznia and Pedram's total-power minimisation ([P4] ref. 7): nodes chosen one at a
//        time, each the free node whose start leaves the least node + cooling power,
//        P_c + P_c / CoP(T_sup) with T_sup = min_i (T_red - rise_i) / s_i (the supply the redline
//        allows, CoP of [P0]); idle nodes are switched off and booted for waiting jobs
//        (consolidate(), alloc/allocator.hpp), the nodes cheapest to run alone on an idle room
//        kept on first. Boot time and energy: node_boot_s, node_boot_energy_j.
// Both rankings first group the nodes by power specification, the most efficient group first
// ([P4] Alg. 1's INITIALIZATION; every node type runs a job in the same time here, so the group
// with the lowest full-load power), and rank by their score within a group: on a heterogeneous
// room they differ only in where, within a type, a job goes (as [P4] compares them).
// Rankings use the default job configuration's busy power; on zoned rooms every node of a zone
// shares its zone's score.
#include <span>
#include <vector>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/core/params.hpp"
#include "dcsweep/thermal/room_view.hpp"

namespace dcsweep {

/// Per zone, the power of its nodes all busy (default configuration) or all idle.
Eigen::VectorXd zone_power_w(const RoomView& room, std::int32_t node_count, Eigen::Index zones, bool busy);

/// Per node, the score each ranking sorts by (needs room.thermal() and a D; InputError otherwise).
std::vector<double> lrh_scores(const RoomView& room, std::int32_t node_count);
std::vector<double> hts_scores(const RoomView& room, std::int32_t node_count);
/// Nodes best first: by group, then lrh ascending, hts descending by score; ties by node id.
std::vector<NodeId> lrh_order(const RoomView& room, std::int32_t node_count);
std::vector<NodeId> hts_order(const RoomView& room, std::int32_t node_count);

/// InputError unless hts can set the thermostat: cooling = thermostat, thermostat_setting = highest.
void hts_check_params(const ParamSet& params);

}  // namespace dcsweep
