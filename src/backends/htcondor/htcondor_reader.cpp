#include "backends/htcondor/htcondor_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>

#include "core/text.h"
#include "jobtext/directive_common.h"

namespace yard {
namespace {

using directives::count;

// A key's value: the text after '=' with blanks around it dropped.
struct Command {
  std::string key;  // lower case
  std::string value;
  int line = 0;
};

// A macro condor_submit puts a value in for: $(NAME), $$(NAME) (from the machine's ad,
// once the job is matched) or $FUNCTION(ARGUMENTS) such as $ENV(HOME); it ends at `end`.
struct Macro {
  std::string function;  // "" for $(NAME) and $$(NAME)
  std::string body;      // the NAME, or the ARGUMENTS
  bool machine = false;  // $$(NAME)
  std::size_t end = 0;
};

// The macro that starts at v[i] (a '$'), or nullopt when that '$' begins none.
std::optional<Macro> macro_at(std::string_view v, std::size_t i) {
  Macro m;
  std::size_t j = i + 1;
  if (j < v.size() && v[j] == '$') {
    m.machine = true;
    ++j;
  }
  const std::size_t name = j;
  while (j < v.size() && (std::isalnum(static_cast<unsigned char>(v[j])) || v[j] == '_')) ++j;
  m.function = std::string(v.substr(name, j - name));
  const auto close = j < v.size() && v[j] == '(' ? v.find(')', j) : std::string_view::npos;
  if (close == std::string_view::npos || (m.machine && !m.function.empty())) return std::nullopt;
  m.body = std::string(v.substr(j + 1, close - j - 1));
  m.end = close + 1;
  return m;
}

// What condor_submit puts in for the macros that do not depend on the job: a '$' for
// $(DOLLAR), two for $$(DOLLARDOLLAR) (how a value keeps its own), and the submitting
// environment's variable for $ENV(NAME[:DEFAULT]) (UNDEFINED when it is not set and has no
// default); nullopt for any other.
std::optional<std::string> known(const Macro& m) {
  if (!m.machine && m.function.empty() && iequals(m.body, "DOLLAR")) return "$";
  if (m.machine && iequals(m.body, "DOLLARDOLLAR")) return "$$";
  if (m.machine || !iequals(m.function, "ENV")) return std::nullopt;
  const auto colon = m.body.find(':');
  if (const char* value = std::getenv(m.body.substr(0, colon).c_str())) return value;
  return colon != std::string::npos ? m.body.substr(colon + 1) : "UNDEFINED";
}

class Reader {
 public:
  explicit Reader(std::string_view origin) : m_(origin, "HTCondor") {}
  directives::Messages m_;
  JobDescription out;

