#include "cli/cli_markdown.h"

#include <span>
#include <vector>

#include "backends/all_languages.h"
#include "cli/cli_docs.h"
#include "core/setting_doc.h"
#include "flow/flow_keys.h"
#include "routes/routes_keys.h"
#include "sched/policy_keys.h"
#include "web/template_keys.h"

namespace yard {
namespace {

// Prose for Markdown: the characters that would start emphasis, a link, code or HTML are
// escaped, so that a help text shows as --help shows it.
std::string md(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '*' || c == '_' || c == '`' || c == '[' || c == ']' || c == '<' || c == '>' || c == '|' ||
        c == '#')
      out += '\\';
    out += c;
  }
  return out;
}

// A description as --help prints it: its first paragraph as prose, the rest (usage
// examples, lists aligned with blanks) verbatim in a text block.
std::string description(const std::string& d) {
  const auto cut = d.find('\n');
  std::string out = md(d.substr(0, cut)) + "\n";
  if (cut != std::string::npos) {
    std::string rest = d.substr(cut + 1);
    while (!rest.empty() && rest.back() == '\n') rest.pop_back();
    if (!rest.empty()) out += "\n```text\n" + rest + "\n```\n";
  }
  return out;
}

void options(std::string& out, const CLI::App& app, const std::string& heading) {
  const auto docs = option_docs(app);
  if (docs.empty()) return;
  out += heading + "\n\n";
  for (const auto& o : docs) {
    out += "- `";
    for (std::size_t i = 0; i < o.names.size(); ++i) out += (i ? ", " : "") + o.names[i];
    if (o.takes_value) out += " " + o.value_name;
    out += "`";
    if (!o.description.empty()) {
      std::string d = o.description;
      for (auto& c : d)
        if (c == '\n') c = ' ';
      out += ": " + md(d);
    }
    out += "\n";
  }
  out += "\n";
}

std::string command_page(const CliTree& tree, const CLI::App& sub) {
  const CLI::App& app = documented(tree, sub);
  std::string out = "# yard " + sub.get_name() + "\n\n" + description(app.get_description()) + "\n";
  const auto subs = visible_subcommands(sub);
  out += "```text\nyard " + sub.get_name() + " [OPTIONS]" + (subs.empty() ? "" : " COMMAND") + "\n```\n\n";
  options(out, app, "## Options");
  for (const auto* s : subs) {
    out += "## yard " + sub.get_name() + " " + s->get_name() + "\n\n" + description(s->get_description()) + "\n";
    options(out, *s, "Options:");
  }
  return out + "See also: [all commands](index.md), `man yard-" + sub.get_name() + "`.\n";
}

std::string index_page(const CliTree& tree) {
  const CLI::App& app = *tree.app;
  std::string out =
      "# Commands\n\nGenerated from yard's own option tables, as `--help`, the man pages and the shell "
      "completions are.\n\n" +
      description(app.get_description()) + "\n| command | what it does |\n|---|---|\n";
  for (const auto* s : visible_subcommands(app))
    out += "| [yard " + s->get_name() + "](yard-" + s->get_name() + ".md) | " + md(summary(*s)) + " |\n";
  out += "\n";
  options(out, app, "## Options of yard itself");
  out += "## Exit status\n\n" + md(exit_status_text()) + "\n\n## Environment\n\n`YARD_PATIENCE`: " + md(environment_text()) +
         "\n\n## Files\n\n" + md(files_text()) + "\n";
  return out;
}

void settings_table(std::string& out, std::span<const SettingDoc> table) {
  out += "| key | meaning | default |\n|---|---|---|\n";
  for (const auto& s : table)
    out += "| `" + std::string(s.key) + "` | " + md(std::string(s.meaning)) + " | " +
           (s.default_value.empty() ? std::string("none") : md(std::string(s.default_value))) + " |\n";
  out += "\n";
}

