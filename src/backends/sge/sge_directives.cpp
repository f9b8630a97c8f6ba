#include "backends/sge/sge_directives.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>

#include "core/text.h"
#include "jobtext/directive_common.h"

namespace yard {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A count that fits the job's counts, or -1.
long long small_number(std::string_view s) {
  if (!all_digits(s) || s.size() > 9) return -1;
  return std::atoll(std::string(s).c_str());
}

// Grid Engine's time: seconds, or [[h:]m:]s; as sbatch's D-HH:MM:SS.
Result<std::string> sge_time(std::string_view v) {
  long long total = 0;
  int parts = 0;
  for (std::string_view p : split(v, ':')) {
    if (++parts > 3 || (!p.empty() && small_number(p) < 0)) return err("not a time");
    total = total * 60 + (p.empty() ? 0 : small_number(p));
  }
  if (total <= 0) return err("not a time");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", total / 86400, total / 3600 % 24, total / 60 % 60,
                total % 60);
  return std::string(buf);
}

// Grid Engine's memory: K M G T are powers of 1024, k m g t of 1000; as kibibytes.
Result<std::string> sge_memory(std::string_view v) {
  std::size_t digits = 0;
  while (digits < v.size() && v[digits] >= '0' && v[digits] <= '9') ++digits;
  const long long n = small_number(v.substr(0, digits));
  if (n <= 0 || v.size() > digits + 1) return err("not a memory size");
  const char unit = digits < v.size() ? v[digits] : 'B';
  long double bytes = static_cast<long double>(n);
  switch (unit) {
    case 'B': break;
    case 'K': bytes *= 1024.0L; break;
    case 'M': bytes *= 1024.0L * 1024; break;
    case 'G': bytes *= 1024.0L * 1024 * 1024; break;
    case 'T': bytes *= 1024.0L * 1024 * 1024 * 1024; break;
    case 'k': bytes *= 1e3L; break;
    case 'm': bytes *= 1e6L; break;
    case 'g': bytes *= 1e9L; break;
    case 't': bytes *= 1e12L; break;
    default: return err("not a memory size");
  }
  const long double kib = (bytes + 1023) / 1024;
  if (kib > 1e15L) return err("not a memory size");
  return std::to_string(static_cast<long long>(kib)) + "K";
}

// Grid Engine's pseudo variables in -o/-e paths, as yard's patterns ($HOME: the home).
const std::pair<std::string_view, std::string_view> kVars[] = {
    {"$JOB_ID", "%j"}, {"$TASK_ID", "%a"}, {"$JOB_NAME", "%x"}, {"$USER", "%u"}, {"$HOSTNAME", "%N"}};

// An -o/-e path: Grid Engine's pseudo variables as yard's patterns, '%' kept literal. An
// array's tasks share its $JOB_ID: the array's id, %A.
std::string sge_path(std::string_view v, bool array) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '%') {
      out += "%%";
      continue;
    }
    bool replaced = false;
    if (v[i] == '$') {
      for (auto [var, pattern] : kVars)
        if (v.substr(i, var.size()) == var) {
          out += array && pattern == "%j" ? "%A" : pattern;
          i += var.size() - 1;
          replaced = true;
          break;
        }
      if (!replaced && v.substr(i, 5) == "$HOME") {
        for (const char* c = std::getenv("HOME"); c && *c; ++c)  // its own % stays one
          out += *c == '%' ? std::string("%%") : std::string(1, *c);
        i += 4;
        replaced = true;
      }
    }
    if (!replaced) out += v[i];
  }
  return out;
}

// Options that take no value, and those whose only effect yard has by default or that
// change nothing in the job's result: read and dropped, some with a warning.
const std::set<std::string_view>& no_value() {  // built when first read, not at every start of yard
  static const std::set<std::string_view> kSet{"-cwd", "-V", "-notify", "-soft", "-hard", "-clear"};
  return kSet;
}
const std::set<std::string_view>& silent() {  // built when first read, not at every start of yard
  static const std::set<std::string_view> kSet{"-cwd", "-V", "-S", "-b", "-shell", "-clear"};
  return kSet;
}
const std::set<std::string_view>& warned() {  // built when first read, not at every start of yard
  static const std::set<std::string_view> kSet{"-notify", "-now", "-R", "-js", "-w", "-soft", "-hard", "-binding",
                                         "-display", "-ckpt", "-c", "-dl", "-C", "-masterq", "-sync", "-A", "-r"};
  return kSet;
}

