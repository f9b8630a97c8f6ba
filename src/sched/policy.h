// Backfilling policies as data: one algorithm (backfill.h) with a reservation depth and an
// order in which jobs behind the reserved ones are tried.
//   depth 0         strict order (fcfs): the pass stops at the first job that cannot start
//   depth 1         EASY: the first blocked job gets a reservation, later ones backfill
//   depth unlimited conservative: every waiting job holds a reservation from its
//                   submission on, moved only earlier when running jobs end early
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace yard::sched {

enum class BackfillOrder {
  kQueue,             // queue order
  kShortestEstimate,  // shortest estimate first, ties in queue order (SJBF)
};

struct Policy {
  static constexpr int kUnlimited = -1;

  int depth = 1;
  BackfillOrder order = BackfillOrder::kQueue;

  bool unlimited() const { return depth == kUnlimited; }

  static Policy fcfs() { return {0, BackfillOrder::kQueue}; }
  static Policy easy() { return {1, BackfillOrder::kQueue}; }
  static Policy conservative() { return {kUnlimited, BackfillOrder::kQueue}; }
  static Policy sjbf() { return {1, BackfillOrder::kShortestEstimate}; }
};

// "fcfs", "easy", "conservative", "sjbf"; nullopt for any other name.
std::optional<Policy> policy_by_name(std::string_view name);
// The accepted names, for messages: "fcfs|easy|conservative|sjbf".
std::string policy_names();

}  // namespace yard::sched
