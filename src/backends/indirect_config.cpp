// The indirect engine's settings file (slurm.yaml): see indirect_backend.h for the keys.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "backends/indirect_backend.h"
#include "core/duration.h"
#include "core/setting_doc.h"
#include "core/size.h"
#include "core/yaml_file.h"

namespace yard {
namespace {

// classes: NAME: BACKEND, or NAME: {backend: B, partition: P, account: A, qos: Q, time: T,
//                                   job_types: [T, ...], requeue: true|false}
Status load_classes(const YAML::Node& n, const std::string& path, JobClasses& out) {
  auto at = [&](const YAML::Node& x) { return yaml_where(path, x) + ": "; };
  if (n.IsNull()) return {};
  if (!n.IsMap()) return err(at(n) + "classes: expected a mapping of class names to backends");
  for (auto it : n) {
    const std::string name = it.first.as<std::string>();
    if (name.empty() || name.find_first_of(" \t,:") != std::string::npos)
      return err(at(it.first) + "classes: bad class name '" + name + "'");
    JobClass c;
    const YAML::Node& v = it.second;
    if (v.IsScalar()) {
      c.backend = v.as<std::string>();
    } else if (v.IsMap()) {
      for (auto kv : v) {
        const std::string key = kv.first.as<std::string>();
        if (key == "job_types") {
          const YAML::Node& types = kv.second;
          if (!types.IsSequence())
            return err(at(types) + "classes: " + name + ": job_types: expected a list such as [besteffort]");
          for (auto t : types) {
            if (!t.IsScalar()) return err(at(t) + "classes: " + name + ": job_types: expected a job type");
            c.job_types.push_back(t.as<std::string>());
          }
          continue;
        }
        if (!kv.second.IsScalar())
          return err(at(kv.second) + "classes: " + name + ": " + key + ": expected a value");
        const std::string value = kv.second.as<std::string>();
        if (key == "backend") c.backend = value;
        else if (key == "partition") c.partition = value;
        else if (key == "account") c.account = value;
        else if (key == "qos") c.qos = value;
        else if (key == "requeue") {
          if (value != "true" && value != "false")
            return err(at(kv.second) + "classes: " + name + ": requeue: expected true or false, got '" + value + "'");
          c.requeue = value == "true";
        }
        else if (key == "time") {
          auto t = parse_walltime(value);
          if (!t) return err(at(kv.second) + "classes: " + name + ": time: " + t.error());
          c.walltime_s = *t;
        } else {
          return err(at(kv.first) + "classes: " + name + ": unknown key '" + key +
                     "' (known: backend, partition, account, qos, time, job_types, requeue)");
        }
      }
    } else {
      return err(at(v) + "classes: " + name + ": expected a backend or a mapping with backend:");
    }
    // Any backend the daemon has: which those are is known once they are all opened, and a
    // job naming a class whose backend is not among them is refused, naming both.
    if (c.backend.empty())
      return err(at(v) + "classes: " + name + ": no backend (backend: the one its jobs run on, such as local)");
    out[name] = c;
  }
  return {};
}

// pilot: {partition: P, account: A, qos: Q, nodes: N, cpus: C, mem: M, gpus: G, time: T}
Status load_pilot(const YAML::Node& n, const std::string& path, PilotSpec& p) {
  auto at = [&](const YAML::Node& x) { return yaml_where(path, x) + ": "; };
  if (!n.IsMap()) return err(at(n) + "pilot: expected a mapping (partition, nodes, cpus, mem, gpus, time, ...)");
  for (auto kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (!kv.second.IsScalar()) return err(at(kv.second) + "pilot: " + key + ": expected a value");
    const std::string value = kv.second.as<std::string>();
    auto count = [&](int& slot, int min) -> Status {
      try {
        slot = kv.second.as<int>();
      } catch (const std::exception&) {
        slot = min - 1;
      }
      if (slot < min)
        return err(at(kv.second) + "pilot: " + key + ": expected a whole number >= " + std::to_string(min) +
                   ", got '" + value + "'");
      return {};
    };
    Status s;
    if (key == "partition") p.partition = value;
    else if (key == "account") p.account = value;
    else if (key == "qos") p.qos = value;
    else if (key == "nodes") s = count(p.nodes, 1);
    else if (key == "cpus") s = count(p.cpus, 1);
    else if (key == "gpus") s = count(p.gpus, 0);
    else if (key == "mem") {
      auto m = parse_memory_size(value);
      if (!m) return err(at(kv.second) + "pilot: mem: " + m.error());
      p.mem_bytes = *m;
    } else if (key == "time") {
      auto t = parse_walltime(value);
      if (!t) return err(at(kv.second) + "pilot: time: " + t.error());
      p.walltime_s = *t;
    } else {
      return err(at(kv.first) + "pilot: unknown key '" + key +
                 "' (known: partition, account, qos, nodes, cpus, mem, gpus, time)");
    }
    if (!s) return s;
  }
  if (p.cpus < p.nodes)
    return err(at(n) + "pilot: cpus (" + std::to_string(p.cpus) + ") must be at least nodes (" +
               std::to_string(p.nodes) + ")");
  return {};
}

}  // namespace

Result<double> parse_rate(std::string_view text) {
  const std::string t(text);
  auto bad = [&] {
    return err("expected calls per second, minute or hour such as 10/min, 2/s, 100/h or 5/30s, got '" + t + "'");
  };
  const auto slash = t.find('/');
  double count = 0;
  std::size_t used = 0;
  try {
    count = std::stod(t.substr(0, slash), &used);
  } catch (const std::exception&) {
    return bad();
  }
  if (used != std::min(slash, t.size()) || !(count > 0)) return bad();
  if (slash == std::string::npos) return count;
  std::string per = t.substr(slash + 1);
  double span = 1;
  if (!per.empty() && (std::isdigit(static_cast<unsigned char>(per[0])) || per[0] == '.')) {
    try {
      span = std::stod(per, &used);
    } catch (const std::exception&) {
      return bad();
    }
    per = per.substr(used);
    if (!(span > 0)) return bad();
  }
  double unit = 0;
  if (per == "s" || per == "sec" || per == "second") unit = 1;
  else if (per == "m" || per == "min" || per == "minute") unit = 60;
  else if (per == "h" || per == "hour") unit = 3600;
  else return bad();
  return count / (span * unit);
}

std::string format_rate(double per_second) {
  auto words = [](double n, const char* per) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g per %s", n, per);
    return std::string(buf);
  };
  if (per_second >= 1) return words(per_second, "second");
  if (per_second * 60 >= 1) return words(per_second * 60, "minute");
  return words(per_second * 3600, "hour");
}

