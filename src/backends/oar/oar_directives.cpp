#include "backends/oar/oar_directives.h"

#include <cstdlib>
#include <string>

#include "core/text.h"
#include "jobtext/directive_common.h"

namespace yard {
namespace {

long long count_of(std::string_view s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string_view::npos) return -1;
  return std::atoll(std::string(s).c_str());
}

// OAR's walltime: h, h:m or h:m:s; as sbatch's D-HH:MM:SS.
Result<std::string> oar_walltime(std::string_view v) {
  long long parts[3] = {0, 0, 0};
  int n = 0;
  for (std::string_view p : split(v, ':')) {
    if (n == 3 || count_of(p) < 0) return err("not a walltime");
    parts[n++] = count_of(p);
  }
  const long long total = parts[0] * 3600 + parts[1] * 60 + parts[2];
  if (total <= 0) return err("not a walltime");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", total / 86400, total / 3600 % 24, total / 60 % 60,
                total % 60);
  return std::string(buf);
}

const std::pair<std::string_view, std::string_view> kTags[] = {
    {"%jobid%", "%j"}, {"%jobname%", "%x"}, {"%arrayid%", "%A"}, {"%arrayindex%", "%a"}};

// OAR's output patterns as yard's.
std::string oar_path(std::string_view v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    bool tag = false;
    for (auto [t, pattern] : kTags)
      if (v.substr(i, t.size()) == t) {
        out += pattern;
        i += t.size() - 1;
        tag = true;
        break;
      }
    if (!tag) out += v[i] == '%' ? std::string("%%") : std::string(1, v[i]);
  }
  return out;
}

class Translator {
 public:
  explicit Translator(std::string_view origin) : origin_(origin) {}
  std::vector<std::string> warnings;

  Status line(int number, std::string_view opt, std::string_view value, std::vector<std::string>& out) {
    number_ = number;
    const std::string v(value);
    if (opt == "-l" || opt == "--resource") {
      if (resources_seen_++) {
        warn(std::string(opt), "another moldable alternative; yard takes the first");
        return {};
      }
      return resources(v, out);
    }
    if (opt == "-n" || opt == "--name") return push(out, "--job-name=" + v);
    if (opt == "-q" || opt == "--queue") return push(out, "--partition=" + v);
    if (opt == "-d" || opt == "--directory") return push(out, "--chdir=" + v);
    if (opt == "--project") return push(out, "--account=" + v);
    if (opt == "-O" || opt == "--stdout") return push(out, "--output=" + oar_path(v));
    if (opt == "-E" || opt == "--stderr") return push(out, "--error=" + oar_path(v));
    if (opt == "-a" || opt == "--anterior") {
      if (count_of(v) <= 0) return fail(std::string(opt) + " " + v + ": expected a job id");
      return push(out, "--dependency=afterany:" + v);  // OAR starts it however the other ended
    }
    if (opt == "--array") {
      if (count_of(v) <= 0) return fail("--array " + v + ": expected a number of jobs");
      return push(out, "--array=1-" + v);
    }
    if (opt == "--hold") return fail("--hold: a job submitted on hold is not supported");
    if (opt == "--array-param-file") return fail("--array-param-file: arrays of parameter lines are not supported");
    if (opt == "-s" || opt == "--stagein" || opt == "--stagein-md5sum") return fail(std::string(opt) + ": stage-in is not supported");
    if (opt == "-t" || opt == "--type") return push(out, "--job-type=" + v);
    if (opt == "-p" || opt == "--property" || opt == "--checkpoint" ||
        opt == "--notify" || opt == "--signal" || opt == "-k" || opt == "--use-job-key" ||
        opt == "-i" || opt == "--import-job-key-from-file" || opt == "--import-job-key-inline-priv" ||
        opt == "-e" || opt == "--export-job-key-to-file") {
      warn(std::string(opt), "no equivalent in yard; ignored");
      return {};
    }
    return fail("Not able to scan file line: " + std::string(opt) + (v.empty() ? "" : " " + v));
  }

