#include "local/machine.h"

#include <hwloc.h>
#include <yaml-cpp/yaml.h>

#include <unistd.h>

#include <filesystem>

#include "core/setting_doc.h"
#include "core/size.h"
#include "core/yaml_file.h"

namespace yard {

std::string short_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  std::string name(buf);
  return name.substr(0, name.find('.'));
}

Result<Machine> detect_machine() {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return err("hwloc: cannot initialise the topology");
  hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return err("hwloc: cannot read the machine topology");
  }
  Machine m;
  const int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  for (int i = 0; i < n; ++i)
    m.pus.push_back(static_cast<int>(hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, static_cast<unsigned>(i))->os_index));
  m.cpus = n > 0 ? n : 1;
  hwloc_obj_t root = hwloc_get_root_obj(topo);
  m.mem_bytes = root->total_memory;
  // GPUs: CUDA/NVML/OpenCL co-processors and GPU OS devices; count distinct PCI parents.
  int gpus = 0;
  for (hwloc_obj_t o = hwloc_get_next_osdev(topo, nullptr); o; o = hwloc_get_next_osdev(topo, o))
    if (o->attr->osdev.type == HWLOC_OBJ_OSDEV_COPROC) ++gpus;
  m.gpus = gpus;
  hwloc_topology_destroy(topo);
  return m;
}

Result<Machine> load_machine(const std::string& config_path) {
  auto m = detect_machine();
  if (!m) return m;
  if (config_path.empty() || !std::filesystem::exists(config_path)) return m;
  auto loaded = load_yaml(config_path);
  if (!loaded) return Error{loaded.failure()};
  try {
    const YAML::Node c = *loaded;
    if (!c.IsMap() && !c.IsNull()) return err(config_path + ": expected a mapping of settings");
    auto int_key = [&](const char* key, int& out, int min) -> Status {
      if (!c[key]) return {};
      int v = c[key].as<int>();
      if (v < min) return err(yaml_where(config_path, c[key]) + ": '" + key + "' must be at least " + std::to_string(min));
      out = v;
      return {};
    };
    if (auto s = int_key("cpus", m->cpus, 1); !s) return s.failure();
    if (auto s = int_key("gpus", m->gpus, 0); !s) return s.failure();
    if (auto s = int_key("job_limit", m->job_limit, 0); !s) return s.failure();
    if (auto s = int_key("kill_grace", m->kill_grace_s, 0); !s) return s.failure();
    if (c["handoff_wait"]) {
      const double w = c["handoff_wait"].as<double>();
      if (!(w >= 0 && w <= 3600)) return err(yaml_where(config_path, c["handoff_wait"]) + ": 'handoff_wait' must be 0 to 3600 seconds");
      m->handoff_wait_s = w;
    }
    if (c["memory_limit"]) {
      const auto how = c["memory_limit"].as<std::string>();
      if (how != "cgroup" && how != "poll")
        return err(yaml_where(config_path, c["memory_limit"]) + ": memory_limit: '" + how + "' (accepted: cgroup, poll)");
      m->memory_poll = how == "poll";
    }
    if (c["memory"]) {
      auto mem = parse_memory_size(c["memory"].as<std::string>());
      if (!mem) return err(yaml_where(config_path, c["memory"]) + ": memory: " + mem.error());
      m->mem_bytes = *mem;
    }
    if (c["sendmail"]) {
      m->sendmail = c["sendmail"].as<std::string>();
      if (!m->sendmail.empty() && m->sendmail[0] != '/')
        return err(yaml_where(config_path, c["sendmail"]) + ": sendmail: '" + m->sendmail + "' is not an absolute path");
    }
    for (auto it = c.begin(); it != c.end(); ++it) {
      auto k = it->first.as<std::string>();
      if (!has_setting(kLocalSettings, k))
        return err(yaml_where(config_path, it->first) + ": unknown setting '" + k + "' (accepted: " +
                   setting_names(kLocalSettings) + ")");
    }
  } catch (const YAML::Exception& e) {
    return err(yaml_error(config_path, e));
  }
  return m;
}

}  // namespace yard