// Every settings file's keys, from the tables its reader checks keys against.
std::string settings_page() {
  std::string out =
      "# Settings files: every key\n\nGenerated from the tables yard's readers check keys against (a key not "
      "listed here is refused, naming the file, the line and the keys there are). Each file lives in "
      "`$XDG_CONFIG_HOME/switchyard/` (`~/.config/switchyard/`); [configuration files](configuration.md) says "
      "when they are read; routes.yaml and policy.yaml are also a site's, and workflow files and web templates are "
      "where their commands are given.\n\n## local.yaml\n\nThe machine as the local scheduler sees it.\n\n";
  settings_table(out, kLocalSettings);
  std::vector<std::string> files;
  for (const auto& l : all_script_languages().all())
    if (!l->settings_file().empty()) files.push_back("`" + std::string(l->settings_file()) + "`");
  out += "## Every cluster backend's file\n\nThe same keys in each of " + joined(files) +
         ": polling, throttles, failover and the direct modes.\n\n";
  settings_table(out, kClusterSettings);
  for (const auto& l : all_script_languages().all()) {
    if (l->own_settings().empty()) continue;
    out += "## " + std::string(l->settings_file()) + "\n\n" + std::string(l->title()) +
           "'s own keys, beside the cluster backends' above.\n\n";
    settings_table(out, l->own_settings());
  }
  out += "## routes.yaml\n\nWishes, size classes and targets ([routes](../ROUTES.md)): the site's "
         "(`/etc/switchyard/routes.yaml`), then the user's.\n\n";
  settings_table(out, kRoutesKeys);
  out += "### classes: NAME\n\nA class's limits.\n\n";
  settings_table(out, kRouteClassLimits);
  out += "### targets: BACKEND\n\n";
  settings_table(out, kRouteTargetKeys);
  out += "## policy.yaml\n\nThe local scheduler's policy, and the simulator's ([scheduling on one "
         "machine](../SCHEDULING.md)).\n\n";
  settings_table(out, sched::kPolicyKeys);
  const std::pair<const char*, std::span<const SettingDoc>> nested[] = {
      {"weights", sched::kPolicyWeightKeys}, {"fairshare", sched::kPolicyFairshareKeys}, {"age", sched::kPolicyAgeKeys},
      {"tiers: - (each)", sched::kPolicyTierKeys}, {"accounts: - (each)", sched::kPolicyAccountKeys},
      {"pools: - (each)", sched::kPolicyPoolKeys}};
  for (const auto& [heading, table] : nested) {
    out += "### " + std::string(heading) + "\n\n";
    settings_table(out, table);
  }
  out += "## A workflow file\n\nWhat `yard run FILE` reads ([workflows](../WORKFLOWS.md)).\n\n";
  settings_table(out, kFlowKeys);
  out += "### steps: - (each)\n\nBeside the job keys below.\n\n";
  settings_table(out, kFlowStepKeys);
  out += "### A step's job keys (and defaults:)\n\n";
  settings_table(out, kFlowJobKeys);
  out += "### retry:\n\n";
  settings_table(out, kFlowRetryKeys);
  out += "## A web template\n\nA form of the web platform, `TEMPLATES/NAME.yaml` ([the web platform](../WEB.md)).\n\n";
  settings_table(out, web::kTemplateKeys);
  out += "### fields: - (each)\n\n";
  settings_table(out, web::kTemplateFieldKeys);
  out += "### job:, and steps: - (each)\n\n";
  settings_table(out, web::kTemplateStepKeys);
  return out;
}

}  // namespace

Status write_markdown_reference(const CliTree& tree, const std::string& dir) {
  auto write = [&](const std::string& file, const std::string& text) { return write_text_file(dir + "/" + file, text); };
  if (auto s = write("index.md", index_page(tree)); !s) return s;
  if (auto s = write("../settings.md", settings_page()); !s) return s;
  for (const auto* sub : visible_subcommands(*tree.app))
    if (auto s = write("yard-" + sub->get_name() + ".md", command_page(tree, *sub)); !s) return s;
  return {};
}

}  // namespace yard
