#include "routes/routes.h"
#include "routes/routes_keys.h"

#include <filesystem>
#include <set>

#include "core/duration.h"
#include "core/size.h"
#include "core/yaml_file.h"

namespace yard {
namespace {

struct Reader {
  const std::string& file;
  std::string at(const YAML::Node& n) const { return yaml_where(file, n) + ": "; }
  Result<std::string> scalar(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar() || n.as<std::string>().empty()) return err(at(n) + what + ": expected a name or value");
    return n.as<std::string>();
  }
};

Status read_wishes(const Reader& r, const YAML::Node& n, Routes& out) {
  if (!n.IsMap()) return err(r.at(n) + "wishes: expected a mapping of wishes to backends (WISH: BACKEND)");
  for (auto it : n) {
    auto wish = r.scalar(it.first, "wishes");
    if (!wish) return wish.failure();
    auto to = r.scalar(it.second, "wishes: " + *wish);
    if (!to) return to.failure();
    out.wishes[*wish] = *to;
    out.wish_where[*wish] = yaml_where(r.file, it.first);
  }
  return {};
}

Status read_classes(const Reader& r, const YAML::Node& n, Routes& out) {
  if (!n.IsMap()) return err(r.at(n) + "classes: expected a mapping of class names to limits (small: {time: 1:00:00})");
  for (auto it : n) {
    auto name = r.scalar(it.first, "classes");
    if (!name) return name.failure();
    SizeClass c;
    c.name = *name;
    c.where = yaml_where(r.file, it.first);
    const YAML::Node& limits = it.second;
    if (!limits.IsMap()) return err(r.at(limits) + "classes: " + c.name + ": expected limits such as {time: 1:00:00, cpus: 4, mem: 8G}");
    for (auto kv : limits) {
      const std::string key = kv.first.as<std::string>();
      if (!has_setting(kRouteClassLimits, key))
        return err(r.at(kv.first) + "classes: " + c.name + ": unknown limit '" + key + "' (" +
                   setting_names(kRouteClassLimits) + ")");
      auto value = r.scalar(kv.second, "classes: " + c.name + ": " + key);
      if (!value) return value.failure();
      const std::string where = r.at(kv.second) + "classes: " + c.name + ": " + key + ": ";
      if (key == "time") {
        auto t = parse_walltime(*value);
        if (!t || *t <= 0) return err(where + (t ? "expected a time above zero" : t.error()));
        c.time_s = *t;
      } else if (key == "cpus") {
        char* end = nullptr;
        const long long v = std::strtoll(value->c_str(), &end, 10);
        if (*end || v <= 0 || v > kMaxJobCount) return err(where + "expected a number of CPUs, got '" + *value + "'");
        c.cpus = v;
      } else {  // mem
        auto m = parse_memory_size(*value);
        if (!m || *m == 0) return err(where + (m ? "expected a size above zero" : m.error()));
        c.mem_bytes = *m;
      }
    }
    // The user's class of a name the site has replaces it where it stands.
    bool replaced = false;
    for (auto& known : out.classes)
      if (known.name == c.name) known = c, replaced = true;
    if (!replaced) out.classes.push_back(std::move(c));
  }
  return {};
}

Status read_targets(const Reader& r, const YAML::Node& n, Routes& out, const std::function<bool(const std::string&)>& is_backend) {
  if (!n.IsMap()) return err(r.at(n) + "targets: expected a mapping of backends to their queues, account and QOS");
  for (auto it : n) {
    auto backend = r.scalar(it.first, "targets");
    if (!backend) return backend.failure();
    if (!is_backend(*backend)) return err(r.at(it.first) + "targets: unknown backend '" + *backend + "'");
    RouteTarget& t = out.targets[*backend];
    t.where = yaml_where(r.file, it.first);
    if (!it.second.IsMap()) return err(r.at(it.second) + "targets: " + *backend + ": expected {queues: ..., account: ..., qos: ...}");
    for (auto kv : it.second) {
      const std::string key = kv.first.as<std::string>();
      if (!has_setting(kRouteTargetKeys, key))
        return err(r.at(kv.first) + "targets: " + *backend + ": unknown key '" + key + "' (" +
                   setting_names(kRouteTargetKeys) + ")");
      if (key == "queues") {
        if (!kv.second.IsMap()) return err(r.at(kv.second) + "targets: " + *backend + ": queues: expected class: queue pairs");
        for (auto q : kv.second) {
          auto cls = r.scalar(q.first, "queues"), queue = r.scalar(q.second, "queues");
          if (!cls) return cls.failure();
          if (!queue) return queue.failure();
          t.queues[*cls] = *queue;
          t.queue_where[*cls] = yaml_where(r.file, q.second);
        }
      } else if (key == "drain") {
        auto v = r.scalar(kv.second, "targets: " + *backend + ": drain");
        if (!v) return v.failure();
        if (*v != "true" && *v != "false")
          return err(r.at(kv.second) + "targets: " + *backend + ": drain: expected true or false, got '" + *v + "'");
        t.drain = *v == "true";
      } else if (key == "fallback") {
        auto v = r.scalar(kv.second, "targets: " + *backend + ": fallback");
        if (!v) return v.failure();
        if (!is_backend(*v)) return err(r.at(kv.second) + "targets: " + *backend + ": fallback: unknown backend '" + *v + "'");
        t.fallback = *v;
      } else {  // account, qos
        auto v = r.scalar(kv.second, "targets: " + *backend + ": " + key);
        if (!v) return v.failure();
        (key == "account" ? t.account : t.qos) = *v;
      }
    }
  }
  return {};
}

Status read_file(const std::string& file, Routes& out, const std::function<bool(const std::string&)>& is_backend) {
  auto doc = load_yaml(file);
  if (!doc) return doc.failure();
  if (doc->IsNull()) return {};
  const Reader r{file};
  if (!doc->IsMap()) return err(r.at(*doc) + "expected wishes:, classes: and targets:");
  try {
    for (auto it : *doc) {
      const std::string key = it.first.as<std::string>();
      Status s;
      if (!has_setting(kRoutesKeys, key))
        s = err(r.at(it.first) + "unknown key '" + key + "' (" + setting_names(kRoutesKeys) + ")");
      else if (key == "wishes") s = read_wishes(r, it.second, out);
      else if (key == "classes") s = read_classes(r, it.second, out);
      else s = read_targets(r, it.second, out, is_backend);
      if (!s) return s;
    }
  } catch (const YAML::Exception& e) {
    return err(yaml_error(file, e));
  }
  return {};
}

// The backend a wish leads to, or why none.
Result<std::string> follow(const Routes& routes, const std::string& wish, const std::function<bool(const std::string&)>& is_backend) {
  std::string at = wish;
  std::vector<std::string> path{wish};
  while (routes.wishes.count(at)) {
    const std::string& next = routes.wishes.at(at);
    if (next == at) return at;  // a backend routed to itself
    for (auto& seen : path)
      if (seen == next) {
        std::string loop;
        for (auto& p : path) loop += p + " -> ";
        return err(routes.wish_where.at(wish) + ": wishes: " + loop + next + " is a cycle");
      }
    path.push_back(next);
    at = next;
  }
  if (!is_backend(at))
    return err(routes.wish_where.at(path.size() > 1 ? path[path.size() - 2] : wish) + ": wishes: '" + at +
               "' is neither a backend nor a wish");
  return at;
}

// The fallbacks from `backend` on, as far as they go; a cycle among them is refused
// whatever is drained or down now, since any target may go down.
Result<std::vector<std::string>> fallback_chain(const Routes& routes, const std::string& backend) {
  std::vector<std::string> path{backend};
  for (;;) {
    auto t = routes.targets.find(path.back());
    if (t == routes.targets.end() || t->second.fallback.empty()) return path;
    for (auto& seen : path)
      if (seen == t->second.fallback) {
        std::string loop;
        for (auto& p : path) loop += p + " -> ";
        return err(t->second.where + ": targets: the fallbacks " + loop + seen + " are a cycle");
      }
    path.push_back(t->second.fallback);
  }
}

// Where a job for `backend` goes: it, or the fallback of a drained or down target (and
// on). A drained target without a fallback takes nothing; a down one keeps its jobs,
// which wait for it. `why` gets each step taken.
Result<std::string> open_target(const Routes& routes, const std::string& backend, const DownReason& down,
                                std::string* why = nullptr) {
  if (auto t = routes.targets.find(backend);  // the usual case, without building the chain
      (t == routes.targets.end() || !t->second.drain) && (!down || down(backend).empty()))
    return backend;
  auto chain = fallback_chain(routes, backend);
  if (!chain) return chain.failure();
  for (const auto& at : *chain) {
    auto t = routes.targets.find(at);
    const bool drained = t != routes.targets.end() && t->second.drain;
    const std::string is_down = down ? down(at) : std::string();
    if (!drained && is_down.empty()) return at;
    const bool last = at == chain->back();
    if (drained && last)
      return err("backend " + at + " is drained (" + t->second.where + ") and has no fallback: no new job goes there");
    if (last) {
      if (why) *why += std::string(why->empty() ? "" : "; ") + at + " is down (" + is_down + "), no fallback: the job waits for it";
      return at;
    }
    if (why)
      *why += std::string(why->empty() ? "" : "; ") + at + (drained ? " drained (" + t->second.where + ")" : " down (" + is_down + ")") +
              " -> " + t->second.fallback;
  }
  return backend;  // not reached: the chain's last target returns
}

// The first limit of `c` the job breaks ("time 2:00:00 > 1:00:00"), or "".
std::string broken(const SizeClass& c, const JobSpec& spec) {
  const std::int64_t cpus = spec.res.total_cpus();
  const std::uint64_t mem = spec.res.total_mem_bytes();
  if (c.time_s && spec.res.walltime_s > c.time_s)
    return "time " + format_walltime(spec.res.walltime_s) + " is above its " + format_walltime(c.time_s);
  if (c.cpus && cpus > c.cpus) return std::to_string(cpus) + " CPUs are above its " + std::to_string(c.cpus);
  if (c.mem_bytes && mem > c.mem_bytes) return "memory " + format_bytes(mem) + " is above its " + format_bytes(c.mem_bytes);
  return "";
}

}  // namespace

