#include "backends/lsf/lsf_directives.h"

#include "backends/lsf/bsub_options.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>

#include "core/text.h"
#include "jobtext/directive_common.h"

namespace yard {
namespace {

using directives::count;
using directives::kib;

// The text after "BSUB" when the line is a directive: '#', blanks, "BSUB", blanks, '-'.
std::optional<std::string_view> directive_text(std::string_view line) {
  std::string_view t = trim(line);
  if (t.empty() || t[0] != '#') return std::nullopt;
  t = trim(t.substr(1));
  if (!starts_with(t, "BSUB")) return std::nullopt;
  const std::string_view rest = trim(t.substr(4));
  if (rest.empty() || rest[0] != '-') return std::nullopt;
  return rest;
}

class Translator {
 public:
  Translator(std::string_view origin, std::string_view script, bool (*is_directory)(const std::string&))
      : m_(origin, "#BSUB"), script_(script), is_directory_(is_directory) {
    // Sizes without a unit: LSF_UNIT_FOR_LIMITS's unit (KB, MB, GB, ...), else MB.
    const char* unit = std::getenv("LSF_UNIT_FOR_LIMITS");
    const auto power = std::string("kmgtpe").find(unit && *unit ? to_lower(unit)[0] : 'm');
    unit_name_ = unit && *unit && power != std::string::npos ? unit : "MB";
    unit_ = std::pow(1024.0L, static_cast<long double>(power == std::string::npos ? 2 : power + 1));
  }
  directives::Messages m_;

  // One directive's words; its translation in `out`.
  Status line(const std::vector<std::string>& words, std::vector<std::string>& out) {
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::string opt = words[i], value;
      if (opt.size() < 2 || opt[0] != '-') return m_.fail("'" + opt + "' is not an option of bsub's");
      if (!lsf::with_value().count(opt) && !is_flag(opt) && std::string_view("nRWMqPJoewu").find(opt[1]) != std::string::npos) {
        value = opt.substr(2);  // -n4, -R"span[hosts=1]"
        opt.resize(2);
      } else if (lsf::with_value().count(opt)) {
        if (i + 1 >= words.size()) return m_.fail(opt + " option must have a value");
        value = words[++i];
      }
      if (auto s = option(opt, value, out); !s) return s;
    }
    return {};
  }

  // What combines across lines: tasks and hosts, memory, GPUs, the array, files, mail.
  // Each word in book_ at the line that gave it (`last`: the last directive line).
  void combined(int last) {
    auto put = [&](const char* what, std::string word) { book_.put(what, std::move(word), last); };
    if (tasks_ > 0) put("tasks", "--ntasks=" + std::to_string(tasks_));
    if (nodes_ > 0) put("nodes", "--nodes=" + std::to_string(nodes_));
    if (ptile_ > 0) put("ptile", "--ntasks-per-node=" + std::to_string(ptile_));
    if (limit_kib_ > 0 || host_kib_ > 0) put(limit_kib_ >= host_kib_ ? "limit" : "rusage", "--mem=" + kib(std::max(limit_kib_, host_kib_)));
    else if (task_kib_ > 0) put("rusage", "--mem-per-cpu=" + kib(task_kib_));
    if (gpus_ > 0) {
      const long long tasks = std::max(tasks_, 1LL);
      const long long hosts = nodes_ > 0 ? nodes_ : ptile_ > 0 ? directives::ceil_div(tasks, ptile_) : 1;
      put("gpus", "--gpus=" + std::to_string(gpus_ * (gpus_per_ == 't' ? tasks : hosts)));
    }
    if (!array_.empty()) put("array", "--array=" + array_);
    if (!output_.empty()) put("output", "--output=" + file(output_, "out"));
    if (!error_.empty()) put("error", "--error=" + file(error_, "err"));
    if (append_ && overwrite_) m_.warn("-o/-e and -oo/-eo", "one mode for both files in yard: they are appended to");
    if (append_) put("output", "--open-mode=append");
    if (!mail_.empty()) put("mail", "--mail-type=" + mail_);
    std::string exports = exports_;
    if (script_.find("LS_SUBCWD") != std::string_view::npos && exports != "NONE") {
      const std::string var = directives::directory_variable("LS_SUBCWD", "");
      if (!var.empty()) exports = exports.empty() ? "ALL," + var : exports + "," + var;
    }
    if (!exports.empty()) put("export", "--export=" + exports);
  }
  directives::LineBook book_;

 private:
  static bool is_flag(const std::string& opt) {
    static const std::set<std::string_view> kFlags = {"-x", "-B", "-N", "-r", "-rn", "-K", "-H", "-I", "-Ip", "-Is",
                                                      "-IS", "-ISp", "-ISs", "-IX", "-XF", "-hl", "-ar", "-Ne", "-ul",
                                                      "-Zs", "-ti", "-tty"};
    return kFlags.count(opt) > 0;
  }

