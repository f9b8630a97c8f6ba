#include "jobtext/directive_writer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/checked.h"
#include "core/text.h"

namespace yard::jobtext {

Job bounded(const Job& job, std::vector<Loss>& losses) {
  constexpr std::int64_t kMost = 999'999'999;
  Job b = job;
  JobSpec& s = b.spec;
  auto bound = [&](auto& value, std::string_view option) {
    if (value <= kMost && value >= -kMost) return;
    losses.push_back({job.line(option), "--" + std::string(option) + " " + std::to_string(value),
                      "more than the target's directives count (nine digits); written as " + std::to_string(kMost)});
    value = static_cast<std::remove_reference_t<decltype(value)>>(value > 0 ? kMost : -kMost);
  };
  bound(s.res.nodes, "nodes"), bound(s.res.ntasks, "ntasks"), bound(s.res.cpus_per_task, "cpus-per-task");
  bound(s.res.gpus, "gpus"), bound(s.res.walltime_s, "time"), bound(s.priority, "priority");
  if (s.res.total_cpus() > kMost) {
    losses.push_back({job.line("cpus-per-task"), "--cpus-per-task " + std::to_string(s.res.cpus_per_task),
                      "more CPUs in all than the target's directives count; one CPU a task"});
    s.res.cpus_per_task = 1;
  }
  for (Dependency& d : s.dependencies)
    if (d.kind == DependencyKind::AfterCorr) {
      losses.push_back({job.line("dependency"), "--dependency aftercorr:" + std::to_string(d.job_id),
                        "element by element is Slurm's alone; written as afterok on the whole array"});
      d.kind = DependencyKind::AfterOk;
    }
  std::erase_if(s.dependencies, [&](const Dependency& d) {
    if (d.kind == DependencyKind::Singleton) {
      losses.push_back({job.line("dependency"), "--dependency singleton",
                        "only Slurm holds a job for the others of its name; left out"});
      return true;
    }
    if (d.job_id <= kMost) return false;
    losses.push_back({job.line("dependency"), "--dependency " + std::string(to_string(d.kind)) + ":" + std::to_string(d.job_id),
                      "a job id of more than nine digits, which the target's readers do not take; left out"});
    return true;
  });
  if (s.array) {
    if (s.array->max_running > kMost) s.array->max_running = 0;  // more than the elements: no limit
    if (s.array->indices.back() > kMost) {
      losses.push_back({job.line("array"), "--array " + std::to_string(s.array->indices.back()),
                        "an index of more than nine digits; the elements are numbered from 1"});
      for (std::size_t i = 0; i < s.array->indices.size(); ++i) s.array->indices[i] = static_cast<std::int64_t>(i) + 1;
    }
  }
  return b;
}

Writer::Writer(const Job& j, std::string_view title, std::string prefix, bool joins_lines)
    : job(j), res_(j.spec.res), prefix_(std::move(prefix)), title_(title), continued_(joins_lines) {
  bool given = false;
  std::string per_node = j.option("ntasks-per-node", &given);
  if (!given) per_node = j.option("tasks-per-node");
  const long long p = std::atoll(per_node.c_str());
  if (p > 0 && res_.nodes == 1 && res_.ntasks > p) {
    Resources spread = res_;
    spread.nodes = static_cast<int>((res_.ntasks + p - 1) / p);
    if (spread.checked_total_mem_bytes()) res_ = spread;
  }
}

void Writer::add(const std::string& text) {
  // A line ends at a newline, and a carriage return before it is taken for a DOS one.
  if (text.find('\n') != std::string::npos || text.ends_with('\r')) {
    out_.losses.push_back({0, escape_for_terminal(text), "a value a directive line cannot hold (a line break); left out"});
    return;
  }
  // Should a value still end a line in a backslash (one a writer left unquoted), the
  // target's reader would join the next line to it.
  if (continued_ && trim(text).ends_with('\\')) {
    out_.losses.push_back({0, escape_for_terminal(text), std::string(title_) + " reads a line ending in a backslash as "
                           "going on into the next one; left out"});
    return;
  }
  out_.text += (prefix_.empty() ? "" : prefix_ + " ") + text + "\n";
}

void Writer::lose(std::string_view option, std::string what, std::string why) {
  out_.losses.push_back({job.line(option), std::move(what), std::move(why)});
}

void Writer::approximate(std::string_view option, std::string what, std::string why) {
  out_.losses.push_back({job.line(option), std::move(what), std::move(why), true});
}

void Writer::lack(std::string_view option, std::string what, std::string_view thing) {
  lose(option, std::move(what), std::string(title_) + " has no " + std::string(thing) + "; left out");
}

Directives Writer::done() && { return std::move(out_); }

void Writer::lose_unsaid(const Says& says) {
  const JobSpec& s = job.spec;
  if (!says.qos && !s.qos.empty()) lack("qos", "--qos " + s.qos, "QOS");
  if (!says.gres && !s.res.other_gres.empty())
    lack("gres", "--gres " + s.res.other_gres, "generic resources but GPUs");
  if (!says.node_range && s.res.max_nodes > 0)
    lose("nodes", "--nodes " + std::to_string(s.res.nodes) + "-" + std::to_string(s.res.max_nodes),
         std::string(title_) + " takes one node count; the least is written");
  if (!says.job_types)
    for (const auto& t : s.job_types) lack("job-type", "--job-type " + t, "kinds of job (--job-type)");
  if (!says.components && !s.components.empty())
    lack("", "hetjob", "heterogeneous jobs (" + std::to_string(s.components.size()) + " more components)");
  if (!says.append && s.open_mode() == OpenMode::Append)
    lack("open-mode", "--open-mode=append", "way to append to the output files");
  if (!says.requeue && s.requeue) lack("requeue", *s.requeue ? "--requeue" : "--no-requeue", "choice of requeueing");
  if (!says.priority && s.priority != 0) lack("priority", "--priority " + std::to_string(s.priority), "job priority");
  for (const auto& [name, value] : job.options) {
    if (name == "nice") continue;  // the job's priority
    bool handled = name == "ntasks-per-node" || name == "tasks-per-node";  // in the node count
    for (auto h : says.handled) handled = handled || h == name;
    if (!handled) lack(name, "--" + name + (value.empty() ? "" : "=" + value), "equivalent of sbatch's --" + name);
  }
}

std::string quoted(std::string_view value) {
  static constexpr std::string_view kSpecial = " \t'\"\\#";
  const bool control = std::any_of(value.begin(), value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (!value.empty() && !control && value.find_first_of(kSpecial) == std::string_view::npos) return std::string(value);
  if (value.find('\'') == std::string_view::npos) return "'" + std::string(value) + "'";
  // A value holding a ' is never written with backslashes: a blank escaped at its end
  // leaves a backslash last on the line, which some readers take for the line going on
  // into the next one. In double quotes when nothing in it is special there (the readers
  // differ on a backslash or a " inside them, and one refuses three quotes in a row);
  // else in single quotes, each ' between double quotes, which every reader joins into
  // one word as a shell does: 'it'"'"'s'.
  if (value.find_first_of("\"\\") == std::string_view::npos && value.find("'''") == std::string_view::npos)
    return "\"" + std::string(value) + "\"";
  std::string out;
  bool open = false;
  for (char c : value) {
    if (c == '\'') {
      out += open ? "'\"'\"" : "\"'\"";
      open = false;
    } else {
      if (!open) out += '\'';
      open = true;
      out += c;
    }
  }
  return open ? out + "'" : out;
}

std::string size_in(std::uint64_t bytes, const std::vector<std::string_view>& units) {
  std::uint64_t n = ceil_div<std::uint64_t>(bytes, 1024);
  std::size_t unit = 0;
  while (unit + 1 < units.size() && n > 0 && (n % 1024 == 0 || n > 999'999'999)) n = ceil_div<std::uint64_t>(n, 1024), ++unit;
  return std::to_string(n) + std::string(units[unit]);
}

std::string tasks_of_cpus(const Resources& r) {
  return std::to_string(r.ntasks) + (r.ntasks == 1 ? " task of " : " tasks of ") + std::to_string(r.cpus_per_task) + " CPUs";
}

std::string memory_option(const Resources& r) {
  const std::vector<std::string_view> units = {"K", "M", "G", "T"};
  return r.mem_bytes ? "--mem " + size_in(r.mem_bytes, units) : "--mem-per-cpu " + size_in(r.mem_per_cpu_bytes, units);
}

std::string hms(std::int64_t seconds) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(seconds / 3600),
                static_cast<long long>(seconds / 60 % 60), static_cast<long long>(seconds % 60));
  return buf;
}