Result<Routes> load_routes(const std::vector<std::string>& files, const std::function<bool(const std::string&)>& is_backend) {
  Routes out;
  for (const auto& f : files) {
    std::error_code ec;
    if (!std::filesystem::exists(f, ec)) continue;
    if (auto s = read_file(f, out, is_backend); !s) return s.failure();
  }
  for (auto& [wish, to] : out.wishes)
    if (auto b = follow(out, wish, is_backend); !b) return b.failure();
  for (auto& [backend, t] : out.targets)
    if (auto chain = fallback_chain(out, backend); !chain) return chain.failure();
  for (auto& [backend, t] : out.targets)
    for (auto& [cls, queue] : t.queues)
      if (!is_size_class(out, cls))
        return err("targets: " + backend + ": queues: unknown class '" + cls + "' (classes: " + [&] {
                     std::string names;
                     for (auto& c : out.classes) names += (names.empty() ? "" : ", ") + c.name;
                     return names.empty() ? std::string("none") : names;
                   }() + ")");
  return out;
}

void retarget(const Routes& routes, JobSpec& spec, const std::string& from, const std::string& to) {
  static const RouteTarget kNone;
  auto f = routes.targets.find(from), t = routes.targets.find(to);
  const RouteTarget& was = f != routes.targets.end() ? f->second : kNone;
  const RouteTarget& goes = t != routes.targets.end() ? t->second : kNone;
  std::string cls;
  bool routed_queue = spec.partition.empty();
  for (const auto& [c, queue] : was.queues)
    if (!spec.partition.empty() && queue == spec.partition) {
      cls = c;
      routed_queue = true;
      break;
    }
  if (routed_queue) {
    if (cls.empty())
      for (const auto& c : routes.classes)
        if (broken(c, spec).empty()) {
          cls = c.name;
          break;
        }
    auto q = goes.queues.find(cls);
    spec.partition = q != goes.queues.end() ? q->second : "";
  }
  if (spec.account.empty() || (!was.account.empty() && spec.account == was.account)) spec.account = goes.account;
  if (spec.qos.empty() || (!was.qos.empty() && spec.qos == was.qos)) spec.qos = goes.qos;
}