Result<IndirectConfig> load_indirect_config(const std::string& path, const std::vector<std::string>& scheduler_keys) {
  IndirectConfig c;
  bool has_pilot = false;
  if (!std::filesystem::exists(path)) return c;
  auto loaded = load_yaml(path);
  if (!loaded) return Error{loaded.failure()};
  try {
    const YAML::Node n = *loaded;
    if (!n || n.IsNull()) return c;
    if (!n.IsMap()) return err(path + ": expected a mapping of settings");
    for (auto it : n) {
      const std::string key = it.first.as<std::string>();
      const std::string where = yaml_where(path, it.second) + ": ";
      if (std::find(scheduler_keys.begin(), scheduler_keys.end(), key) != scheduler_keys.end()) {
        if (!it.second.IsScalar()) return err(where + key + ": expected a value");
        c.scheduler_settings[key] = it.second.as<std::string>();
        continue;
      }
      if (key == "allocation") {
        c.allocation = it.second.as<std::string>("");
        if (c.allocation != "pilot" &&
            (c.allocation.empty() || c.allocation.find_first_not_of("0123456789") != std::string::npos))
          return err(where + "allocation: expected a job id (digits) or 'pilot', got '" + c.allocation + "'");
        continue;
      }
      if (key == "pilot") {
        if (auto s = load_pilot(it.second, path, c.pilot); !s) return s.failure();
        has_pilot = true;
        continue;
      }
      if (key == "classes") {
        if (auto s = load_classes(it.second, path, c.classes); !s) return s.failure();
        continue;
      }
      if (key == "submit_rate") {
        auto r = parse_rate(it.second.as<std::string>(""));
        if (!r) return err(where + "submit_rate: " + r.error());
        c.submits_per_second = *r;
        continue;
      }
      if (key == "max_queued") {
        try {
          c.max_queued = it.second.as<int>();
        } catch (const std::exception&) {
          c.max_queued = 0;
        }
        if (c.max_queued < 1)
          return err(where + "max_queued: expected a number of jobs >= 1, got '" + it.second.as<std::string>("?") + "'");
        continue;
      }
      if (key == "max_array_size") {
        try {
          c.max_array_size = it.second.as<std::int64_t>();
        } catch (const std::exception&) {
          c.max_array_size = 0;
        }
        if (c.max_array_size < 1)
          return err(where + "max_array_size: expected a number of elements >= 1, got '" +
                     it.second.as<std::string>("?") + "'");
        continue;
      }
      if (key == "job_limit") {
        try {
          c.step_job_limit = it.second.as<int>();
        } catch (const std::exception&) {
          c.step_job_limit = -1;
        }
        if (c.step_job_limit < 0)
          return err(where + "job_limit: expected a number of steps >= 0, got '" + it.second.as<std::string>("?") + "'");
        continue;
      }
      double* slot = key == "poll_interval"      ? &c.poll_interval_s
                     : key == "calls_per_second" ? &c.calls_per_second
                     : key == "burst"            ? &c.burst
                     : key == "command_timeout"  ? &c.command_timeout_s
                     : key == "retry_max"        ? &c.retry_max_s
                     : key == "lost_after"       ? &c.lost_after_s
                     : key == "cancel_resend"    ? &c.cancel_resend_s
                     : key == "down_after_failures" ? &c.down_after_failures
                     : key == "down_after"       ? &c.down_after_s
                                                 : nullptr;
      if (!slot) {
        std::string known = setting_names(kClusterSettings);
        for (auto& k : scheduler_keys) known += ", " + k;
        return err(yaml_where(path, it.first) + ": unknown setting '" + key + "' (known: " + known + ")");
      }
      double v = 0;
      try {
        v = it.second.as<double>();
      } catch (const std::exception&) {
        return err(yaml_where(path, it.second) + ": " + key +
                   ": expected a number of seconds (or calls), got '" + it.second.as<std::string>("?") + "'");
      }
      if (v < 0 || (v == 0 && key != "calls_per_second"))
        return err(yaml_where(path, it.second) + ": " + key + " must be > 0");
      *slot = v;
    }
  } catch (const YAML::Exception& e) {
    return err(yaml_error(path, e));
  }
  if (c.allocation == "pilot" && !has_pilot)
    return err(path + ": allocation: pilot needs a pilot: map of what to ask for (partition, nodes, cpus, mem, "
                      "gpus, time, account, qos)");
  if (c.allocation != "pilot" && has_pilot)
    return err(path + ": pilot: is only used with allocation: pilot (allocation is '" + c.allocation + "')");
  return c;
}

}  // namespace yard