std::optional<std::int64_t> regular_step(const std::vector<std::int64_t>& ix) {
  const std::int64_t step = ix.size() > 1 ? ix[1] - ix[0] : 1;
  for (std::size_t i = 1; i < ix.size(); ++i)
    if (ix[i] - ix[i - 1] != step) return std::nullopt;
  return step;
}

std::string idset(const std::vector<std::int64_t>& ix) {
  std::string out;
  for (std::size_t i = 0; i < ix.size();) {
    std::size_t j = i;
    while (j + 1 < ix.size() && ix[j + 1] == ix[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(ix[i]) + (j > i ? "-" + std::to_string(ix[j]) : "");
    i = j + 1;
  }
  return out;
}

std::vector<std::pair<DependencyKind, std::vector<std::int64_t>>> dependencies_by_kind(const std::vector<Dependency>& deps) {
  std::vector<std::pair<DependencyKind, std::vector<std::int64_t>>> out;
  for (const auto& d : deps) {
    auto it = out.begin();
    while (it != out.end() && it->first != d.kind) ++it;
    if (it == out.end()) it = out.insert(out.end(), {d.kind, {}});
    it->second.push_back(d.job_id);
  }
  return out;
}

void all_for_any(Writer& w) {
  const JobSpec& s = w.job.spec;
  if (!s.dependency_any || s.dependencies.size() < 2) return;
  w.lose("dependency", "--dependency " + dependency_text(s.dependencies, true),
         "the target holds a job until all of its dependencies are met, not any one; written as all of them");
}

std::string dependency_text(const std::vector<Dependency>& deps, bool any) {
  std::string out;
  for (const auto& [kind, ids] : dependencies_by_kind(deps)) {
    out += (out.empty() ? "" : any ? "?" : ",") + std::string(to_string(kind));
    if (kind == DependencyKind::Singleton) continue;  // names no job
    for (auto id : ids) out += ":" + std::to_string(id);
  }
  return out;
}

namespace {

// A path as written: pieces of its own text, and those `token` gave.
struct Piece {
  std::string text;
  bool token = false;
};

// The first of the reader's `words` it would find in the path's own text, reading the
// path as it does (left to right, at each place the first word that matches); "" for none.
std::string_view misread(const std::vector<Piece>& pieces, const std::vector<std::string_view>& words) {
  std::string all;
  std::vector<std::size_t> token_end;  // at the start of a token: where it ends
  for (const Piece& p : pieces) {
    const std::size_t start = all.size();
    all += p.text;
    token_end.resize(all.size(), 0);
    if (p.token && !p.text.empty()) token_end[start] = all.size();
  }
  for (std::size_t i = 0; i < all.size();) {
    std::string_view found;
    for (std::string_view word : words)
      if (!word.empty() && std::string_view(all).substr(i, word.size()) == word) {
        found = word;
        break;
      }
    if (token_end[i] > 0 && i + found.size() <= token_end[i]) {
      i = token_end[i];
    } else if (!found.empty()) {
      return found;
    } else {
      ++i;
    }
  }
  return {};
}

}  // namespace

std::string target_path(Writer& w, std::string_view option, std::string_view path, const TokenMap& token,
                        std::string_view percent, const std::vector<std::string_view>& read_as,
                        std::string (*literal)(std::string_view)) {
  std::vector<Piece> pieces;
  auto put = [&](std::string_view text, bool from_token) {
    if (!from_token && !pieces.empty() && !pieces.back().token) pieces.back().text += text;
    else pieces.push_back({std::string(text), from_token});
  };
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      put(path.substr(i, 1), false);
      continue;
    }
    const PatternSequence seq = read_pattern_sequence(path, i);
    if (seq.letter >= path.size()) {  // a '%' at the end stays one
      put(percent, false);
      break;
    }
    const char letter = path[seq.letter];
    const std::string written(path.substr(i, seq.letter + 1 - i));
    if (letter == '%') {
      put(percent, false);
    } else if (std::string note; auto t = token(letter, note)) {
      if (!note.empty()) w.lose(option, "--" + std::string(option) + " " + std::string(path), written + ": " + note);
      if (seq.width > 0 && w.title() != "Slurm")
        w.lose(option, "--" + std::string(option) + " " + std::string(path),
               written + ": " + std::string(w.title()) + " does not pad numbers; written unpadded");
      put(*t, true);
    } else {
      w.lose(option, "--" + std::string(option) + " " + std::string(path),
             written + " has no equivalent in " + std::string(w.title()) + "'s file names; left out of the path");
    }
    i = seq.letter;
  }
  if (const std::string_view word = misread(pieces, read_as); !word.empty())
    w.lose(option, "--" + std::string(option) + " " + std::string(path),
           std::string(w.title()) + " puts a value in for " + std::string(word) + " in a file name and has no way "
           "to keep it as written; written as it is");
  std::string out;
  for (const Piece& p : pieces) out += p.token || !literal ? p.text : literal(p.text);
  return out;
}

