#include "server/step_packing.h"

#include <filesystem>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/output_pattern.h"
#include "core/shell_quote.h"
#include "core/shell_words.h"

namespace yard {

bool may_pack(const SubmitManyRequest::Job& job) {
  const JobSpec& s = job.spec;
  return !job.pack.empty() && !job.own_env && !s.argv.empty() && s.script.empty() && !s.array &&
         s.components.empty() && !s.retry && !s.dependency_any && s.stderr_path.empty() && !s.stdout_path.empty() &&
         s.stdout_path.find('%') == std::string::npos;
}

std::string log_directory(const JobSpec& s) { return std::filesystem::path(s.stdout_path).parent_path().string(); }

std::string pack_signature(const SubmitManyRequest::Job& job) {
  nlohmann::json j = job.spec;
  j.erase("name");
  j.erase("argv");
  j.erase("stdout");
  j.erase("env");
  std::string needs;
  for (auto n : job.needs) needs += std::to_string(n) + ",";
  std::string sig = job.pack;
  sig += '\0';
  sig += job.job_class;
  sig += '\0';
  sig += needs;
  sig += '\0';
  sig += log_directory(job.spec);
  sig += '\0';
  sig += j.dump();
  return sig;
}

std::vector<std::vector<std::size_t>> find_packs(const SubmitManyRequest& r, const std::vector<bool>& candidates) {
  std::unordered_map<std::string, std::size_t> by_signature;  // to its group
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    if (!candidates[i] || !may_pack(r.jobs[i])) continue;
    auto [it, fresh] = by_signature.try_emplace(pack_signature(r.jobs[i]), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<std::vector<std::size_t>> packs;
  for (auto& g : groups)
    for (std::size_t at = 0; at < g.size(); at += kMaxPack) {
      const std::size_t end = std::min(g.size(), at + kMaxPack);
      if (end - at >= 2) packs.emplace_back(g.begin() + static_cast<std::ptrdiff_t>(at), g.begin() + static_cast<std::ptrdiff_t>(end));
    }
  return packs;
}

JobSpec packed_spec(const SubmitManyRequest& r, const std::vector<std::size_t>& pack) {
  const SubmitManyRequest::Job& first = r.jobs[pack.front()];
  JobSpec s = first.spec;
  s.name = first.pack;
  s.argv.clear();
  // Each element runs its own step's command, as that step would have alone (exec: its
  // exit status and signals are the step's).
  std::string script = "#!/bin/bash\n# " + std::to_string(pack.size()) + " steps of " + bash_quote(first.pack) +
                       ", one per element\ncase \"$SLURM_ARRAY_TASK_ID\" in\n";
  s.array = ArraySpec{};
  for (std::size_t k = 0; k < pack.size(); ++k) {
    const auto index = static_cast<std::int64_t>(k + 1);
    s.array->indices.push_back(index);
    script += std::to_string(index) + ") exec";
    for (const auto& word : without_needless_shell(r.jobs[pack[k]].spec.argv)) script += " " + bash_quote(word);
    script += " ;;\n";
  }
  script += "*) echo \"no step for element $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n";
  s.script = std::move(script);
  s.stdout_path = log_directory(first.spec) + "/" + name_in_pattern(first.pack) + "_%a.out";
  return s;
}

}  // namespace yard