  Status option(const std::string& opt, const std::string& v, std::vector<std::string>& out) {
    const std::string at = opt + (v.empty() ? "" : " " + v);
    // Where the options that combine across lines come from (combined()).
    static const std::map<std::string_view, const char*> kCombined = {
        {"-n", "tasks"},  {"-M", "limit"}, {"-o", "output"},  {"-oo", "output"}, {"-e", "error"},
        {"-eo", "error"}, {"-gpu", "gpus"}, {"-B", "mail"},    {"-N", "mail"},    {"-env", "export"},
        {"-nnodes", "nodes"}};
    if (auto c = kCombined.find(opt); c != kCombined.end()) book_.note(c->second, m_.line());
    if (auto r = lsf::refused().find(opt); r != lsf::refused().end()) return m_.fail(opt + ": " + std::string(r->second));
    if (lsf::warned().count(opt)) {
      m_.warn(at, "no equivalent in yard; ignored");
      return {};
    }
    if (opt == "-J") return name(v, out);
    if (opt == "-n") {
      const auto comma = v.find(',');
      if ((tasks_ = count(std::string_view(v).substr(0, comma))) <= 0 ||
          (comma != std::string::npos && count(std::string_view(v).substr(comma + 1)) < tasks_))
        return m_.fail(at + ": expected a number of tasks, or MIN,MAX");
      if (comma != std::string::npos) m_.warn(at, "LSF may give any count in the range; yard asks for " + v.substr(0, comma));
      return {};
    }
    if (opt == "-R") return requirements(v);
    if (opt == "-W") {
      const auto slash = v.find('/');
      if (slash != std::string::npos) m_.warn(at, "normalized to a host's speed in LSF; yard takes the time as it is");
      const long long s = directives::clock_seconds(v.substr(0, slash) + ":00");  // [H:]M as [H:]M:S
      if (s <= 0) return m_.fail(at + ": expected [hours:]minutes");
      return push(out, "--time=" + directives::sbatch_time(s));
    }
    if (opt == "-M") {
      auto k = directives::size_kib(!v.empty() && v.back() == '!' ? v.substr(0, v.size() - 1) : v, unit_);
      if (!k) return m_.fail(at + ": expected a size such as 4000 (" + unit_name_ + ") or 4G");
      limit_kib_ = *k;
      return {};
    }
    if (opt == "-q") {
      const auto words = split(trim(v), ' ');
      if (words.size() > 1) m_.warn(at, "LSF picks one of several queues; yard takes " + std::string(words[0]));
      return push(out, "--partition=" + std::string(words[0]));
    }
    if (opt == "-P") return push(out, "--account=" + v);
    if (opt == "-o" || opt == "-oo" || opt == "-e" || opt == "-eo") {
      ((opt[1] == 'o' ? output_ : error_)) = v;
      (opt.size() == 2 ? append_ : overwrite_) = true;
      return {};
    }
    if (opt == "-w") return dependency(v, out);
    if (opt == "-gpu") return gpu(v);
    if (opt == "-x") return push(out, "--exclusive");
    if (opt == "-B" || opt == "-N") {
      const std::string type = opt == "-B" ? "BEGIN" : "END";
      if (mail_.find(type) == std::string::npos) mail_ += (mail_.empty() ? "" : ",") + type;
      return {};
    }
    if (opt == "-u") return push(out, "--mail-user=" + v);
    if (opt == "-env") return environment(v);
    if (opt == "-cwd") return push(out, "--chdir=" + v);
    if (opt == "-sp") {
      if (count(v) < 0) return m_.fail(at + ": expected a priority such as 50");
      return push(out, "--priority=" + v);
    }
    if (opt == "-nnodes") {
      if ((nodes_ = count(v)) <= 0) return m_.fail(at + ": expected a number of nodes");
      return {};
    }
    if (opt == "-r" || opt == "-rn") return push(out, opt == "-r" ? "--requeue" : "--no-requeue");
    if (opt == "-K") return push(out, "--wait");
    return m_.fail("unknown LSF option " + opt);
  }

  // -J NAME, -J "NAME[INDICES]%LIMIT"
  Status name(const std::string& v, std::vector<std::string>& out) {
    const auto open = v.find('[');
    if (open == std::string::npos) return push(out, "--job-name=" + v);
    const auto close = v.find(']', open);
    if (close == std::string::npos) return m_.fail("-J " + v + ": unclosed [");
    array_ = v.substr(open + 1, close - open - 1) + v.substr(close + 1);
    book_.note("array", m_.line());
    if (auto s = directives::check_array(array_); !s) return m_.fail("-J " + v + ": " + s.error());
    if (open > 0) out.push_back("--job-name=" + v.substr(0, open));
    return {};
  }

