// squeue: the user's jobs on every backend, in Slurm's columns (-o letters, -O names,
// the default and -l formats), filtered as squeue filters: by default the jobs not yet
// ended; -t all or an end state also shows jobs that ended within the last 300 s (Slurm's
// MinJobAge: how long slurmctld keeps them); -j shows the jobs named whatever their state.
// Pending elements of an array are one line, 12_[3-9], unless -r.
#include <getopt.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include "cli/job_refs.h"
#include "cli/job_view.h"
#include "frontends/slurm/field_format.h"
#include "frontends/slurm/front.h"
#include "frontends/slurm/getopt_words.h"
#include "frontends/slurm/slurm_fields.h"
#include "frontends/slurm/slurm_states.h"

namespace yard::slurm_front {
namespace {

constexpr double kMinJobAge = 300;
constexpr const char* kDefaultFormat = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";
constexpr const char* kLongFormat = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";

struct Column {
  const char* letter;
  const char* name;    // squeue -O's
  const char* header;
  const char* field;   // slurm_fields.h's
};

// squeue(1): each -o letter and -O name with its header.
constexpr Column kColumns[] = {
    {"i", "JobArrayID", "JOBID", "array_id"},          {"A", "JobID", "JOBID", "raw_id"},
    {"F", "ArrayJobID", "ARRAY_JOB_ID", "array_job_id"}, {"K", "ArrayTaskID", "ARRAY_TASK_ID", "array_task_id"},
    {"j", "Name", "NAME", "name"},                     {"u", "UserName", "USER", "user"},
    {"t", "StateCompact", "ST", "state_compact"},      {"T", "State", "STATE", "state"},
    {"M", "TimeUsed", "TIME", "time_used"},            {"l", "TimeLimit", "TIME_LIMIT", "time_limit"},
    {"L", "TimeLeft", "TIME_LEFT", "time_left"},       {"D", "NumNodes", "NODES", "nodes"},
    {"R", "ReasonList", "NODELIST(REASON)", "reason_list"}, {"r", "Reason", "REASON", "reason"},
    {"N", "NodeList", "NODELIST", "node_list"},        {"P", "Partition", "PARTITION", "partition"},
    {"C", "NumCPUs", "CPUS", "cpus"},                  {"a", "Account", "ACCOUNT", "account"},
    {"q", "QOS", "QOS", "qos"},                        {"S", "StartTime", "START_TIME", "start_time"},
    {"V", "SubmitTime", "SUBMIT_TIME", "submit_time"}, {"e", "EndTime", "END_TIME", "end_time"},
    {"Z", "WorkDir", "WORK_DIR", "work_dir"},          {"o", "Command", "COMMAND", "command"},
    {"m", "MinMemory", "MIN_MEMORY", "min_memory"},    {"Q", "Priority", "PRIORITY", "priority"},
    {"b", "tres-per-node", "TRES_PER_NODE", "tres_per_node"}};

const Column* column_of(const FieldItem& item, bool named) {
  for (const auto& c : kColumns) {
    if (!named && item.field == c.letter) return &c;
    if (named && strcasecmp(item.field.c_str(), c.name) == 0) return &c;
  }
  return nullptr;
}

// Pending elements of one array as one record, its id text 12_[3-5,7].
struct Row {
  JobRecord job;
  std::string id_text;  // "" : the job's own
};

std::string index_ranges(const std::vector<std::int64_t>& indices) {
  std::string out;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t k = i;
    while (k + 1 < indices.size() && indices[k + 1] == indices[k] + 1) ++k;
    if (!out.empty()) out += ",";
    out += std::to_string(indices[i]) + (k > i ? "-" + std::to_string(indices[k]) : "");
    i = k + 1;
  }
  return out;
}

std::vector<Row> rows_of(const std::vector<JobRecord>& jobs, bool expand_arrays) {
  std::vector<Row> rows;
  std::map<std::int64_t, std::size_t> pending_array;  // array id -> its row
  std::map<std::int64_t, std::vector<std::int64_t>> indices;
  for (const auto& j : jobs) {
    const bool collapsible = !expand_arrays && j.array_index && !j.start_time && slurm_state(j) == "PENDING";
    if (!collapsible) {
      rows.push_back({j, ""});
      continue;
    }
    const auto array = j.array_job_id.value_or(j.id);
    indices[array].push_back(*j.array_index);
    if (!pending_array.count(array)) {
      pending_array[array] = rows.size();
      rows.push_back({j, ""});
    }
  }
  for (auto& [array, at] : pending_array) {
    auto& idx = indices[array];
    if (idx.size() > 1) rows[at].id_text = std::to_string(array) + "_[" + index_ranges(idx) + "]";
  }
  return rows;
}

}  // namespace

