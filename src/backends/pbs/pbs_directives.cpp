#include "backends/pbs/pbs_directives.h"

#include <cstdlib>
#include <optional>

#include "backends/pbs/pbs_lines.h"
#include "backends/pbs/pbs_paths.h"
#include "core/text.h"
#include "jobtext/directive_common.h"

namespace yard {
namespace {

using directives::ceil_div;
using directives::count;
using directives::kib;
using directives::kMaxCount;

class Translator {
 public:
  Translator(std::string_view origin, std::string_view script, bool (*is_directory)(const std::string&))
      : m_(origin, "#PBS"), script_(script), is_directory_(is_directory) {}
  directives::Messages m_;

  // One directive's words as qsub's getopt reads them (-Nname, -N name, -Vh); its
  // translation in `out`.
  Status line(const std::vector<std::string>& words, std::vector<std::string>& out) {
    static constexpr std::string_view kWithValue = "aAbcCdDeFjJklLmMNopPqrRStTuvwW";
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w.size() < 2 || w[0] != '-' || w == "--") {
        m_.warn("'" + w + "'", "not an option; qsub ignores it");
        continue;
      }
      for (std::size_t k = 1; k < w.size(); ++k) {
        const bool takes = kWithValue.find(w[k]) != std::string_view::npos;
        std::string value;
        if (takes && k + 1 < w.size()) value = w.substr(k + 1);
        else if (takes && i + 1 < words.size()) value = words[++i];
        else if (takes) return m_.fail(std::string("-") + w[k] + " option must have a value");
        if (auto s = option(w[k], value, out); !s) return s;
        if (takes) break;
      }
    }
    return {};
  }

  // What combines across lines: resources, array, files, exports, the account; each word
  // in book_ at the line that gave it (`last`: the last directive line).
  Status combined(int last) {
    auto put = [&](const char* what, std::string word) { book_.put(what, std::move(word), last); };
    auto add = [&](const char* flag, long long n) { put("shape", flag + std::to_string(n)); };
    if (select_line_ && nodes_line_) {
      m_.at(std::max(select_line_, nodes_line_));
      return m_.fail("-l select and -l nodes: qsub takes one or the other");
    }
    long long nodes = pack_ ? 1 : 0;
    if (select_line_) {
      add("--ntasks=", chunks_ * mpiprocs_);
      add("--cpus-per-task=", ceil_div(ncpus_, mpiprocs_));
      if (chunk_mem_ > 0) put("shape", "--mem-per-cpu=" + kib(ceil_div(chunk_mem_, ncpus_)));
      if (chunk_gpus_ > 0) add("--gpus=", chunks_ * chunk_gpus_);
      if (scatter_) nodes = chunks_;
    } else if (nodes_line_) {
      nodes = hosts_;
      add("--ntasks=", host_tasks_);
      if (host_gpus_ > 0) add("--gpus=", host_gpus_);
    } else {
      if (procs_ > 0) add("--ntasks=", procs_);
      if (job_ncpus_ > 0) add("--cpus-per-task=", job_ncpus_);
    }
    if (nodes > 0) add("--nodes=", nodes);
    if (job_gpus_ > 0 && chunk_gpus_ == 0 && host_gpus_ == 0) add("--gpus=", job_gpus_);
    // One memory request (yard's --mem and --mem-per-cpu exclude each other): the chunks',
    // else the job's, else a process's.
    if (job_mem_ > 0 && chunk_mem_ == 0) put("mem", "--mem=" + kib(ceil_div(job_mem_, nodes > 0 ? nodes : 1)));
    if (pmem_ > 0 && chunk_mem_ == 0 && job_mem_ == 0) put("pmem", "--mem-per-cpu=" + kib(pmem_));
    for (auto [line, name] : {std::pair{mem_line_, "mem"}, std::pair{pmem_line_, "pmem"}}) {
      if (!line || (chunk_mem_ == 0 && (name[0] == 'm' || job_mem_ == 0))) continue;
      m_.at(line);
      m_.warn(std::string("-l ") + name, chunk_mem_ > 0 ? "select's mem counts; ignored" : "-l mem counts; ignored");
    }
    if (excl_) put("exclusive", "--exclusive");
    if (walltime_ > 0) put("walltime", "--time=" + directives::sbatch_time(walltime_));
    if (!array_.empty()) put("array", "--array=" + array_);
    // -j oe: both streams in the output file; eo: both in the error file.
    const std::string& output = join_ == 'e' ? error_ : output_;
    if (!output.empty()) put(join_ == 'e' ? "error" : "output", "--output=" + file(output, join_ == 'e' ? "ER" : "OU"));
    if (!error_.empty() && join_ == 'n') put("error", "--error=" + file(error_, "ER"));
    std::string exports = exports_;
    if (script_.find("PBS_O_WORKDIR") != std::string_view::npos) {
      const std::string var = directives::directory_variable("PBS_O_WORKDIR", workdir_);
      if (!var.empty()) exports = var + (exports.empty() ? "" : "," + exports);
    }
    // qsub gives the job the caller's environment with -V only; without it, -v's list alone.
    if (!all_) put("export", "--export=" + (exports.empty() ? std::string("NONE") : exports));
    else if (!exports.empty()) put("export", "--export=ALL," + exports);
    if (!account_.empty() || !project_.empty()) put("account", "--account=" + (account_.empty() ? project_ : account_));
    return {};
  }
  directives::LineBook book_;