  // -R "select[...] rusage[mem=X] span[hosts=1]": sections NAME[...], a bare string selects.
  Status requirements(const std::string& v) {
    const std::string at = "-R " + v;
    if (v.find('{') != std::string::npos || v.find("||") != std::string::npos)
      return m_.fail(at + ": alternative and compound resource requirements are not supported");
    std::string_view rest = trim(v);
    while (!rest.empty()) {
      const auto open = rest.find('[');
      const std::string name(trim(rest.substr(0, open)));
      static const std::set<std::string_view> kSections = {"select", "order", "rusage", "span", "same", "cu", "affinity"};
      if (open == std::string_view::npos || !kSections.count(name)) {
        m_.warn("-R " + std::string(rest), "host selection is not matched by yard; ignored");
        return {};
      }
      const auto close = rest.find(']', open);
      if (close == std::string_view::npos) return m_.fail(at + ": unclosed " + name + "[");
      const std::string_view body = rest.substr(open + 1, close - open - 1);
      rest = trim(rest.substr(close + 1));
      if (name == "rusage" || name == "span") {
        if (auto s = name == "rusage" ? rusage(body) : span(body); !s) return m_.fail(at + ": " + s.error());
      } else {
        m_.warn("-R " + name + "[" + std::string(body) + "]", "placement yard does not know; ignored");
      }
    }
    return {};
  }

  Status rusage(std::string_view body) {
    std::string items(body);
    std::replace(items.begin(), items.end(), ',', ':');  // mem=20:duration=5, licence=1
    for (std::string_view item : split(items, ':')) {
      item = trim(item);
      const auto eq = item.find('=');
      const std::string_view name = item.substr(0, eq);
      if (name != "mem") {
        if (name != "duration" && name != "decay") m_.warn("-R rusage[" + std::string(name) + "]", "a resource yard does not reserve; ignored");
        continue;
      }
      std::string_view value = eq == std::string_view::npos ? "" : item.substr(eq + 1);
      const auto slash = value.find('/');
      const std::string_view per = slash == std::string_view::npos ? "host" : value.substr(slash + 1);
      auto k = directives::size_kib(value.substr(0, slash), unit_);
      if (!k || (per != "host" && per != "task" && per != "job")) return err(std::string(item) + " is not a size");
      (per == "task" ? task_kib_ : host_kib_) = *k;
      book_.note("rusage", m_.line());
    }
    return {};
  }

  Status span(std::string_view body) {
    for (std::string_view item : split(body, ':')) {
      const auto eq = item.find('=');
      const std::string_view name = item.substr(0, eq), value = eq == std::string_view::npos ? "" : item.substr(eq + 1);
      if (name == "hosts" && value == "1") nodes_ = 1, book_.note("nodes", m_.line());
      else if (name == "ptile" && count(value) > 0) ptile_ = count(value), book_.note("ptile", m_.line());
      else m_.warn("-R span[" + std::string(item) + "]", "a spread yard does not know; ignored");
    }
    return {};
  }

  // -gpu "num=N[/task|/host]:mode=...": the count; the rest is warned about.
  Status gpu(const std::string& v) {
    gpus_ = 1;
    if (v == "-") return {};
    for (std::string_view item : split(v, ':')) {
      item = trim(item);
      if (!starts_with(item, "num=")) {
        m_.warn("-gpu " + std::string(item), "GPUs' modes and models are not chosen by yard; ignored");
        continue;
      }
      const std::string_view n = item.substr(4, item.find('/') - 4);
      const std::string_view per = item.find('/') == std::string_view::npos ? "host" : item.substr(item.find('/') + 1);
      if ((gpus_ = count(n)) < 0 || (per != "host" && per != "task")) return m_.fail("-gpu " + v + ": expected num=N[/task|/host]");
      gpus_per_ = per[0];
    }
    return {};
  }

  // -w 'done(1) && ended(2)': conditions joined by &&, each on one job id.
  Status dependency(const std::string& v, std::vector<std::string>& out) {
    std::map<std::string, std::string> ids;  // afterok -> ":1:2"
    // All of them (&&) or any one (||, sbatch's '?'); not both in one condition.
    const bool any = v.find("||") != std::string::npos;
    if (any && v.find("&&") != std::string::npos)
      return m_.fail("-w " + v + ": && and || together: yard holds a job on all of its dependencies or on any one");
    const std::string_view joint = any ? "||" : "&&";
    for (std::size_t from = 0; from <= v.size();) {
      const auto amp = std::min(v.find(joint, from), v.size());
      std::string term(trim(std::string_view(v).substr(from, amp - from)));
      from = amp + 2;
      std::string kind = "done";
      if (const auto paren = term.find('('); paren != std::string::npos && term.back() == ')') {
        kind = trim(term.substr(0, paren));
        term = trim(term.substr(paren + 1, term.size() - paren - 2));
      }
      const std::string type = kind == "done"      ? "afterok"
                               : kind == "ended"   ? "afterany"
                               : kind == "exit"    ? "afternotok"
                               : kind == "started" ? "after"
                                                   : "";
      if (type.empty() || count(term) <= 0)
        return m_.fail("-w " + v + ": '" + kind + "(" + term + ")': yard holds a job on job ids starting or ending " +
                       "(started, done, ended, exit; ! and job names are not supported)");
      ids[type] += ":" + term;
    }
    std::string dep;
    for (const auto& [type, list] : ids) dep += (dep.empty() ? "" : any ? "?" : ",") + type + list;
    return push(out, "--dependency=" + dep);
  }