nlohmann::json routes_json(const Routes& routes) {
  nlohmann::json j{{"wishes", nlohmann::json::array()}, {"classes", nlohmann::json::array()},
                   {"targets", nlohmann::json::array()}};
  for (const auto& [wish, to] : routes.wishes) {
    auto b = follow(routes, wish, [](const std::string&) { return true; });
    std::string backend = b ? *b : to;
    if (auto open = open_target(routes, backend, nullptr); open) backend = *open;
    j["wishes"].push_back({{"wish", wish}, {"to", to}, {"backend", backend}, {"where", routes.wish_where.at(wish)}});
  }
  for (const auto& c : routes.classes)
    j["classes"].push_back(
        {{"name", c.name}, {"time_s", c.time_s}, {"cpus", c.cpus}, {"mem_bytes", c.mem_bytes}, {"where", c.where}});
  for (const auto& [backend, t] : routes.targets)
    j["targets"].push_back({{"backend", backend},
                            {"queues", t.queues},
                            {"account", t.account},
                            {"qos", t.qos},
                            {"drain", t.drain},
                            {"fallback", t.fallback},
                            {"where", t.where}});
  return j;
}

bool is_size_class(const Routes& routes, const std::string& name) {
  for (auto& c : routes.classes)
    if (c.name == name) return true;
  return false;
}