  Status command(const Command& raw) {
    m_.at(raw.line);
    const std::string at = raw.key + " = " + raw.value;
    // Output paths put their macros in as yard's patterns (path()).
    Command c = raw;
    if (c.key != "output" && c.key != "error") c.value = macros(raw.value, at);
    auto add = [&](std::string word) { directives::add_line(out.directives, c.line, {std::move(word)}); };
    auto number = [&](long long least) -> std::optional<long long> {
      const long long n = count(c.value);
      if (n < least) return std::nullopt;
      return n;
    };
    if (c.key == "executable") {
      out.executable = c.value;
      out.executable_line = c.line;
    } else if (c.key == "universe") {
      if (!iequals(c.value, "vanilla")) m_.warn(at, "yard runs the script as a vanilla job; ignored");
    } else if (c.key == "batch_name") {
      add("--job-name=" + unquoted(c.value));
    } else if (c.key == "request_cpus" || c.key == "request_gpus") {
      auto n = number(c.key == "request_gpus" ? 0 : 1);
      if (!n) return m_.fail(at + ": expected a number");
      add((c.key == "request_cpus" ? "--cpus-per-task=" : "--gpus=") + std::to_string(*n));
    } else if (c.key == "request_memory") {
      std::string v;
      for (char ch : c.value) if (ch != ' ') v += ch;
      auto k = directives::size_kib(v, 1024.0L * 1024);  // no unit: MiB
      if (!k) return m_.fail(at + ": expected a size such as 4096 (MiB) or 4G");
      add("--mem=" + directives::kib(*k));
    } else if (c.key == "allowed_job_duration") {
      auto n = number(1);
      if (!n) return m_.fail(at + ": expected a number of seconds");
      add("--time=" + directives::sbatch_time(*n));
    } else if (c.key == "output" || c.key == "error") {
      (c.key == "output" ? output_ : error_) = c;
    } else if (c.key == "accounting_group") {
      add("--account=" + c.value);
    } else if (c.key == "initialdir") {
      add("--chdir=" + c.value);
    } else if (c.key == "getenv") {
      getenv(c, at);
    } else if (c.key == "environment") {
      return environment(c, at);
    } else if (c.key == "priority") {
      const bool negative = starts_with(c.value, "-");
      const long long n = count(negative ? c.value.substr(1) : c.value);
      if (n < 0) return m_.fail(at + ": expected a whole number");
      add("--priority=" + std::string(negative ? "-" : "") + std::to_string(n));
    } else if (c.key == "notification") {
      static const std::map<std::string, std::string> kTypes = {
          {"never", "NONE"}, {"error", "FAIL"}, {"complete", "END"}, {"always", "ALL"}};
      auto t = kTypes.find(to_lower(c.value));
      if (t == kTypes.end()) return m_.fail(at + ": expected Never, Error, Complete or Always");
      add("--mail-type=" + t->second);
    } else if (c.key == "notify_user") {
      add("--mail-user=" + c.value);
    } else if (c.key == "max_materialize") {
      auto n = number(1);
      if (!n) return m_.fail(at + ": expected a number of jobs");
      throttle_ = *n;
    } else {
      m_.warn(c.key, c.key == "arguments" ? "the script's arguments are not part of its job; ignored"
                                          : "no equivalent in yard; ignored");
    }
    return {};
  }

  // queue | queue N | queue NAME in (I, J, ...)
  Status queue(std::string_view rest, int line) {
    m_.at(line);
    queue_line_ = line;
    const std::string spec(trim(rest));
    const auto in = spec.find(" in ");
    if (spec.empty()) return {};
    if (in == std::string::npos) {
      const long long n = count(spec);
      if (n < 1) return m_.fail("queue " + spec + ": yard reads queue, queue N and queue NAME in (indices)");
      if (n > 1) array_ = "0-" + std::to_string(n - 1);
      return {};
    }
    index_name_ = std::string(trim(spec.substr(0, in)));
    std::string list(trim(std::string_view(spec).substr(in + 4)));
    if (list.size() < 2 || list.front() != '(' || list.back() != ')' || index_name_.empty() ||
        index_name_.find_first_of(" \t") != std::string::npos)
      return m_.fail("queue " + spec + ": expected queue NAME in (I, J, ...)");
    for (std::string_view item : split(std::string_view(list).substr(1, list.size() - 2), ',')) {
      for (std::string_view word : split(trim(item), ' ')) {
        if (word.empty()) continue;
        if (count(word) < 0) return m_.fail("queue " + spec + ": '" + std::string(word) + "' is not an index");
        array_ += (array_.empty() ? "" : ",") + std::string(word);
      }
    }
    if (array_.empty()) return m_.fail("queue " + spec + ": no indices");
    return {};
  }