  // -env "none" | "all[, ~VAR][, VAR=VALUE]" | "VAR[=VALUE], ..."
  Status environment(const std::string& v) {
    auto vars = directives::variable_list(v);
    if (!vars) return m_.fail("-env " + v + ": " + vars.error());
    if (vars->size() == 1 && to_lower((*vars)[0]) == "none") return exports_ = "NONE", Status{};
    std::string list;
    for (const auto& var : *vars) {
      if (to_lower(var) == "all") list = "ALL" + list;
      else if (var[0] == '~') m_.warn("-env " + var, "yard cannot leave one variable out; it is passed on");
      else list += "," + var;
    }
    exports_ = list[0] == ',' ? list.substr(1) : list;
    return {};
  }

  std::string file(const std::string& raw, const char* suffix) const {
    const std::string p = directives::with_patterns(raw, {{"%J", array_.empty() ? "%j" : "%A"}, {"%I", "%a"}});
    return directives::output_file(p, raw, std::string("%j.") + suffix, is_directory_);  // LSF's JOBID.out
  }

  static Status push(std::vector<std::string>& out, std::string word) {
    out.push_back(std::move(word));
    return {};
  }

  std::string_view script_;
  bool (*is_directory_)(const std::string&);
  long double unit_ = 1024.0L * 1024;  // bytes in a size given without a unit
  long long tasks_ = 0, nodes_ = 0, ptile_ = 0, limit_kib_ = 0, host_kib_ = 0, task_kib_ = 0, gpus_ = 0;
  char gpus_per_ = 'h';
  bool append_ = false, overwrite_ = false;
  std::string array_, output_, error_, exports_, mail_, unit_name_;
};

}  // namespace

const std::vector<std::string_view>& lsf_path_words() {
  static const std::vector<std::string_view> words = {"%J", "%I"};  // as file() reads them
  return words;
}

bool has_lsf_directives(std::string_view script) {
  for (std::string_view line : split(script, '\n'))
    if (directive_text(line)) return true;
  return false;
}

Result<TranslatedDirectives> read_lsf_directives(std::string_view script, std::string_view origin,
                                                 bool (*is_directory)(const std::string&)) {
  TranslatedDirectives out;
  out.directives.has_shebang = starts_with(script, "#!");
  auto lines = directives::script_lines(script, origin);
  if (!lines) return lines.failure();
  Translator t(origin, script, is_directory);
  std::string body;  // the lines that are not directives
  int last = 0;
  for (std::size_t i = 0; i < lines->size(); ++i) {
    auto text = directive_text((*lines)[i]);
    if (!text) {
      body += std::string((*lines)[i]) + "\n";
      continue;
    }
    const int number = static_cast<int>(i) + 1;
    std::string joined(*text);
    // A directive ending in a backslash goes on with the next line.
    while (!joined.empty() && joined.back() == '\\' && i + 1 < lines->size()) {
      joined.pop_back();
      joined += (*lines)[++i];
    }
    t.m_.at(number);
    auto words = directives::split_words(joined);
    if (!words) return err(std::string(origin) + ":" + std::to_string(number) + ": " + words.error());
    std::vector<std::string> translated;
    if (auto s = t.line(*words, translated); !s) return s.failure();
    directives::add_line(out, last = number, std::move(translated));
  }
  t.m_.at(last);
  if (last > 0) {
    t.combined(last);
    t.book_.into(out);
  }
  directives::warn_unset_variables(body, {"LSB_JOBID", "LSB_JOBINDEX", "LSB_JOBNAME", "LSB_HOSTS", "LSB_MCPU_HOSTS",
      "LSB_DJOB_HOSTFILE", "LSB_DJOB_NUMPROC", "LSB_MAX_NUM_PROCESSORS", "LSB_JOBINDEX_END", "LSB_JOBINDEX_STEP"},
      "yard's own are $YARD_JOB_ID, $SLURM_ARRAY_TASK_ID, $YARD_JOB_NAME, $YARD_NTASKS", t.m_);
  out.warnings = std::move(t.m_.warnings);
  out.outside_warnings = std::move(t.m_.outside);
  return out;
}

}  // namespace yard