 private:
  // One option; `v` is its value ("" for an option that takes none).
  Status option(char opt, const std::string& v, std::vector<std::string>& out) {
    const std::string o = std::string("-") + opt;
    switch (opt) {
      case 'V': all_ = true, book_.note("export", m_.line()); return {};
      case 'f': case 'z': case 'x': return {};
      case 'n': return push(out, "--exclusive");
      case 'N': return push(out, "--job-name=" + v);
      case 'q': return push(out, "--partition=" + v.substr(0, v.find('@')));
      case 'A': account_ = v, book_.note("account", m_.line()); return {};
      case 'P': project_ = v, book_.note("account", m_.line()); return {};
      case 'l': return resources(v);
      case 'o': return book_.note("output", m_.line()), path(o, v, output_);
      case 'e': return book_.note("error", m_.line()), path(o, v, error_);
      case 'j':
        if (v != "oe" && v != "eo" && v != "n") return m_.fail("-j " + v + ": expected oe, eo or n");
        join_ = v == "n" ? 'n' : v[0];
        return {};
      case 'J': case 't':
        if (auto s = directives::check_array(v); !s) return m_.fail(o + " " + v + ": " + s.error());
        array_ = v;
        book_.note("array", m_.line());
        return {};
      case 'W': return attributes(v, out);
      case 'v': {
        auto vars = directives::variable_list(v);
        if (!vars) return m_.fail("-v " + v + ": " + vars.error());
        for (const auto& var : *vars) exports_ += (exports_.empty() ? "" : ",") + var;
        book_.note("export", m_.line());
        return {};
      }
      case 'm': {
        if (v == "n") return push(out, "--mail-type=NONE");
        std::string types;
        for (char c : v) {
          const char* t = c == 'a' || c == 'f' ? "FAIL" : c == 'b' ? "BEGIN" : c == 'e' ? "END" : nullptr;
          if (!t) return m_.fail("-m " + v + ": expected n or letters of abe");
          if (types.find(t) == std::string::npos) types += (types.empty() ? "" : ",") + std::string(t);
        }
        return push(out, "--mail-type=" + types);
      }
      case 'M': return push(out, "--mail-user=" + v);
      case 'r':
        if (v != "y" && v != "n") return m_.fail("-r " + v + ": expected y or n");
        return push(out, v == "y" ? "--requeue" : "--no-requeue");
      case 'p': {
        const long long n = count(v[0] == '-' || v[0] == '+' ? std::string_view(v).substr(1) : std::string_view(v));
        if (n < 0 || n > 1024 || v == "+1024") return m_.fail("-p " + v + ": expected a priority from -1024 to 1023");
        return push(out, "--priority=" + std::to_string(v[0] == '-' ? -n : n));
      }
      case 'd': return push(out, "--chdir=" + v);
      case 'w': workdir_ = v; return push(out, "--chdir=" + v);
      case 'S':
        if (!starts_with(script_, "#!" + v.substr(0, v.find('@'))))
          m_.warn("-S " + v, "the script runs with the interpreter of its #! line (/bin/sh without one)");
        return {};
      case 'k': case 'R': case 'c': case 'T': case 'L': case 'b':
        m_.warn(o + " " + v, "no equivalent in yard; ignored");
        return {};
      case 'u':
        if (const char* user = std::getenv("USER"); user && v == user) return {};
        return m_.fail("-u " + v + ": running as another user is not supported");
      case 'h': return m_.fail("-h: a job submitted on hold is not supported");
      case 'I': case 'X': case 'G': return m_.fail(o + ": interactive jobs are not supported");
      case 'a': return m_.fail("-a " + v + ": a job starting at a given time is not supported");
      case 'C': return m_.fail("-C: a directive prefix cannot be set in a script");
      case 'D': return m_.fail("-D " + v + ": a root directory for the job is not supported");
      case 'F': return m_.fail("-F: the script's arguments come from yard submit's command line");
      default: return m_.fail("unknown PBS option " + o);
    }
  }

