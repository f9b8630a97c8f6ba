// Splitting `yard submit`'s words: flags from the script or program, heterogeneous
// components at lone ':' words, MPMD app contexts. Pure.
#include "jobtext/submit_internal.h"

#include "core/sbatch_options.h"

namespace yard {
namespace {

std::string empty_component(std::size_t k) {
  return "component " + std::to_string(k) +
         " of the heterogeneous job is empty: give its flags between the ':' separators, "
         "e.g. yard submit -p cpu -n 2 : -p gpu --gpus 1 -- cmd";
}

}  // namespace

bool takes_value(const std::string& flag) {
  if (flag.find('=') != std::string::npos) return false;
  if (flag.size() > 2 && flag[1] == '-') {
    const std::string_view name = std::string_view(flag).substr(2);
    for (auto own : kFlagsWithoutValue)
      if (name == own) return false;
    if (const SbatchOption* o = find_sbatch_option(name)) return o->value == SbatchValue::Required;
    return true;  // yard's own flags take one (an abbreviation is taken for one that does)
  }
  if (flag.size() != 2) return false;  // -n2: glued
  if (flag == "-h") return false;
  for (const auto& o : sbatch_options())
    if (o.short_name == flag[1]) return o.value == SbatchValue::Required;
  return true;
}

std::size_t flags_end(const std::vector<std::string>& words) {
  bool value_next = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (value_next) {
      value_next = false;
    } else if (w == ":") {
      continue;
    } else if (w.size() > 1 && w[0] == '-') {
      value_next = takes_value(w);
    } else {
      return i;
    }
  }
  return words.size();
}

bool wants_mpirun(const std::vector<std::string>& args) {
  const std::size_t end = flags_end(args);
  for (std::size_t i = 0; i < end; ++i) {
    if (args[i] == "--launcher=mpirun") return true;
    if (args[i] == "--launcher" && i + 1 < end && args[i + 1] == "mpirun") return true;
  }
  return false;
}

std::vector<std::vector<std::string>> split_app_contexts(const std::vector<std::string>& args) {
  std::vector<std::vector<std::string>> contexts(1);
  for (auto& w : args) {
    if (w == ":") contexts.emplace_back();
    else contexts.back().push_back(w);
  }
  return contexts;
}

Result<std::vector<std::vector<std::string>>> split_components(const std::vector<std::string>& args) {
  std::vector<std::vector<std::string>> groups(1);
  bool value_next = false;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& w = args[i];
    if (value_next) {
      value_next = false;
    } else if (w == ":") {
      groups.emplace_back();
      continue;
    } else if (w.size() > 1 && w[0] == '-') {
      value_next = takes_value(w);
    } else {
      break;  // the script: it and its arguments are the last group's
    }
    groups.back().push_back(w);
  }
  for (; i < args.size(); ++i) groups.back().push_back(args[i]);
  if (groups.size() > 1)
    for (std::size_t k = 0; k < groups.size(); ++k)
      if (groups[k].empty()) return err(empty_component(k));
  return groups;
}

}  // namespace yard
