// routes.yaml's keys, each with what it means (core/setting_doc.h): the reader
// (routes.cpp) refuses a key that is not in its table, naming the ones there are, and the
// reference (docs/reference/settings.md) is written from the same tables.
#pragma once

#include "core/setting_doc.h"

namespace yard {

inline constexpr SettingDoc kRoutesKeys[] = {
    {"wishes", "a wish (what --backend names) -> a backend, or another wish", "a wish is the backend of its name"},
    {"classes", "size classes, smallest first: each one's limits (below); a job's class is its --class, else the "
                "first whose limits hold it", "none"},
    {"targets", "per backend: its queue for each class, an account, a QOS, drain, a fallback (below)", "none"},
};

// classes: NAME: {...}
inline constexpr SettingDoc kRouteClassLimits[] = {
    {"time", "the longest walltime a job of the class asks for (and the walltime of one that asks none)", "none"},
    {"cpus", "its CPUs in all at most", "none"},
    {"mem", "its memory in all at most, a size as --mem takes it", "none"},
};

// targets: BACKEND: {...}
inline constexpr SettingDoc kRouteTargetKeys[] = {
    {"queues", "each class's queue there ({small: short, large: long}): the job's partition", "none"},
    {"account", "the account of jobs that name none", "none"},
    {"qos", "the QOS of jobs that name none", "none"},
    {"drain", "true: no new jobs go there (they go to its fallback)", "false"},
    {"fallback", "the backend its new jobs go to while it is drained or down", "none"},
};

}  // namespace yard