  // -l NAME=VALUE[,NAME=VALUE...]: each name's last value counts.
  Status resources(const std::string& list) {
    for (std::string_view item : split(list, ',')) {
      const auto eq = item.find('=');
      if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
        return m_.fail("-l " + list + ": expected NAME=VALUE items");
      const std::string name(item.substr(0, eq)), value(item.substr(eq + 1)), at = "-l " + std::string(item) + ": ";
      if (name == "select" || name == "nodes") {
        if (auto s = name == "select" ? select(value) : torque_nodes(value); !s) return m_.fail(at + s.error());
        (name == "select" ? select_line_ : nodes_line_) = m_.line();
        book_.note("shape", m_.line());
      } else if (name == "place") {
        for (std::string_view p : split(value, ':')) {
          const bool arrangement = p == "scatter" || p == "vscatter" || p == "pack" || p == "free";
          if (arrangement) scatter_ = p.find("scatter") != std::string_view::npos;
          if (arrangement) pack_ = p == "pack";
          if (p == "excl" || p == "exclhost") excl_ = true, book_.note("exclusive", m_.line());
          else if (!arrangement && p != "shared") m_.warn("-l place=" + std::string(p), "a placement yard does not know; ignored");
        }
      } else if (name == "walltime") {
        if ((walltime_ = directives::clock_seconds(value)) <= 0)
          return m_.fail(at + "expected [[hours:]minutes:]seconds");
        book_.note("walltime", m_.line());
      } else if (name == "mem" || name == "pmem") {
        auto k = directives::size_kib(value, 1);  // PBS counts bytes when no unit is given
        if (!k) return m_.fail(at + "expected a size such as 4gb or 500mb");
        (name == "mem" ? job_mem_ : pmem_) = *k;
        (name == "mem" ? mem_line_ : pmem_line_) = m_.line();
        book_.note(name, m_.line());
      } else if (name == "ncpus" || name == "procs" || name == "ngpus" || name == "gpus") {
        const long long n = count(value);
        if (n < (name == "ngpus" || name == "gpus" ? 0 : 1)) return m_.fail(at + "expected a number");
        (name == "ncpus" ? job_ncpus_ : name == "procs" ? procs_ : job_gpus_) = n;
        if (!select_line_ && !nodes_line_) book_.note("shape", m_.line());
      } else if (name == "naccesspolicy" && (value == "singlejob" || value == "singleuser")) {
        excl_ = true;
        book_.note("exclusive", m_.line());
      } else {
        m_.warn("-l " + name, "a resource yard does not know; ignored");
      }
    }
    return {};
  }

