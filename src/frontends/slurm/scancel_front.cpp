// scancel: jobs by id (12, 12_3, a whole array by its id), by --name, --user/--me or
// --state, cancelled through yard whatever their backend. Silent on success, as scancel;
// an id that names no job is quiet (as scancel's for a purged job) unless -v or a filter
// is given: "scancel: error: Kill job error on job id N: Invalid job id specified", and
// with a filter exit 1, once every other job was cancelled.
#include <getopt.h>

#include <iostream>

#include "cli/job_refs.h"
#include "frontends/slurm/front.h"
#include "frontends/slurm/getopt_words.h"
#include "frontends/slurm/slurm_states.h"

namespace yard::slurm_front {

int scancel_main(const Args& args) {
  std::string name, user, states;
  bool me = false, verbose = false;
  auto operands = getopt_words(
      "scancel", args, "bfiM:n:p:Qs:t:u:vVw:", {{"batch", no_argument, 'b'}, {"clusters", required_argument, 'M'},
       {"cluster", required_argument, 'M'}, {"full", no_argument, 'f'}, {"interactive", no_argument, 'i'},
       {"name", required_argument, 'n'}, {"jobname", required_argument, 'n'}, {"partition", required_argument, 'p'},
       {"quiet", no_argument, 'Q'}, {"signal", required_argument, 's'}, {"state", required_argument, 't'},
       {"user", required_argument, 'u'}, {"me", no_argument, 256}, {"verbose", no_argument, 'v'},
       {"version", no_argument, 'V'}, {"nodelist", required_argument, 'w'}},
      [&](int c, const std::string& v) {
        switch (c) {
          case 'n': name = v; break;
          case 'u': user = v; break;
          case 256: me = true; break;
          case 't': states = v; break;
          case 's':
            if (v != "KILL" && v != "SIGKILL" && v != "9" && v != "TERM" && v != "SIGTERM" && v != "15") {
              std::cerr << "scancel: error: --signal=" << v << ": only cancelling jobs (KILL, TERM) is supported by yard\n";
              return false;
            }
            break;
          case 'v': verbose = true; break;
          default: break;  // clusters, batch, full, quiet: nothing to change here
        }
        return true;
      });
  if (!operands) return 1;
  if (operands->empty() && name.empty() && user.empty() && !me && states.empty())
    return fail("scancel", "No job identification provided");
  auto refs = parse_job_refs(*operands);
  if (!refs) return fail("scancel", "Invalid job id " + refs.error());
  if (!user.empty() && user != user_name()) return 0;  // yard's daemon holds this user's jobs only
  auto c = client("scancel");
  JobQuery query;
  if (!refs->empty()) query.ids = store_ids(*refs);
  query.name = name;
  if (!states.empty()) {
    auto s = yard_states_of(states);
    if (!s) return fail("scancel", s.error());
    query.states = *s;
  }
  auto found = c.all_jobs(query);
  if (!found) return fail("scancel", found.error());
  std::vector<std::int64_t> ids;
  int rc = 0;
  if (refs->empty()) {
    for (const auto& j : *found) ids.push_back(j.id);
  } else {
    auto resolved = resolve_job_refs(*refs, *found);
    for (const auto& j : resolved.jobs) ids.push_back(j.id);
    // scancel ID of a job unknown or already ended is quiet and a success (-v says so);
    // with a filter it is an error.
    const bool filtered = !name.empty() || !user.empty() || me || !states.empty();
    for (const auto& r : resolved.unknown) {
      if (filtered || verbose)
        std::cerr << "scancel: error: Kill job error on job id " << r.text << ": Invalid job id specified\n";
      if (filtered) rc = 1;
    }
  }
  if (!ids.empty())
    if (auto done = c.cancel(CancelRequest{ids}); !done) return fail("scancel", done.error());
  return rc;
}

}  // namespace yard::slurm_front