std::string mail_letters(Writer& w, std::string_view types) {
  std::string letters;
  for (std::string_view t : split(types, ',')) {
    const std::string upper = to_lower(t);
    const char* add = upper == "begin" ? "b" : upper == "end" ? "e" : upper == "fail" ? "a" : upper == "all" ? "abe"
                    : upper == "none" ? "n" : nullptr;
    if (!add) {
      w.lack("mail-type", "--mail-type " + std::string(t), "such mail");
      continue;
    }
    for (const char* c = add; *c; ++c)
      if (letters.find(*c) == std::string::npos) letters += *c;
  }
  if (letters.size() > 1 && letters.find('n') != std::string::npos) letters.erase(letters.find('n'), 1);
  return letters;
}

std::vector<std::string> listable(Writer& w, const Exports& e) {
  std::vector<std::string> out;
  for (const auto& v : e.variables) {
    if (v.find_first_of("'\"") != std::string::npos)
      w.lose("export", "--export " + v, std::string(w.title()) + "'s list of variables cannot hold quotes; left out");
    else if (trim(v).size() != v.size())  // the readers take blanks around an item for separators
      w.lose("export", "--export '" + v + "'", std::string(w.title()) + "'s list of variables drops blanks at an item's ends; left out");
    else
      out.push_back(v);
  }
  return out;
}

void mail_and_rerun_letters(Writer& w) {
  bool given = false;
  const std::string types = w.job.option("mail-type", &given);
  if (given)
    if (const std::string letters = mail_letters(w, types); !letters.empty()) w.add("-m " + letters);
  const std::string user = w.job.option("mail-user", &given);
  if (given) w.add("-M " + quoted(user));
  if (const auto& requeue = w.job.spec.requeue) w.add(std::string("-r ") + (*requeue ? "y" : "n"));
}

Exports exports_of(std::string_view text) {
  Exports e;
  e.all = false;
  for (std::string_view item : split(text, ',')) {
    if (item.empty()) continue;
    if (iequals(item, "ALL")) e.all = true;
    else if (iequals(item, "NONE") || iequals(item, "NIL")) e.none = true;
    else e.variables.emplace_back(item);
  }
  if (text.empty()) e.all = true;
  return e;
}

}  // namespace yard::jobtext