  // What depends on the whole description: the array, its throttle, the environment and
  // the files.
  Status finish() {
    m_.at(queue_line_);
    if (out.executable.empty()) return m_.fail("no executable: yard translate reads the script the job runs");
    // Without getenv (false by default) the job gets no variable of the submitter's.
    std::string list = all_ ? "ALL" : "";
    for (const auto& v : getenv_names_) list += "," + v;
    for (const auto& v : environment_) list += "," + v;
    if (!all_ && !list.empty()) list.erase(0, 1);
    const int line = std::max(getenv_line_, environment_line_);
    directives::add_line(out.directives, line > 0 ? line : queue_line_,
                         {"--export=" + (list.empty() ? "NONE" : list)});
    if (!array_.empty()) {
      if (auto s = directives::check_array(array_); !s) return m_.fail("queue: " + s.error());
      directives::add_line(out.directives, queue_line_,
                           {"--array=" + array_ + (throttle_ > 0 ? "%" + std::to_string(throttle_) : "")});
    }
    for (Command* c : {&output_, &error_}) {
      if (c->line == 0 || (c == &error_ && output_.line && error_.value == output_.value)) continue;
      m_.at(c->line);
      auto p = path(c->value);
      if (!p) return m_.fail(c->key + " = " + c->value + ": " + p.error());
      directives::add_line(out.directives, c->line, {"--" + c->key + "=" + *p});
    }
    return {};
  }

 private:
  // `v` with the macros put in that known() knows; any other is kept as written, with a
  // warning: what HTCondor puts in for it is its own.
  std::string macros(std::string_view v, const std::string& at) {
    std::string expanded;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const auto m = v[i] == '$' ? macro_at(v, i) : std::nullopt;
      if (!m) {
        expanded += v[i];
        continue;
      }
      const std::string text(v.substr(i, m->end - i));
      const auto value = known(*m);
      expanded += value ? *value : text;
      if (!value) m_.warn(at, "HTCondor puts a value in for " + text + ", which yard does not know; kept as written");
      else if (iequals(m->function, "ENV") && m->body.find(':') == std::string::npos && !std::getenv(m->body.c_str()))
        m_.warn(at, text + ": not set here; condor_submit puts in UNDEFINED");
      i = m->end - 1;
    }
    return expanded;
  }

  static std::string unquoted(const std::string& v) {
    return v.size() >= 2 && v.front() == '"' && v.back() == '"' ? v.substr(1, v.size() - 2) : v;
  }

  // getenv = true | false | NAMES: the submitter's variables the job gets, all of them or
  // those named (condor_submit matches a name in any case; a pattern, * or !NAME, is not
  // read).
  void getenv(const Command& c, const std::string& at) {
    getenv_line_ = c.line;
    getenv_names_.clear();
    all_ = iequals(c.value, "true") || c.value == "*";
    if (all_ || iequals(c.value, "false")) return;
    std::string names = c.value;
    for (char& ch : names) ch = ch == ';' || ch == ' ' || ch == '\t' ? ',' : ch;
    for (std::string_view name : split(names, ',')) {
      if (name.empty()) continue;
      if (name.find_first_of("*!=") == std::string_view::npos) getenv_names_.emplace_back(name);
      else m_.warn(at, "'" + std::string(name) + "': yard passes variables on by name, not by pattern; ignored");
    }
  }

  // environment = "A=1 B='x y'" (the new syntax) or A=1;B=2 (the old one).
  Status environment(const Command& c, const std::string& at) {
    std::vector<std::string> items;
    if (c.value.size() >= 2 && c.value.front() == '"' && c.value.back() == '"') {
      auto words = directives::split_words(c.value.substr(1, c.value.size() - 2));
      if (!words) return m_.fail(at + ": " + words.error());
      items = *words;
    } else {
      for (std::string_view item : split(c.value, ';'))
        if (!trim(item).empty()) items.emplace_back(trim(item));
    }
    for (const auto& item : items)
      if (item.find('=') == std::string::npos || item.find(',') != std::string::npos)
        return m_.fail(at + ": '" + item + "': expected NAME=VALUE without a comma");
    environment_ = std::move(items);
    environment_line_ = c.line;
    return {};
  }

