// sacct: the accounting of the user's jobs on every backend, in Slurm's fields
// (--format names, widths with %N, -p/-P, -n, -X), over Slurm's default window (jobs of
// today unless -j names them; -S/-E otherwise). Without -X each job that started has its
// steps' lines too (12.batch, 12.extern), as Slurm prints them.
#include <getopt.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli/job_refs.h"
#include "cli/job_view.h"
#include "frontends/slurm/field_format.h"
#include "frontends/slurm/front.h"
#include "frontends/slurm/getopt_words.h"
#include "frontends/slurm/sacct_times.h"
#include "frontends/slurm/slurm_fields.h"
#include "frontends/slurm/slurm_states.h"

namespace yard::slurm_front {
namespace {

struct SacctField {
  const char* name;
  int width;  // negative: left-justified
  const char* field;
};

// sacct(1)'s fields yard can fill, with sacct's default widths, in sacct's order (its
// names' order: a prefix names the first it starts).
constexpr SacctField kFields[] = {
    {"Account", 10, "account"}, {"AllocCPUS", 10, "alloc_cpus"}, {"AllocNodes", 10, "nodes"},
    {"ArrayJobID", 15, "array_job_id"}, {"ArrayTaskID", 15, "array_task_id"}, {"Cluster", 10, "cluster"},
    {"CPUTime", 10, "cpu_time"}, {"DerivedExitCode", 15, "derived_exit_code"}, {"Elapsed", 10, "elapsed"},
    {"End", 19, "sacct_end"}, {"ExitCode", 8, "exit_code"}, {"JobID", -12, "array_id"},
    {"JobIDRaw", -12, "raw_id"}, {"JobName", 10, "name"}, {"MaxRSS", 10, "max_rss"},
    {"NCPUS", 10, "alloc_cpus"}, {"NNodes", 8, "nodes"}, {"NodeList", 15, "sacct_node_list"},
    {"Partition", 10, "partition"}, {"Priority", 10, "priority"}, {"QOS", 10, "qos"},
    {"Reason", 22, "reason"}, {"ReqCPUS", 8, "req_cpus"}, {"ReqMem", 10, "req_mem"},
    {"Start", 19, "sacct_start"}, {"State", 10, "sacct_state"}, {"Submit", 19, "submit_time"},
    {"Timelimit", 10, "sacct_time_limit"}, {"User", 9, "user"}, {"WorkDir", 20, "work_dir"}};

constexpr const char* kDefaultFields = "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode";
constexpr const char* kBriefFields = "JobID,State,ExitCode";
constexpr const char* kLongFields =
    "JobID,JobIDRaw,JobName,Partition,MaxRSS,CPUTime,ReqCPUS,AllocCPUS,Elapsed,State,ExitCode,NodeList,Submit,Start,End";

// sacct takes any prefix of a name, the first in its table's order ("state" is State,
// "a" Account, "node" NodeList).
const SacctField* field_of(const std::string& name) {
  if (name.empty()) return nullptr;
  for (const auto& f : kFields)
    if (strncasecmp(name.c_str(), f.name, name.size()) == 0) return &f;
  return nullptr;
}

// A step's line: the job's, but for its id, name and the fields a step has of its own.
JobRecord step_of(const JobRecord& j, const std::string& step) {
  JobRecord s = j;
  s.name = step;
  return s;
}

}  // namespace

int sacct_main(const Args& args) {
  std::string format, jobs_list, names, states, start_text, end_text, users, delimiter = "|";
  bool header = true, allocations = false, all_users = false;
  int parsable = 0;  // 1: -p (a trailing |), 2: -P
  auto operands = getopt_words(
      "sacct", args, "aA:bcDE:ej:lLM:nN:o:pPr:s:S:Tu:vVX",
      {{"allusers", no_argument, 'a'}, {"accounts", required_argument, 'A'}, {"brief", no_argument, 'b'},
       {"completion", no_argument, 'c'}, {"duplicates", no_argument, 'D'}, {"endtime", required_argument, 'E'},
       {"helpformat", no_argument, 'e'}, {"jobs", required_argument, 'j'}, {"long", no_argument, 'l'},
       {"allclusters", no_argument, 'L'}, {"clusters", required_argument, 'M'}, {"cluster", required_argument, 'M'},
       {"noheader", no_argument, 'n'}, {"nodelist", required_argument, 'N'}, {"format", required_argument, 'o'},
       {"fields", required_argument, 'o'}, {"parsable", no_argument, 'p'}, {"parsable2", no_argument, 'P'},
       {"partition", required_argument, 'r'}, {"state", required_argument, 's'}, {"starttime", required_argument, 'S'},
       {"truncate", no_argument, 'T'}, {"user", required_argument, 'u'}, {"verbose", no_argument, 'v'},
       {"version", no_argument, 'V'}, {"allocations", no_argument, 'X'}, {"name", required_argument, 256},
       {"delimiter", required_argument, 257}, {"units", required_argument, 258}, {"noconvert", no_argument, 259},
       {"help", no_argument, 260}, {"usage", no_argument, 261}},
      [&](int c, const std::string& v) {
        switch (c) {
          case 'a': all_users = true; break;
          case 'b': format = kBriefFields; break;
          case 'e':
            for (const auto& f : kFields) std::cout << f.name << "\n";
            std::exit(0);
          case 'E': end_text = v; break;
          case 'j': jobs_list += (jobs_list.empty() ? "" : ",") + v; break;
          case 'l': format = kLongFields; break;
          case 'n': header = false; break;
          case 'o': format += (format.empty() ? "" : ",") + v; break;
          case 'p': parsable = 1; break;
          case 'P': parsable = 2; break;
          case 's': states = v; break;
          case 'S': start_text = v; break;
          case 'u': users = v; break;
          case 'X': allocations = true; break;
          case 256: names = v; break;
          case 257: delimiter = v; break;
          case 'V': std::cout << "slurm 22.05.8 (yard front end)\n"; std::exit(0);
          case 260: case 261:
            std::cout << "Usage: sacct [-j jobs] [-o fields] [-S start] [-E end] [-s states] [--name names] [-X] [-n] "
                         "[-p|-P] [-u users]\n(Slurm's sacct over yard: docs/SLURM-COMMANDS.md)\n";
            std::exit(0);
          default: break;
        }
        return true;
      });
  if (!operands) return 1;
  auto items = parse_sacct_format(format.empty() ? kDefaultFields : format);
  if (!items) return fail("sacct", items.error());
  std::vector<const SacctField*> fields;  // each item's, found once for the whole listing
  for (auto& item : *items) {
    const SacctField* f = field_of(item.field);
    fields.push_back(f);
    if (!f) {
      std::cerr << "sacct: error: Invalid field requested: \"" << item.field << "\"\n";
      return 1;
    }
    if (!item.width) {
      item.width = std::abs(f->width);
      item.right = f->width > 0;
    }
  }
  const double now = wall_clock_now();
  auto window = sacct_window(start_text, end_text, !jobs_list.empty(), !states.empty(), now);
  if (!window) {
    if (window.error().rfind("Invalid time", 0) == 0) {  // Slurm's parse_time says it without a prefix
      std::cerr << window.error() << "\n";
      return 1;
    }
    return fail("sacct", window.error());
  }
  std::vector<JobRef> refs;
  if (!jobs_list.empty()) {
    auto parsed = parse_job_refs(comma_list(jobs_list));
    if (!parsed) return fail("sacct", "Invalid job id: " + parsed.error());
    refs = *parsed;
  }
  std::vector<JobState> wanted;
  if (!states.empty()) {
    auto s = yard_states_of(states);
    if (!s) {
      std::cerr << "sacct: fatal: unrecognized job state value '" << states << "'\n";
      return 1;
    }
    wanted = *s;
  }
  const std::string me = user_name();
  bool mine = users.empty() || all_users;
  for (const auto& u : comma_list(users)) mine = mine || u == me || u == std::to_string(::getuid());
  auto c = client("sacct");
  JobQuery query;
  if (!refs.empty()) query.ids = store_ids(refs);
  query.states = wanted;
  auto found = c.all_jobs(query);
  if (!found) return fail("sacct", found.error());
  std::vector<JobRecord> jobs = refs.empty() ? std::move(*found) : resolve_job_refs(refs, *found).jobs;
  const auto name_list = comma_list(names);
  const FieldContext ctx{now, me, host_name()};
  std::string out;
  auto line = [&](const std::vector<std::string>& values, bool mark_cut) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (parsable) {
        out += values[i];
        if (parsable == 1 || i + 1 < values.size()) out += delimiter;
      } else {
        out += fit(values[i], (*items)[i], mark_cut) + " ";
      }
    }
    out += "\n";
  };
  if (header) {
    std::vector<std::string> names_row, dashes;
    for (std::size_t i = 0; i < items->size(); ++i) {
      const auto& item = (*items)[i];
      names_row.push_back(fields[i]->name);
      dashes.push_back(std::string(static_cast<std::size_t>(*item.width), '-'));
    }
    line(names_row, false);
    if (!parsable) line(dashes, false);
  }
  for (const auto& j : jobs) {
    if (!mine) break;
    if (!name_list.empty() && std::find(name_list.begin(), name_list.end(), j.name) == name_list.end()) continue;
    if (!in_window(j, *window)) continue;
    std::vector<JobRecord> lines{j};
    if (!allocations && j.start_time) {
      lines.push_back(step_of(j, "batch"));
      lines.push_back(step_of(j, "extern"));
    }
    for (std::size_t k = 0; k < lines.size(); ++k) {
      std::vector<std::string> values;
      for (const SacctField* field : fields) {
        const std::string f = field->field;
        std::string v = field_value(f, lines[k], ctx).value_or("");
        if (k > 0 && (f == "array_id" || f == "raw_id")) v += "." + lines[k].name;
        if (k > 0 && (f == "partition" || f == "user" || f == "sacct_time_limit" || f == "req_mem")) v.clear();
        values.push_back(v);
      }
      line(values, true);
    }
  }
  std::cout << out;
  return 0;
}

}  // namespace yard::slurm_front
