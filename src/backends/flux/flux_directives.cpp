#include "backends/flux/flux_directives.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "core/batch_directives.h"
#include "core/text.h"
#include "jobtext/directive_common.h"

namespace yard {

std::optional<FluxSentinel> flux_sentinel(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size()) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (std::isalnum(c) || c == '_' || c >= 0x80) break;
    ++i;
  }
  const std::string_view tag = line.substr(i, 5);
  if (tag != "flux:" && tag != "FLUX:") return std::nullopt;
  return FluxSentinel{line.substr(0, i), tag, line.substr(i + 5)};
}

namespace {

using directives::count;


// Flux's options that take a value (flux batch's, and flux submit's names for the same).
const std::set<std::string_view>& with_value() {  // built when first read, not at every start of yard
  static const std::set<std::string_view> kSet = {
    "-N", "--nodes", "-n", "--nslots", "--ntasks", "-c", "--cores-per-slot", "--cores-per-task", "-g",
    "--gpus-per-slot", "--gpus-per-task", "--gpus-per-node", "--tasks-per-node", "--tasks-per-core", "--cores", "-t",
    "--time-limit", "--job-name", "--output", "--error", "--input", "-q", "--queue", "-B", "--bank", "--cwd",
    "--urgency", "--dependency", "-S", "--setattr", "-o", "--setopt", "--env", "--env-remove", "--env-file",
    "--signal", "--rlimit", "--flags", "--conf", "--broker-opts", "--dump", "--add-file", "--begin-time", "--cc",
    "--bcc", "--requires", "--log", "--log-stderr", "--taskmap"};
  return kSet;
}
const std::set<std::string_view>& warned() {  // built when first read, not at every start of yard
  static const std::set<std::string_view> kSet = {
    "-S", "--setattr", "-o", "--setopt", "--env-remove", "--env-file", "--signal", "--rlimit", "--flags", "--conf",
    "--broker-opts", "--dump", "--requires", "--log", "--log-stderr", "--taskmap", "--tasks-per-core", "--cores",
    "-u", "--unbuffered", "-l", "--label-io", "--debug"};
  return kSet;
}
const std::map<std::string_view, std::string_view>& refused() {  // built when first read, not at every start of yard
  static const std::map<std::string_view, std::string_view> kSet = {
    {"--input", "a job's standard input from a file is not supported"},
    {"--add-file", "files added to the job's directory are not supported"},
    {"--begin-time", "a job starting at a given time is not supported"},
    {"--wrap", "the script is the job; --wrap does not apply to it"},
    {"--dry-run", "a job that is not submitted: use yard submit --test-only"}};
  return kSet;
}

// A Flux Standard Duration (RFC 23): a number and s, m, h or d; no unit: minutes.
long long fsd_seconds(std::string_view v) {
  double unit = 60;
  if (!v.empty() && std::string_view("smhd").find(v.back()) != std::string_view::npos) {
    unit = v.back() == 's' ? 1 : v.back() == 'm' ? 60 : v.back() == 'h' ? 3600 : 86400;
    v.remove_suffix(1);
  }
  const auto dot = v.find('.');
  if (count(v.substr(0, dot)) < 0 || (dot != std::string_view::npos && count(v.substr(dot + 1)) < 0)) return -1;
  return static_cast<long long>(std::ceil(std::strtod(std::string(v).c_str(), nullptr) * unit));
}

class Translator {
 public:
  explicit Translator(std::string_view origin) : m_(origin, "Flux") {}
  directives::Messages m_;

  // One directive's words; its translation in `out`.
  Status line(const std::vector<std::string>& words, std::vector<std::string>& out) {
    if (!words.empty() && words[0][0] != '-') return m_.fail("unknown directive: " + words[0]);
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::string opt = words[i], value;
      const bool long_opt = starts_with(opt, "--");
      if (opt.size() < 2 || opt[0] != '-') return m_.fail("'" + opt + "' is not an option (a directive holds only options)");
      if (long_opt && opt.find('=') != std::string::npos) {
        value = opt.substr(opt.find('=') + 1);
        opt.resize(opt.find('='));
        if (!with_value().count(opt)) return m_.fail(opt + " option takes no value");
      } else if (!long_opt && opt.size() > 2 && with_value().count(opt.substr(0, 2))) {
        value = opt.substr(2);  // -N4
        opt.resize(2);
      } else if (with_value().count(opt)) {
        if (i + 1 >= words.size()) return m_.fail(opt + " option must have a value");
        value = words[++i];
      }
      if (auto s = option(opt, value, out); !s) return s;
    }
    return {};
  }

