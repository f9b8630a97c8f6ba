#include "sched/accounts.h"

#include <cmath>

namespace yard::sched {

Accounts Accounts::from_config(const PolicyConfig& config) {
  Accounts a(config.half_life);
  for (const AccountConfig& c : config.accounts) {
    a.set(c.name, c.share, c.allocation_core_hours * 3600.0);
  }
  return a;
}

const Accounts::Entry* Accounts::find(std::string_view name) const {
  for (const Entry& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

Accounts::Entry& Accounts::get(std::string_view name) {
  for (Entry& e : entries_) {
    if (e.name == name) return e;
  }
  entries_.push_back(Entry{std::string(name)});
  return entries_.back();
}

void Accounts::set(std::string_view name, double share, double allocation_core_seconds) {
  Entry& e = get(name);
  total_share_ += share - e.share;
  e.share = share;
  e.allocation = allocation_core_seconds;
}

double Accounts::decay(const Entry& e, Time now) const {
  if (half_life_ <= 0 || now == e.as_of || e.decayed == 0) return e.decayed;
  return e.decayed * std::exp2(-static_cast<double>(now - e.as_of) / static_cast<double>(half_life_));
}

void Accounts::charge(std::string_view account, double core_seconds, Time when) {
  Entry& e = get(account);
  e.decayed = decay(e, when) + core_seconds;
  e.as_of = when;
  e.used += core_seconds;
}

double Accounts::used(std::string_view account) const {
  const Entry* e = find(account);
  return e ? e->used : 0;
}

double Accounts::allocation(std::string_view account) const {
  const Entry* e = find(account);
  return e ? e->allocation : 0;
}

double Accounts::decayed_usage(std::string_view account, Time now) const {
  const Entry* e = find(account);
  return e ? decay(*e, now) : 0;
}

double Accounts::total_decayed(Time now) const {
  double total = 0;
  for (const Entry& e : entries_) total += decay(e, now);
  return total;
}

double Accounts::fairshare(const Entry* e, double total_usage, Time now) const {
  if (total_usage <= 0) return 1;  // nobody has used anything yet
  const double usage = e ? decay(*e, now) / total_usage : 0;
  if (e == nullptr || e->share <= 0 || total_share_ <= 0) return usage > 0 ? 0 : 1;
  const double share = e->share / total_share_;
  return std::exp2(-usage / share);
}

double Accounts::fairshare(std::string_view account, Time now) const {
  return fairshare(find(account), total_decayed(now), now);
}

std::vector<AccountStatus> Accounts::report(Time now) const {
  const double total = total_decayed(now);
  std::vector<AccountStatus> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) {
    out.push_back({e.name, e.share, e.allocation, e.used, e.allocation - e.used, decay(e, now),
                   fairshare(&e, total, now)});
  }
  return out;
}

}  // namespace yard::sched