Result<Route> route_job(const Routes& routes, JobSpec& spec, const std::string& job_class, const DownReason& down) {
  Route r;
  r.wish = spec.backend.empty() ? std::string(kDefaultBackend) : spec.backend;
  auto backend = follow(routes, r.wish, [](const std::string&) { return true; });
  if (!backend) return backend.failure();
  r.backend = *backend;
  if (r.backend != r.wish) r.why = "wish " + r.wish + " -> " + r.backend + " (" + routes.wish_where.at(r.wish) + ")";
  auto open = open_target(routes, r.backend, down, &r.why);
  if (!open) return open.failure();
  r.backend = *open;
  const SizeClass* cls = nullptr;
  if (!job_class.empty()) {
    for (auto& c : routes.classes)
      if (c.name == job_class) cls = &c;
    if (!cls) return err("unknown class '" + job_class + "'");
    if (auto b = broken(*cls, spec); !b.empty())
      return err("class " + cls->name + " (" + cls->where + "): the job's " + b);
  } else if (!routes.classes.empty()) {
    for (auto& c : routes.classes)
      if (broken(c, spec).empty()) {
        cls = &c;
        break;
      }
    if (!cls) {
      const SizeClass& largest = routes.classes.back();
      return err("no class holds this job: the largest, " + largest.name + " (" + largest.where + "): the job's " +
                 broken(largest, spec));
    }
  }
  spec.backend = r.backend;
  auto t = routes.targets.find(r.backend);
  if (cls) {
    r.size_class = cls->name;
    if (spec.res.walltime_s == 0) spec.res.walltime_s = cls->time_s;
    if (t != routes.targets.end())
      if (auto q = t->second.queues.find(cls->name); q != t->second.queues.end()) r.queue = q->second;
    r.why += std::string(r.why.empty() ? "" : "; ") + "class " + cls->name + " (" + cls->where + ")" +
             (r.queue.empty() ? "" : ": queue " + r.queue);
  }
  if (spec.partition.empty()) spec.partition = r.queue;
  if (t != routes.targets.end()) {
    if (spec.account.empty()) spec.account = t->second.account;
    if (spec.qos.empty()) spec.qos = t->second.qos;
  }
  return r;
}

}  // namespace yard