  // An output path's macros as yard's patterns; every '%' stays one.
  Result<std::string> path(std::string_view v) const {
    const bool array = !array_.empty();
    std::string p;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '%') {
        p += "%%";
        continue;
      }
      const auto m = v[i] == '$' ? macro_at(v, i) : std::nullopt;
      if (!m && v.substr(i, 2) == "$(") return err("unclosed $(");
      if (!m) {
        p += v[i];
        continue;
      }
      const std::string name = to_lower(m->body), text(v.substr(i, m->end - i));
      if (auto value = known(*m)) {  // the path's own text: every '%' stays one
        for (char ch : *value) p += ch == '%' ? std::string("%%") : std::string(1, ch);
      } else if (m->machine || !m->function.empty()) {
        return err(text + " is not supported in yard's output paths");
      } else if (name == "cluster" || name == "clusterid") {
        p += array ? "%A" : "%j";
      } else if ((name == "process" || name == "procid") && !index_name_.empty()) {
        return err("$(Process) counts the jobs from 0; the index is $(" + index_name_ + ")");
      } else if (name == "process" || name == "procid") {
        p += array ? "%a" : "0";
      } else if (!index_name_.empty() && name == to_lower(index_name_)) {
        p += "%a";
      } else {
        return err(text + " is not supported in yard's output paths");
      }
      i = m->end - 1;
    }
    return p;
  }

  Command output_, error_;
  std::string array_, index_name_;
  std::vector<std::string> getenv_names_, environment_;
  bool all_ = false;  // getenv = true
  long long throttle_ = 0;
  int queue_line_ = 0, getenv_line_ = 0, environment_line_ = 0;
};

// The line's `key = value`, or nullopt when it is not one.
std::optional<Command> command_of(std::string_view line, int number) {
  const auto eq = line.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  const std::string_view key = trim(line.substr(0, eq));
  if (key.empty() || key.find_first_of(" \t") != std::string_view::npos) return std::nullopt;
  return Command{to_lower(key), std::string(trim(line.substr(eq + 1))), number};
}

bool is_queue(std::string_view t) { return iequals(t.substr(0, 5), "queue") && (t.size() == 5 || t[5] == ' ' || t[5] == '\t'); }

}  // namespace

bool is_submit_description(std::string_view text) {
  bool executable = false, queue = false;
  for (std::string_view line : split(text, '\n')) {
    const std::string_view t = trim(line);
    if (auto c = command_of(t, 0); c && c->key == "executable") executable = true;
    queue = queue || is_queue(t);
  }
  return executable && queue;
}

Result<JobDescription> read_submit_description(std::string_view text, std::string_view origin) {
  auto lines = directives::script_lines(text, origin);
  if (!lines) return lines.failure();
  Reader r(origin);
  r.out.directives.directives.kind = "HTCondor";
  bool queued = false;
  for (std::size_t i = 0; i < lines->size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    std::string joined((*lines)[i]);
    while (!joined.empty() && joined.back() == '\\' && i + 1 < lines->size()) {
      joined.pop_back();
      joined += (*lines)[++i];
    }
    const std::string_view t = trim(joined);
    if (t.empty() || t[0] == '#') continue;
    r.m_.at(number);
    if (queued) {
      r.m_.warn(std::string(t.substr(0, 40)), "after the queue statement (another group of jobs); ignored");
      continue;
    }
    if (is_queue(t)) {
      if (auto s = r.queue(t.substr(5), number); !s) return s.failure();
      queued = true;
      continue;
    }
    if (t[0] == '+' || starts_with(to_lower(t), "my.")) {
      r.m_.warn(std::string(t.substr(0, t.find('='))), "a job attribute yard does not know; ignored");
      continue;
    }
    auto c = command_of(t, number);
    if (!c) return r.m_.fail("'" + std::string(t) + "' is neither KEY = VALUE nor queue");
    if (auto s = r.command(*c); !s) return s.failure();
  }
  if (!queued) return err(std::string(origin) + ": no queue statement: condor_submit would queue no job");
  if (auto s = r.finish(); !s) return s.failure();
  r.out.directives.warnings = std::move(r.m_.warnings);
  return std::move(r.out);
}

}  // namespace yard