  // select=[N:]chunk[+[N:]chunk...] with chunk RES=VALUE[:RES=VALUE], chunks of one shape.
  Status select(const std::string& value) {
    chunks_ = 0;
    for (std::string_view spec : split(value, '+')) {
      long long n = 1, ncpus = 1, mpiprocs = 1, mem = 0, gpus = 0;
      auto items = split(spec, ':');
      for (std::size_t k = 0; k < items.size(); ++k) {
        const auto eq = items[k].find('=');
        if (k == 0 && eq == std::string_view::npos && (n = count(items[k])) > 0) continue;
        if (eq == std::string_view::npos) return err("'" + std::string(items[k]) + "' is not RESOURCE=VALUE");
        const std::string_view name = items[k].substr(0, eq), v = items[k].substr(eq + 1);
        if (name == "mem") {
          auto size = directives::size_kib(v, 1);
          if (!size) return err("mem=" + std::string(v) + " is not a size");
          mem = *size;
        } else if (name == "ncpus" || name == "mpiprocs" || name == "ngpus") {
          const long long c = count(v);
          if (c < (name == "ngpus" ? 0 : 1))
            return err(std::string(items[k]) + ": expected a number" + (name == "ngpus" ? "" : " of at least 1"));
          (name == "ncpus" ? ncpus : name == "mpiprocs" ? mpiprocs : gpus) = c;
        } else if (name != "ompthreads") {
          m_.warn("-l select: " + std::string(name), "a resource yard does not know; ignored");
        }
      }
      if (chunks_ > 0 && (ncpus != ncpus_ || mpiprocs != mpiprocs_ || mem != chunk_mem_ || gpus != chunk_gpus_))
        return err("chunks of different shapes are not supported (a job of yard's has one shape of task)");
      if (chunks_ == 0 && ncpus % mpiprocs != 0)
        m_.warn("-l select", "ncpus=" + std::to_string(ncpus) + " does not divide among mpiprocs=" +
                                 std::to_string(mpiprocs) + "; each task gets " + std::to_string(ceil_div(ncpus, mpiprocs)));
      ncpus_ = ncpus, mpiprocs_ = mpiprocs, chunk_mem_ = mem, chunk_gpus_ = gpus;
      if ((chunks_ += n) > kMaxCount) return err("too many chunks");
    }
    return {};
  }

  // Torque's nodes=N[:ppn=C][:gpus=G][:property][+...]; a host named is one node.
  Status torque_nodes(const std::string& value) {
    hosts_ = host_tasks_ = host_gpus_ = 0;
    for (std::string_view spec : split(value, '+')) {
      auto items = split(spec, ':');
      long long n = count(items[0]), ppn = 1, gpus = 0;
      if (items[0].empty()) return err("expected a number of nodes");
      if (n <= 0) m_.warn("-l nodes=" + std::string(items[0]), "yard does not choose nodes by name; one node");
      for (std::size_t k = 1; k < items.size(); ++k) {
        const bool p = starts_with(items[k], "ppn="), g = starts_with(items[k], "gpus=");
        if (!p && !g) m_.warn("-l nodes: " + std::string(items[k]), "a node property yard does not match; ignored");
        if (!p && !g) continue;
        const long long c = count(items[k].substr(items[k].find('=') + 1));
        if (c < (p ? 1 : 0)) return err(std::string(items[k]) + ": expected a number" + (p ? " of at least 1" : ""));
        (p ? ppn : gpus) = c;
      }
      n = n <= 0 ? 1 : n;
      hosts_ += n, host_tasks_ += n * ppn, host_gpus_ += n * gpus;
      if (hosts_ > kMaxCount || host_tasks_ > kMaxCount || host_gpus_ > kMaxCount) return err("too many nodes");
    }
    return {};
  }

  // -W NAME=VALUE[,NAME=VALUE...]; a piece without NAME= continues the value before it
  // (depend=afterok:1,afterany:2).
  Status attributes(const std::string& list, std::vector<std::string>& out) {
    std::vector<std::string> items;
    for (std::string_view piece : split(list, ',')) {
      const auto eq = piece.find('=');
      if (items.empty() || (eq != std::string_view::npos && eq > 0 && eq < piece.find(':'))) items.emplace_back(piece);
      else items.back() += "," + std::string(piece);
    }
    for (const std::string& item : items) {
      const auto eq = item.find('=');
      const std::string name = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
      if (name == "depend") {
        auto d = directives::dependency(value);
        if (!d) return m_.fail("-W " + item + ": " + d.error());
        out.push_back("--dependency=" + *d);
      } else if (name == "block") {
        if (to_lower(value) == "true") out.push_back("--wait");
      } else if (name == "stagein" || name == "stageout") {
        return m_.fail("-W " + name + ": staging files in and out is not supported");
      } else if ((name == "interactive" && to_lower(value) != "false") || name == "pwd") {
        return m_.fail("-W " + name + ": interactive jobs and password prompts are not supported");
      } else {
        m_.warn("-W " + name, "no equivalent in yard; ignored");
      }
    }
    return {};
  }