std::string why_ignored(std::string_view opt) {
  if (opt == "-A") return "Grid Engine's accounting string has no equivalent (projects: -P); ignored";
  if (opt == "-r") return "rerunning is not chosen per job yet; ignored";
  return "no equivalent in yard; ignored";
}

class Translator {
 public:
  Translator(std::string_view origin, bool (*is_directory)(const std::string&))
      : origin_(origin), is_directory_(is_directory) {}

  // One `#$` line's words; its translation in `out`.
  Status line(int number, const std::vector<std::string>& words, std::vector<std::string>& out) {
    number_ = number;
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::string& opt = words[i];
      if (opt.empty() || opt[0] != '-') return fail("'" + opt + "' is not a Grid Engine option");
      if (no_value().count(opt)) {
        all_ = all_ || opt == "-V";
        if (opt == "-V") at_["export"] = number_;
        if (!silent().count(opt)) warn(opt, why_ignored(opt));
        continue;
      }
      if (opt == "-h") return fail("-h: a job submitted on hold is not supported");
      const int values = opt == "-pe" ? 2 : 1;
      if (i + static_cast<std::size_t>(values) >= words.size())
        return fail(opt + " option must have " + (values == 2 ? "two values" : "a value"));
      const std::string& v = words[i + 1];
      i += static_cast<std::size_t>(values);
      if (auto s = option(opt, v, values == 2 ? words[i] : std::string(), out); !s) return s;
    }
    return {};
  }

  // The options that combine across lines: slots, GPUs, the array and its throttle,
  // output files, exported variables; each with the line that gave it (warnings and errors
  // about it name that line), in line order.
  std::vector<DirectiveLine> combined() const {
    std::map<int, std::vector<std::string>> by_line;
    auto add = [&](const char* what, std::string word) { by_line[line_of(what)].push_back(std::move(word)); };
    if (slots_ > 0) {
      add("slots", mpi_ ? "-n" : "-c");
      add("slots", std::to_string(slots_));
    }
    if (gpus_per_slot_ > 0) add("gpus", "--gpus=" + std::to_string(gpus_per_slot_ * std::max(1LL, slots_)));
    if (!array_.empty()) add("array", "--array=" + array_ + (throttle_.empty() ? "" : "%" + throttle_));
    const bool array = !array_.empty();
    if (!output_.empty()) add("output", "--output=" + file(output_, 'o', array));
    if (!error_.empty() && !joined_) add("error", "--error=" + file(error_, 'e', array));
    // qsub gives the job the caller's environment with -V only; without it, -v's list alone
    // (once a #$ line was read: a script without one keeps yard's default).
    if (all_ && !exports_.empty()) add("export", "--export=ALL," + exports_);
    if (!all_ && number_ > 0) add("export", "--export=" + (exports_.empty() ? "NONE" : exports_));
    std::vector<DirectiveLine> out;
    for (auto& [line, words] : by_line) out.push_back({line, 0, std::move(words)});
    return out;
  }
  std::vector<std::string> warnings;

 private:
  Status option(const std::string& opt, const std::string& v, const std::string& v2, std::vector<std::string>& out) {
    if (opt == "-N") return push(out, "--job-name=" + v);
    if (opt == "-o") return at_["output"] = number_, output_ = v, Status{};
    if (opt == "-e") return at_["error"] = number_, error_ = v, Status{};
    if (opt == "-j") {
      const std::string l = lower(v);
      if (l != "y" && l != "yes" && l != "n" && l != "no" && l != "true" && l != "false")
        return fail("-j " + v + ": expected y or n");
      joined_ = l[0] == 'y' || l[0] == 't';
      return {};
    }
    if (opt == "-l") return resources(v, out);
    if (opt == "-pe") {
      // "N", "N-M" (the lowest), "N-": Grid Engine may give any count in a range; yard asks for one.
      const std::string low = v2.substr(0, v2.find('-'));
      const long long n = small_number(low);
      if (n <= 0) return fail("-pe " + v + " " + v2 + ": expected a number of slots");
      if (v2.find('-') != std::string::npos) warn("-pe", "a range of slots (" + v2 + "): yard asks for " + low);
      slots_ = n;
      at_["slots"] = number_;
      const std::string pe = lower(v);
      mpi_ = pe.find("mpi") != std::string::npos || pe.find("orte") != std::string::npos;
      return {};
    }
    if (opt == "-t") return at_["array"] = number_, array_ = v, Status{};
    if (opt == "-tc") {
      if (small_number(v) <= 0) return fail("-tc " + v + ": expected a number of tasks");
      throttle_ = v;
      return {};
    }
    if (opt == "-hold_jid") {
      std::string ids;
      for (std::string_view id : split(v, ',')) {
        if (!all_digits(id))
          return fail("-hold_jid " + v + ": '" + std::string(id) + "' is not a job id (yard's dependencies name job ids)");
        ids += ":" + std::string(id);
      }
      return push(out, "--dependency=afterany" + ids);
    }
    if (opt == "-m") {  // qsub's letters: b begin, e end, a abort, s suspend; n none
      if (v == "n") return push(out, "--mail-type=NONE");
      std::string types;
      for (char c : v) {
        if (c == 's') {
          warn("-m s", "yard sends no mail when a job is suspended; ignored");
          continue;
        }
        const char* t = c == 'a' ? "FAIL" : c == 'b' ? "BEGIN" : c == 'e' ? "END" : nullptr;
        if (!t) return fail("-m " + v + ": expected n or letters of beas");
        if (types.find(t) == std::string::npos) types += (types.empty() ? "" : ",") + std::string(t);
      }
      return types.empty() ? Status{} : push(out, "--mail-type=" + types);
    }
    if (opt == "-M") return push(out, "--mail-user=" + v);
    if (opt == "-q") return push(out, "--partition=" + v);
    if (opt == "-P") return push(out, "--account=" + v);
    if (opt == "-wd") return push(out, "--chdir=" + v);
    if (opt == "-p") return push(out, "--priority=" + v);
    if (opt == "-v") {
      exports_ += (exports_.empty() ? "" : ",") + v;
      at_["export"] = number_;
      return {};
    }
    if (opt == "-a") return fail("-a: a job starting at a given time is not supported");
    if (opt == "-ar") return fail("-ar: advance reservations are not supported");
    if (opt == "-hold_jid_ad") return fail("-hold_jid_ad: dependencies between array elements are not supported");
    if (opt == "-i") return fail("-i: a job's standard input from a file is not supported");
    if (silent().count(opt)) return {};
    if (warned().count(opt)) {
      warn(opt, why_ignored(opt));
      return {};
    }
    return fail("unknown Grid Engine option " + opt);
  }

  Status resources(const std::string& list, std::vector<std::string>& out) {
    for (std::string_view item : split(list, ',')) {
      const auto eq = item.find('=');
      if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
        return fail("-l " + list + ": expected NAME=VALUE items");
      const std::string name(item.substr(0, eq));
      const std::string value(item.substr(eq + 1));
      if (name == "h_rt" || name == "s_rt") {
        auto t = sge_time(value);
        if (!t) return fail("-l " + name + "=" + value + ": expected seconds or h:m:s");
        if (name == "h_rt" || !hard_time_) out.push_back("--time=" + *t);
        hard_time_ = hard_time_ || name == "h_rt";
      } else if (name == "h_vmem" || name == "s_vmem" || name == "mem_free" || name == "virtual_free" ||
                 name == "mem_req" || name == "h_data") {
        auto m = sge_memory(value);
        if (!m) return fail("-l " + name + "=" + value + ": expected a size such as 4G or 500M");
        out.push_back("--mem-per-cpu=" + *m);  // Grid Engine counts memory per slot
      } else if (name == "gpu" || name == "gpus") {
        const long long n = small_number(value);
        if (n < 0) return fail("-l " + name + "=" + value + ": expected a number of GPUs");
        gpus_per_slot_ = n;
        at_["gpus"] = number_;
      } else if (name == "q" || name == "queue") {
        out.push_back("--partition=" + value);
      } else {
        warn("-l " + name, "a site's resource yard does not know; ignored");
      }
    }
    return {};
  }

  std::string file(const std::string& path, char stream, bool array) const {
    std::string p = sge_path(path, array);
    const bool dir = (!path.empty() && path.back() == '/') || (is_directory_ && is_directory_(path));
    if (!dir) return p;
    // Grid Engine's own name inside a directory: JOBNAME.oJOBID[.TASKID].
    if (p.back() != '/') p += '/';
    return p + "%x." + stream + (array ? "%A.%a" : "%j");
  }

  static std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  static Status push(std::vector<std::string>& out, std::string word) {
    out.push_back(std::move(word));
    return {};
  }
  Status fail(const std::string& what) const {
    return err(std::string(origin_) + ":" + std::to_string(number_) + ": in #$ directives: " + what);
  }
  void warn(const std::string& opt, const std::string& why) {
    warnings.push_back(std::string(origin_) + ":" + std::to_string(number_) + ": #$ " + opt + ": " + why);
  }

  std::string_view origin_;
  bool (*is_directory_)(const std::string&);
  int number_ = 0;
  long long slots_ = 0, gpus_per_slot_ = 0;
  bool mpi_ = false, joined_ = false, hard_time_ = false, all_ = false;
  std::string array_, throttle_, output_, error_, exports_;
  std::map<std::string, int> at_;  // the line of each combined option ("slots", "array", ...)
  int line_of(const char* what) const {
    auto it = at_.find(what);
    return it != at_.end() ? it->second : number_;  // (--export=NONE: the last line read)
  }
};

}  // namespace