 private:
  // "{prop}/nodes=2/core=4,walltime=1:00:00": levels multiply; hosts are nodes; GPUs
  // counted per host; every core a task (OAR_NODEFILE lists one line per core).
  Status resources(const std::string& text, std::vector<std::string>& out) {
    std::string_view spec = trim(text);
    std::string_view hierarchy = spec, walltime;
    if (auto comma = spec.find(",walltime="); comma != std::string_view::npos) {
      hierarchy = spec.substr(0, comma);
      walltime = spec.substr(comma + 10);
    } else if (starts_with(spec, "walltime=")) {
      hierarchy = {};
      walltime = spec.substr(9);
    }
    if (!hierarchy.empty() && hierarchy.front() == '{') {
      const auto close = hierarchy.find('}');
      if (close == std::string_view::npos) return fail("-l " + text + ": unclosed {property}");
      warn("-l {" + std::string(hierarchy.substr(1, close - 1)) + "}", "resource properties are not matched; ignored");
      hierarchy = hierarchy.substr(close + 1);
    }
    // Each level is counted within the one before: /nodes=2/gpu=2/core=4 is 4 cores of
    // each of 2 GPUs of each of 2 nodes (16 cores, 4 GPUs), as OAR reads it.
    long long hosts = 1, per_host = 1, gpus_per_host = 0;
    bool host_level = false, cores_given = false;
    for (std::string_view level : split(hierarchy, '/')) {
      if (level.empty()) continue;
      const auto eq = level.find('=');
      if (eq == std::string_view::npos) return fail("-l " + text + ": '" + std::string(level) + "' is not RESOURCE=N");
      const std::string name(level.substr(0, eq));
      const long long n = count_of(level.substr(eq + 1));
      if (n <= 0) return fail("-l " + text + ": " + std::string(level) + ": expected a number (ALL and BEST are not supported)");
      if (name == "nodes" || name == "host" || name == "network_address") {
        hosts = n;
        host_level = true;
      } else if (name == "cpu" || name == "core" || name == "resource_id" || name == "thread") {
        per_host *= n * (cores_given || gpus_per_host == 0 ? 1 : gpus_per_host);  // the cores of each GPU
        cores_given = true;
      } else if (name == "gpu" || name == "gpudevice") {
        gpus_per_host = n;
      } else {
        warn("-l /" + name, "a site's resource level yard does not know; ignored");
      }
    }
    if (host_level) out.push_back("--nodes=" + std::to_string(hosts));
    if (cores_given || host_level) out.push_back("--ntasks=" + std::to_string(hosts * per_host));
    if (gpus_per_host > 0) out.push_back("--gpus=" + std::to_string(hosts * gpus_per_host));
    if (!walltime.empty()) {
      auto t = oar_walltime(walltime);
      if (!t) return fail("-l " + text + ": walltime=" + std::string(walltime) + ": expected h, h:m or h:m:s");
      out.push_back("--time=" + *t);
    }
    return {};
  }

  static Status push(std::vector<std::string>& out, std::string word) {
    out.push_back(std::move(word));
    return {};
  }
  Status fail(const std::string& what) const {
    return err(std::string(origin_) + ":" + std::to_string(number_) + ": in #OAR directives: " + what);
  }
  void warn(const std::string& opt, const std::string& why) {
    warnings.push_back(std::string(origin_) + ":" + std::to_string(number_) + ": #OAR " + opt + ": " + why);
  }

  std::string_view origin_;
  int number_ = 0;
  int resources_seen_ = 0;
};

}  // namespace

const std::vector<std::string_view>& oar_path_words() {
  static const std::vector<std::string_view> words = [] {
    std::vector<std::string_view> out;
    for (auto [tag, pattern] : kTags) out.push_back(tag);
    return out;
  }();
  return words;
}

bool has_oar_directives(std::string_view script) {
  if (!starts_with(script, "#")) return false;
  for (std::string_view line : split(script, '\n'))
    if (starts_with(line, "#OAR") && line.size() > 4 && (line[4] == ' ' || line[4] == '\t')) return true;
  return false;
}

Result<TranslatedDirectives> read_oar_directives(std::string_view script, std::string_view origin) {
  TranslatedDirectives out;
  out.directives.has_shebang = starts_with(script, "#!");
  if (script.find('\0') != std::string_view::npos) return err(std::string(origin) + ": the script contains a NUL byte");
  if (!starts_with(script, "#")) return out;  // oarsub reads no directive then
  Translator t(origin);
  std::string body;  // the lines that are not #OAR directives
  int lineno = 0;
  for (std::string_view line : split(script, '\n')) {
    ++lineno;
    if (!line.empty() && line.back() == '\r')
      return err(std::string(origin) + ":" + std::to_string(lineno) +
                 ": DOS line break (\\r\\n); convert the script with dos2unix");
    if (lineno == 1 || !starts_with(line, "#OAR") || line.size() < 5 || (line[4] != ' ' && line[4] != '\t')) {
      body += std::string(line) + "\n";
      continue;
    }
    const std::string_view rest = trim(line.substr(4));
    const auto blank = rest.find_first_of(" \t");
    const std::string_view opt = rest.substr(0, blank);
    const std::string_view value = blank == std::string_view::npos ? std::string_view() : trim(rest.substr(blank));
    std::vector<std::string> translated;
    if (auto s = t.line(lineno, opt, value, translated); !s) return s.failure();
    if (translated.empty()) continue;
    out.directives.words.insert(out.directives.words.end(), translated.begin(), translated.end());
    out.directives.lines.push_back({lineno, 0, std::move(translated)});
  }
  out.warnings = std::move(t.warnings);
  directives::Messages m(origin, "#OAR");
  directives::warn_unset_variables(body, {"OAR_JOB_ID", "OAR_JOBID", "OAR_JOB_NAME", "OAR_ARRAY_ID", "OAR_ARRAY_INDEX",
      "OAR_NODEFILE", "OAR_FILE_NODES", "OAR_RESOURCE_FILE", "OAR_RESOURCE_PROPERTIES_FILE", "OAR_WORKDIR"},
      "yard's own are $YARD_JOB_ID, $YARD_JOB_NAME, $YARD_ARRAY_TASK_ID, $YARD_NTASKS", m);
  out.outside_warnings = std::move(m.outside);
  return out;
}

}  // namespace yard