  // -o/-e [host:]path: the host is where PBS copies the file at the end.
  Status path(const std::string& opt, const std::string& v, std::string& into) {
    const auto colon = v.find(':');
    const bool host = colon != std::string::npos && v.find('/') > colon;
    if (host) m_.warn(opt + " " + v, "the file is written where the job runs; '" + v.substr(0, colon + 1) + "' ignored");
    into = host ? v.substr(colon + 1) : v;
    if (into.empty()) return m_.fail(opt + " " + v + ": expected a path");
    return {};
  }

  std::string file(const std::string& raw, const char* suffix) const {
    // PBS Pro's JOBID.OU in a directory
    return directives::output_file(pbs_path_pattern(raw), raw, std::string("%j.") + suffix, is_directory_);
  }

  static Status push(std::vector<std::string>& out, std::string word) {
    out.push_back(std::move(word));
    return {};
  }

  std::string_view script_;
  bool (*is_directory_)(const std::string&);
  int select_line_ = 0, nodes_line_ = 0, mem_line_ = 0, pmem_line_ = 0;
  long long chunks_ = 0, ncpus_ = 1, mpiprocs_ = 1, chunk_mem_ = 0, chunk_gpus_ = 0;
  long long hosts_ = 0, host_tasks_ = 0, host_gpus_ = 0;
  long long walltime_ = 0, job_ncpus_ = 0, procs_ = 0, job_gpus_ = 0, job_mem_ = 0, pmem_ = 0;
  bool scatter_ = false, pack_ = false, excl_ = false, all_ = false;
  char join_ = 'n';
  std::string array_, output_, error_, exports_, account_, project_, workdir_;
};

}  // namespace

bool has_pbs_directives(std::string_view script) {
  for (std::string_view line : split(script, '\n')) {
    if (pbs_directive_text(line)) return true;
    if (pbs_is_command(line)) return false;
  }
  return false;
}

Result<TranslatedDirectives> read_pbs_directives(std::string_view script, std::string_view origin,
                                                 bool (*is_directory)(const std::string&)) {
  TranslatedDirectives out;
  out.directives.has_shebang = starts_with(script, "#!");
  auto lines = directives::script_lines(script, origin);
  if (!lines) return lines.failure();
  Translator t(origin, script, is_directory);
  std::string body;  // from the first command on
  int last = 0;
  for (std::size_t i = 0; i < lines->size(); ++i) {
    auto text = pbs_directive_text((*lines)[i]);
    if (!text && pbs_is_command((*lines)[i])) {
      for (; i < lines->size(); ++i) body += std::string((*lines)[i]) + "\n";
      break;
    }
    if (!text) continue;
    const int number = static_cast<int>(i) + 1;
    std::string joined(*text);
    // A directive ending in a backslash (blanks after it allowed) goes on with the next line.
    while (!trim(joined).empty() && trim(joined).back() == '\\' && i + 1 < lines->size()) {
      joined.resize(joined.find_last_of('\\'));
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
  if (auto s = t.combined(last); !s) return s.failure();
  if (last > 0) t.book_.into(out);
  directives::warn_unset_variables(body, {"PBS_JOBID", "PBS_JOBNAME", "PBS_ARRAY_INDEX", "PBS_ARRAYID", "PBS_NODEFILE",
      "PBS_NUM_NODES", "PBS_NUM_PPN", "PBS_NP", "PBS_TASKNUM", "PBS_QUEUE"},
      "yard's own are $YARD_JOB_ID, $YARD_JOB_NAME, $SLURM_ARRAY_TASK_ID, $YARD_NTASKS", t.m_);
  out.warnings = std::move(t.m_.warnings);
  out.outside_warnings = std::move(t.m_.outside);
  return out;
}

}  // namespace yard