const std::vector<std::string_view>& sge_path_words() {
  static const std::vector<std::string_view> words = [] {
    std::vector<std::string_view> out;
    for (auto [var, pattern] : kVars) out.push_back(var);
    out.push_back("$HOME");
    return out;
  }();
  return words;
}

bool has_sge_directives(std::string_view script) {
  for (std::string_view line : split(script, '\n'))
    if (starts_with(line, "#$")) return true;
  return false;
}

Result<TranslatedDirectives> read_sge_directives(std::string_view script, std::string_view origin,
                                                 bool (*is_directory)(const std::string&)) {
  TranslatedDirectives out;
  out.directives.has_shebang = starts_with(script, "#!");
  if (script.find('\0') != std::string_view::npos) return err(std::string(origin) + ": the script contains a NUL byte");
  Translator t(origin, is_directory);
  std::string body;  // the lines that are not #$ directives
  int lineno = 0;
  for (std::string_view line : split(script, '\n')) {
    ++lineno;
    if (!line.empty() && line.back() == '\r')
      return err(std::string(origin) + ":" + std::to_string(lineno) +
                 ": DOS line break (\\r\\n); convert the script with dos2unix");
    // Every `#$` line of the script counts, as for qsub; "#$$" and the like are not.
    const bool directive = starts_with(line, "#$") && (line.size() == 2 || line[2] == ' ' || line[2] == '\t');
    if (!directive) {
      body += std::string(line) + "\n";
      continue;
    }
    const std::string_view rest = line.substr(2);
    auto words = split_directive_words(rest);
    if (!words) return err(std::string(origin) + ":" + std::to_string(lineno) + ": " + words.error());
    std::vector<std::string> translated;
    if (auto s = t.line(lineno, *words, translated); !s) return s.failure();
    if (translated.empty()) continue;
    out.directives.words.insert(out.directives.words.end(), translated.begin(), translated.end());
    out.directives.lines.push_back({lineno, 0, std::move(translated)});
  }
  for (auto& group : t.combined()) {
    out.directives.words.insert(out.directives.words.end(), group.words.begin(), group.words.end());
    out.directives.lines.push_back(std::move(group));
  }
  out.warnings = std::move(t.warnings);
  directives::Messages m(origin, "#$");
  directives::warn_unset_variables(body, {"JOB_ID", "JOB_NAME", "SGE_TASK_ID", "SGE_TASK_FIRST", "SGE_TASK_LAST",
      "SGE_TASK_STEPSIZE", "NSLOTS", "NHOSTS", "PE_HOSTFILE", "SGE_O_WORKDIR"},
      "yard's own are $YARD_JOB_ID, $YARD_JOB_NAME, $YARD_ARRAY_TASK_ID, $YARD_NTASKS", m);
  out.outside_warnings = std::move(m.outside);
  return out;
}

}  // namespace yard
