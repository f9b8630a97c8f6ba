// policy.yaml's keys, each with what it means and its default (core/setting_doc.h): the
// reader (policy_config.cpp) refuses a key that is not in its table, naming the ones
// there are, and the reference (docs/reference/settings.md) is written from the same
// tables. A nested key is named as its table's heading says (weights.age, tiers[].name).
#pragma once

#include "core/setting_doc.h"

namespace yard::sched {

inline constexpr SettingDoc kPolicyKeys[] = {
    {"reservation_depth", "0 strict priority order, 1 EASY backfilling, N, or unlimited (every blocked job holds a "
                          "reservation)", "1"},
    {"backfill_order", "queue, or shortest (the shortest estimate first behind the reservations)", "queue"},
    {"weights", "the priority factors' weights: a mapping (below), numbers >= 0", "all 0"},
    {"fairshare", "fair-share's decay: a mapping (below)", ""},
    {"age", "the age factor: a mapping (below)", ""},
    {"tiers", "a list of tiers (below); a larger priority runs first", ""},
    {"accounts", "a list of accounts (below)", ""},
    {"pools", "a list of resource pools (below: partitions, modules; docs/SCHEDULING.md, Cluster model)",
     "one pool, the machine"},
    {"account_from", "the simulator's account of a trace's job: user (SWF field 12), group (13) or queue (15)", "user"},
    {"account_map", "the simulator's {trace id: account}", ""},
    {"default_account", "the simulator's account for ids not in the map; the engine's tier for accounts not listed; "
                        "the local backend's account of a job submitted without -A", ""},
    {"default_walltime", "the local backend's estimate of a job submitted without -t (never enforced): a duration "
                         "such as 7d, 12h, 30m, 45s or a walltime", "1h"},
    {"max_jobs_per_pass", "the local backend's pass considers the first N queued jobs in priority order (as Slurm's "
                          "bf_max_job_test) when the policy weighs nothing but --priority; 0: all", "500"},
};

inline constexpr SettingDoc kPolicyWeightKeys[] = {
    {"tier", "the weight of the job's tier priority", "0"},
    {"age", "the weight of the time it has waited (up to age.max)", "0"},
    {"fairshare", "the weight of its account's fair-share", "0"},
    {"size", "the weight of its size", "0"},
};

inline constexpr SettingDoc kPolicyFairshareKeys[] = {
    {"half_life", "how fast past usage decays: a duration (7d, 12h, a walltime); 0: no decay", "7d"},
};

inline constexpr SettingDoc kPolicyAgeKeys[] = {
    {"max", "the wait after which the age factor is 1: a duration", "7d"},
};

inline constexpr SettingDoc kPolicyTierKeys[] = {
    {"name", "the tier's name, once", ""},
    {"priority", "a number: a larger one runs first", ""},
    {"best_effort", "true: its jobs may be preempted by other tiers'", "false"},
};

inline constexpr SettingDoc kPolicyAccountKeys[] = {
    {"name", "the account's name, once", ""},
    {"tier", "the tier its jobs are in (one of tiers:)", ""},
    {"share", "its share of the machine for fair-share", "0"},
    {"allocation_core_hours", "its allocation: core-hours it may use in all", "none"},
};

inline constexpr SettingDoc kPolicyPoolKeys[] = {
    {"name", "the pool's name, once", ""},
    {"procs", "its processors, for a pool without nodes", ""},
    {"nodes", "its nodes", ""},
    {"cores_per_node", "cores on each node", ""},
    {"memory_per_node", "memory on each node, a size as --mem takes it (256G)", "none"},
    {"gpus_per_node", "GPUs on each node", "0"},
};

}  // namespace yard::sched