  // What combines across lines: the slots and their resources, dependencies, exports.
  // Each word in book_ at the line that gave it (`last`: the last directive line).
  void combined(int last) {
    auto put = [&](const char* what, std::string word) { book_.put(what, std::move(word), last); };
    if (slots_ > 0) put("slots", "--ntasks=" + std::to_string(slots_));
    if (nodes_ > 0) put("nodes", "--nodes=" + std::to_string(nodes_));
    if (nodes_ > 0 && slots_ == 0) put("nodes", "--exclusive");  // Flux gives the nodes whole
    if (cores_ > 0) put("cores", "--cpus-per-task=" + std::to_string(cores_));
    const long long gpus = gpus_per_slot_ * (slots_ > 0 ? slots_ : std::max(nodes_, 1LL)) +
                           gpus_per_node_ * std::max(nodes_, 1LL);
    if (gpus > 0) put("gpus", "--gpus=" + std::to_string(gpus));
    if (!dependencies_.empty()) put("dependency", "--dependency=" + dependencies_);
    if (none_) put("export", "--export=" + (exports_.empty() ? "NONE" : exports_));
    else if (!exports_.empty()) put("export", "--export=ALL," + exports_);
  }
  directives::LineBook book_;

 private:
  Status option(const std::string& opt, const std::string& v, std::vector<std::string>& out) {
    const std::string at = opt + (v.empty() ? "" : (starts_with(opt, "--") ? "=" : " ") + v);
    if (auto r = refused().find(opt); r != refused().end()) return m_.fail(opt + ": " + std::string(r->second));
    if (warned().count(opt)) {
      m_.warn(at, "no equivalent in yard; ignored");
      return {};
    }
    // Each count, and the name combined() puts its words under.
    struct Count {
      long long Translator::*member;
      const char* combined;
    };
    static const std::map<std::string_view, Count> kCounts = {
        {"-N", {&Translator::nodes_, "nodes"}}, {"--nodes", {&Translator::nodes_, "nodes"}},
        {"-n", {&Translator::slots_, "slots"}}, {"--nslots", {&Translator::slots_, "slots"}},
        {"--ntasks", {&Translator::slots_, "slots"}}, {"-c", {&Translator::cores_, "cores"}},
        {"--cores-per-slot", {&Translator::cores_, "cores"}}, {"--cores-per-task", {&Translator::cores_, "cores"}},
        {"-g", {&Translator::gpus_per_slot_, "gpus"}}, {"--gpus-per-slot", {&Translator::gpus_per_slot_, "gpus"}},
        {"--gpus-per-task", {&Translator::gpus_per_slot_, "gpus"}},
        {"--gpus-per-node", {&Translator::gpus_per_node_, "gpus"}},
        {"--tasks-per-node", {&Translator::tasks_per_node_, "tasks_per_node"}}};
    if (auto c = kCounts.find(opt); c != kCounts.end()) {
      const auto member = c->second.member;
      const long long n = count(v);
      if (n < (member == &Translator::gpus_per_slot_ || member == &Translator::gpus_per_node_ ? 0 : 1))
        return m_.fail(at + ": expected a number");
      this->*member = n;
      book_.note(c->second.combined, m_.line());
      if (member == &Translator::tasks_per_node_) out.push_back("--ntasks-per-node=" + v);
      return {};
    }
    if (opt == "-t" || opt == "--time-limit") {
      const long long s = fsd_seconds(v);
      if (s <= 0 || s > 1'000'000'000) return m_.fail(at + ": expected a duration such as 30s, 10m, 2h or 1d");
      return push(out, "--time=" + directives::sbatch_time(s));
    }
    if (opt == "--job-name") return push(out, "--job-name=" + v);
    if (opt == "-q" || opt == "--queue") return push(out, "--partition=" + v);
    if (opt == "-B" || opt == "--bank") return push(out, "--account=" + v);
    if (opt == "--cwd") return push(out, "--chdir=" + v);
    if (opt == "--output" || opt == "--error") return file(opt, v, out);
    if (opt == "-x" || opt == "--exclusive") return push(out, "--exclusive");
    if (opt == "--urgency") {
      const std::string l = to_lower(v);
      const long long n = l == "default" ? 16 : l == "expedite" ? 31 : l == "hold" ? 0 : count(v);
      if (n == 0) return m_.fail(at + ": a job held at submission is not supported");
      if (n < 0 || n > 31) return m_.fail(at + ": expected an urgency from 0 to 31");
      return push(out, "--priority=" + std::to_string(n - 16));
    }
    if (opt == "--dependency") {
      auto d = directives::dependency(v);
      if (!d) return m_.fail(at + ": " + d.error());
      dependencies_ += (dependencies_.empty() ? "" : ",") + *d;
      book_.note("dependency", m_.line());
      return {};
    }
    if (opt == "--cc" || opt == "--bcc") {
      std::string ids = v;
      if (ids.size() > 1 && ids.front() == '[' && ids.back() == ']') ids = ids.substr(1, ids.size() - 2);
      if (auto s = directives::check_array(ids); !s) return m_.fail(at + ": " + s.error());
      return push(out, "--array=" + ids);
    }
    if (opt == "--env" && (v == "-*" || v == "-/.*/")) {  // no variable of the submitter's, but those given after
      exports_.clear();
      none_ = true;
      book_.note("export", m_.line());
      return {};
    }
    if (opt == "--env") {
      const auto name_end = v.find('=');
      const std::string name = v.substr(0, name_end);
      if (name.empty() || name.find_first_of("-^*?[/,") != std::string::npos) {  // removals, patterns, files
        m_.warn(at, "only --env=NAME[=VALUE] is passed on; ignored");
        return {};
      }
      std::string rule = name;
      if (name_end != std::string::npos) {
        auto value = env_value(std::string_view(v).substr(name_end + 1));
        if (!value) return m_.fail(at + ": " + value.error());
        rule += "=" + *value;
      }
      if (rule.find(',') != std::string::npos) return m_.fail(at + ": a value holding a comma cannot be passed on");
      exports_ += (exports_.empty() ? "" : ",") + rule;
      book_.note("export", m_.line());
      return {};
    }
    if (opt == "-v" || opt == "--verbose" || opt == "--quiet") return {};
    return m_.fail("unknown Flux option " + opt);
  }

  // A value of --env=NAME=VALUE as flux batch sets it (Python's string.Template): $$ is a
  // '$', $NAME and ${NAME} the submitting environment's NAME; flux batch refuses a NAME
  // that is not set, and a '$' that begins neither.
  static Result<std::string> env_value(std::string_view v) {
    auto letter = [](char c, bool first) {
      const auto u = static_cast<unsigned char>(c);
      return c == '_' || std::isalpha(u) || (!first && std::isdigit(u));
    };
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] != '$' || (i + 1 < v.size() && v[i + 1] == '$')) {
        out += v[i];
        i += v[i] == '$' ? 1 : 0;
        continue;
      }
      const bool braced = i + 1 < v.size() && v[i + 1] == '{';
      const std::size_t start = i + 1 + (braced ? 1 : 0);
      std::size_t end = start;
      while (end < v.size() && letter(v[end], end == start)) ++end;
      if (end == start || (braced && (end >= v.size() || v[end] != '}')))
        return err("a '$' that begins no variable's name (a '$' of the value's own is written $$)");
      const std::string name(v.substr(start, end - start));
      const char* value = std::getenv(name.c_str());
      if (!value) return err("$" + name + " is not set here, and flux batch refuses it");
      out += value;
      i = end - (braced ? 0 : 1);
    }
    return out;
  }

  // --output/--error: mustache templates as yard's patterns; "none" and "kvs" keep the
  // output in Flux's KVS, which yard does not have.
  Status file(const std::string& opt, const std::string& v, std::vector<std::string>& out) {
    if (v == "none" || v == "kvs") {
      m_.warn(opt + "=" + v, "yard has no KVS; the output goes to yard's default file");
      return {};
    }
    std::vector<std::pair<std::string, std::string>> tokens = {
        {"{{name}}", "%x"}, {"{{cc}}", "%a"}, {"{{node.name}}", "%N"}, {"{{node.id}}", "%n"}, {"{{taskid}}", "%t"},
        {"{{task.id}}", "%t"}, {"{{task.rank}}", "%t"}, {"{{task.index}}", "%t"}, {"{{task.localid}}", "%t"},
        {"{{id}}", "%j"}, {"{{jobid}}", "%j"}};
    for (const char* enc : {"f58", "dec", "hex", "dothex", "words", "f58plain", "emoji"})
      for (const char* id : {"id", "jobid"}) tokens.emplace_back(std::string("{{") + id + "." + enc + "}}", "%j");
    for (auto at = v.find("{{"); at != std::string::npos; at = v.find("{{", at + 2)) {
      const auto close = v.find("}}", at);
      const std::string tag = v.substr(at, close == std::string::npos ? std::string::npos : close + 2 - at);
      bool known = false;
      for (const auto& t : tokens) known = known || t.first == tag;
      if (!known) return m_.fail(opt + "=" + v + ": " + tag + " is not supported in yard's output paths");
    }
    return push(out, opt + "=" + directives::with_patterns(v, tokens));
  }

  static Status push(std::vector<std::string>& out, std::string word) {
    out.push_back(std::move(word));
    return {};
  }

  long long nodes_ = 0, slots_ = 0, cores_ = 0, gpus_per_slot_ = 0, gpus_per_node_ = 0, tasks_per_node_ = 0;
  std::string dependencies_, exports_;
  bool none_ = false;  // --env=-*: the environment starts empty
};

}  // namespace

