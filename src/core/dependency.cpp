#include "core/dependency.h"

#include <charconv>

#include "core/text.h"

namespace yard {

std::string_view to_string(DependencyKind k) {
  switch (k) {
    case DependencyKind::AfterOk: return "afterok";
    case DependencyKind::AfterAny: return "afterany";
    case DependencyKind::AfterNotOk: return "afternotok";
    case DependencyKind::After: return "after";
    case DependencyKind::Singleton: return "singleton";
    case DependencyKind::AfterCorr: return "aftercorr";
  }
  return "afterany";
}

Result<DependencyKind> parse_dependency_kind(std::string_view text) {
  if (text == "afterok") return DependencyKind::AfterOk;
  if (text == "afterany") return DependencyKind::AfterAny;
  if (text == "afternotok") return DependencyKind::AfterNotOk;
  if (text == "after") return DependencyKind::After;
  if (text == "singleton") return DependencyKind::Singleton;
  if (text == "aftercorr") return DependencyKind::AfterCorr;
  if (text == "afterburstbuffer" || text == "expand")
    return err("dependency type '" + std::string(text) + "' is not supported");
  return err("unknown dependency type '" + std::string(text) + "' (accepted: after, afterok, afterany, afternotok, aftercorr, singleton)");
}

Result<std::vector<Dependency>> parse_dependencies(std::string_view text, bool* any) {
  std::vector<Dependency> out;
  auto bad = [&](const std::string& why) {
    return err("invalid dependency '" + std::string(text) + "': " + why +
               " (accepted: TYPE:ID[:ID...][,TYPE:ID...] with TYPE after, afterok, afterany, afternotok or aftercorr, "
               "and singleton)");
  };
  if (trim(text).empty()) return bad("empty");
  const bool or_list = text.find('?') != std::string_view::npos;
  if (or_list && !any) return bad("'?' (any of) is not supported");
  if (or_list && text.find(',') != std::string_view::npos)
    return bad("',' (all of) and '?' (any of) together; a list uses one of them");
  if (any) *any = or_list;
  for (std::string_view clause : split(trim(text), or_list ? '?' : ',')) {
    auto fields = split(clause, ':');
    auto kind = parse_dependency_kind(fields[0]);
    if (!kind) return bad(kind.error());
    if (*kind == DependencyKind::Singleton) {
      if (or_list) return bad("singleton in a '?' list");
      if (fields.size() > 1) return bad("singleton names no job");
      out.push_back({*kind, 0});
      continue;
    }
    if (fields.size() < 2) return bad("'" + std::string(clause) + "' names no job");
    for (std::size_t i = 1; i < fields.size(); ++i) {
      std::int64_t id = 0;
      auto f = fields[i];
      if (*kind == DependencyKind::After && f.find('+') != std::string_view::npos)
        return bad("'" + std::string(f) + "': a delay after the start (+MINUTES) is not supported");
      auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), id);
      if (f.empty() || ec != std::errc() || p != f.data() + f.size() || id <= 0)
        return bad("'" + std::string(f) + "' is not a job id");
      out.push_back({*kind, id});
    }
  }
  return out;
}

DependencyVerdict evaluate(DependencyKind kind, JobState parent) {
  if (kind == DependencyKind::After && parent == JobState::Running) return DependencyVerdict::Satisfied;
  if (!is_terminal(parent)) return DependencyVerdict::Waiting;
  const bool ok = parent == JobState::Completed;
  switch (kind) {
    case DependencyKind::AfterAny:
    case DependencyKind::After:  // ended without having started (cancelled): as Slurm
      return DependencyVerdict::Satisfied;
    case DependencyKind::Singleton: return DependencyVerdict::Waiting;  // resolved before
    case DependencyKind::AfterOk:
    case DependencyKind::AfterCorr:
      return ok ? DependencyVerdict::Satisfied : DependencyVerdict::NeverSatisfied;
    case DependencyKind::AfterNotOk: return ok ? DependencyVerdict::NeverSatisfied : DependencyVerdict::Satisfied;
  }
  return DependencyVerdict::Waiting;
}

}  // namespace yard