int squeue_main(const Args& args) {
  std::string format, named_format, states, names, users, partitions, jobs_list;
  bool header = true, me = false, expand = false, long_format = false, jobs_given = false;
  int iterate = 0;
  auto operands = getopt_words(
      "squeue", args, "A:ahHi:j::lLM:n:o:O:p:Pq:rR:sS:t:u:vVw:",
      {{"account", required_argument, 'A'}, {"all", no_argument, 'a'}, {"noheader", no_argument, 'h'},
       {"hide", no_argument, 'H'}, {"iterate", required_argument, 'i'}, {"jobs", optional_argument, 'j'},
       {"long", no_argument, 'l'}, {"licenses", required_argument, 'L'}, {"clusters", required_argument, 'M'},
       {"cluster", required_argument, 'M'}, {"name", required_argument, 'n'}, {"format", required_argument, 'o'},
       {"Format", required_argument, 'O'}, {"partition", required_argument, 'p'}, {"priority", no_argument, 'P'},
       {"qos", required_argument, 'q'}, {"array", no_argument, 'r'}, {"reservation", required_argument, 'R'},
       {"steps", optional_argument, 's'}, {"sort", required_argument, 'S'}, {"states", required_argument, 't'},
       {"state", required_argument, 't'}, {"user", required_argument, 'u'}, {"verbose", no_argument, 'v'},
       {"version", no_argument, 'V'}, {"nodelist", required_argument, 'w'}, {"me", no_argument, 256},
       {"noconvert", no_argument, 257}, {"federation", no_argument, 258}, {"local", no_argument, 259},
       {"sibling", no_argument, 260}, {"help", no_argument, 261}, {"usage", no_argument, 262}},
      [&](int c, const std::string& v) {
        switch (c) {
          case 'h': header = false; break;
          case 'i': iterate = std::max(1, std::atoi(v.c_str())); break;
          case 'j': jobs_given = true; jobs_list += (jobs_list.empty() ? "" : ",") + v; break;
          case 'l': long_format = true; break;
          case 'n': names = v; break;
          case 'o': format = v; break;
          case 'O': named_format = v; break;
          case 'p': partitions = v; break;
          case 'r': expand = true; break;
          case 't': states = v; break;
          case 'u': users = v; break;
          case 256: me = true; break;
          case 'V': std::cout << "slurm 22.05.8 (yard front end)\n"; std::exit(0);
          case 261: case 262:
            std::cout << "Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid] [-n name] "
                         "[-o format] [-O fields] [-p partitions] [--qos qos] [-r] [-t states] [-u user_name] [--me] "
                         "[--noheader] [-l]\n(Slurm's squeue over yard: docs/SLURM-COMMANDS.md)\n";
            std::exit(0);
          default: break;
        }
        return true;
      });
  if (!operands) return 1;
  for (const auto& extra : *operands) jobs_list += (jobs_list.empty() ? "" : ",") + extra, jobs_given = true;
  const std::string me_name = user_name();
  if (!users.empty()) {
    // Every job of yard's daemon is this user's: another user's list shows none. An
    // unknown name is said, as squeue says it, and matches nothing.
    bool ours = false;
    for (const auto& u : comma_list(users)) {
      if (u == me_name || u == std::to_string(::getuid())) ours = true;
      else if (!user_exists(u)) std::cerr << "squeue: error: Invalid user: " << u << "\n\n";
    }
    if (!ours) users = "-";
  }
  std::vector<FieldItem> items;
  const bool named = !named_format.empty();
  if (named) {
    auto parsed = parse_named_format(named_format, 20);
    if (!parsed) return fail("squeue", parsed.error());
    items = *parsed;
  } else {
    items = parse_percent_format(!format.empty() ? format : long_format ? kLongFormat : kDefaultFormat);
  }
  std::vector<JobRef> refs;
  if (jobs_given) {
    auto parsed = parse_job_refs(comma_list(jobs_list));
    if (!parsed) return fail("squeue", "Invalid job id: " + parsed.error());
    refs = *parsed;
  }
  std::vector<JobState> wanted;
  if (!states.empty()) {
    auto s = yard_states_of(states);
    if (!s) return fail("squeue", s.error());
    wanted = *s;
  }
  auto c = client("squeue");
  for (;;) {
    JobQuery query;
    if (!refs.empty()) query.ids = store_ids(refs);
    // No -t: the jobs not ended, -j or not (squeue's default filter applies to -j too).
    query.states = wanted.empty() ? std::vector<JobState>{JobState::Pending, JobState::Running, JobState::Unknown} : wanted;
    if (refs.size() == 1) query.states.clear();  // one id: known or not, said below
    auto found = c.all_jobs(query);
    if (!found) return fail("squeue", found.error());
    std::vector<JobRecord> jobs;
    const double now = wall_clock_now();
    if (!refs.empty()) {
      auto resolved = resolve_job_refs(refs, *found);
      // One id squeue asks slurmctld for alone: unknown, or gone from its memory, is an error.
      if (refs.size() == 1 && std::none_of(resolved.jobs.begin(), resolved.jobs.end(), [&](const JobRecord& j) {
            return !slurm_ended(j) || now - j.end_time.value_or(now) <= kMinJobAge;
          })) {
        std::cerr << "slurm_load_jobs error: Invalid job id specified\n";
        return 1;
      }
      jobs = std::move(resolved.jobs);
      if (wanted.empty())
        jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [](const JobRecord& j) { return slurm_ended(j); }), jobs.end());
    } else {
      jobs = std::move(*found);
    }
    const FieldContext ctx{now, me_name, host_name()};
    std::vector<JobRecord> shown;
    const auto name_list = comma_list(names), partition_list = comma_list(partitions);
    for (auto& j : jobs) {
      if (users == "-") break;
      if (slurm_ended(j) && ctx.now - j.end_time.value_or(0) > kMinJobAge) continue;
      if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), j.state) == wanted.end()) continue;
      if (!name_list.empty() && std::find(name_list.begin(), name_list.end(), j.name) == name_list.end()) continue;
      if (!partition_list.empty() && std::find(partition_list.begin(), partition_list.end(), j.backend) == partition_list.end())
        continue;
      shown.push_back(std::move(j));
    }
    std::string out;
    // Each item's column, found once for the whole listing.
    std::vector<const Column*> columns;
    for (const auto& item : items) columns.push_back(item.field.empty() ? nullptr : column_of(item, named));
    if (header) {
      for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        if (item.field.empty()) { out += item.literal; continue; }
        const Column* col = columns[i];
        out += fit(col ? col->header : (named ? item.field : std::string()), item) + item.suffix;
      }
      out += "\n";
    }
    for (const auto& row : rows_of(shown, expand)) {
      for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        if (item.field.empty()) { out += item.literal; continue; }
        const Column* col = columns[i];
        std::string value;
        if (col) value = std::string(col->field) == "array_id" && !row.id_text.empty() ? row.id_text
                                                                                        : field_value(col->field, row.job, ctx).value_or("");
        const std::string f = col ? col->field : "";
        const bool overflows = f == "node_list" || f == "time_used" || f == "time_limit" || f == "time_left" ||
                               (f == "reason_list" && !value.empty() && value[0] != '(');
        out += fit(value, item, false, !overflows) + item.suffix;
      }
      out += "\n";
    }
    std::cout << out << std::flush;
    if (!iterate) return 0;
    std::this_thread::sleep_for(std::chrono::seconds(iterate));
    std::cout << "\n";
  }
}

}  // namespace yard::slurm_front