bool has_flux_directives(std::string_view script) {
  for (std::string_view line : split(script, '\n')) {
    auto s = flux_sentinel(line);
    auto words = s ? split_directive_words(s->rest) : Result<std::vector<std::string>>(err(""));
    if (words && !words->empty() && (*words)[0][0] == '-') return true;
  }
  return false;
}

Result<TranslatedDirectives> read_flux_directives(std::string_view script, std::string_view origin) {
  TranslatedDirectives out;
  out.directives.has_shebang = starts_with(script, "#!");
  auto lines = directives::script_lines(script, origin);
  if (!lines) return lines.failure();
  Translator t(origin);
  std::optional<FluxSentinel> first;
  int last = 0, closed_after = 0;  // the group of directives ended after this line
  bool runs_flux = false;
  std::string body;
  for (std::size_t i = 0; i < lines->size(); ++i) {
    const std::string_view line = (*lines)[i];
    const int number = static_cast<int>(i) + 1;
    t.m_.at(number);
    auto s = flux_sentinel(line);
    if (!s) {
      std::string_view prefix = first ? first->prefix : std::string_view();
      while (!prefix.empty() && (prefix.back() == ' ' || prefix.back() == '\t')) prefix.remove_suffix(1);
      if (first && !closed_after && !starts_with(line, prefix) && !trim(line).empty()) closed_after = number - 1;
      runs_flux = runs_flux || starts_with(trim(line), "flux ");
      body += std::string(line) + "\n";
      continue;
    }
    if (closed_after)
      return t.m_.fail("a directive after the group of directives ended at line " + std::to_string(closed_after) +
                       " (flux batch: orphan '" + std::string(s->tag) + "')");
    if (first && (s->prefix != first->prefix || s->tag != first->tag))
      return t.m_.fail("the sentinel changed from '" + std::string(first->prefix) + std::string(first->tag) + "' to '" +
                       std::string(s->prefix) + std::string(s->tag) + "' (all directives must use one)");
    if (!first) first = s;
    if (s->rest.find("\"\"\"") != std::string_view::npos || s->rest.find("'''") != std::string_view::npos)
      return t.m_.fail("triple-quoted values are not supported");
    auto words = split_directive_words(s->rest);
    if (!words) return err(std::string(origin) + ":" + std::to_string(number) + ": " + words.error());
    std::vector<std::string> translated;
    if (auto st = t.line(*words, translated); !st) return st.failure();
    directives::add_line(out, last = number, std::move(translated));
  }
  t.m_.at(last);
  if (last > 0) {
    t.combined(last);
    t.book_.into(out);
  }
  if (runs_flux)
    t.m_.outside.push_back(std::string(origin) + ": the script runs flux commands, which need a Flux instance " +
                            "(yard starts none; on another backend use srun, mpirun or the commands themselves)");
  directives::warn_unset_variables(body, {"FLUX_JOB_ID", "FLUX_JOB_CC", "FLUX_JOB_SIZE", "FLUX_JOB_NNODES",
      "FLUX_JOB_TMPDIR", "FLUX_URI"}, "yard's own are $YARD_JOB_ID, $SLURM_ARRAY_TASK_ID, $YARD_NTASKS", t.m_);
  out.warnings = std::move(t.m_.warnings);
  out.outside_warnings = std::move(t.m_.outside);
  return out;
}

}  // namespace yard
