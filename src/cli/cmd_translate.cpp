// yard translate: reads a batch script's directives as yard submit does and writes them
// for another scheduler, the body untouched; what the target cannot say is one warning
// line each on stderr (errors with --strict).
#include "cli/cmd_translate.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "jobtext/submit_internal.h"  // read_script
#include "core/byte_json.h"
#include "core/file_text.h"
#include "backends/all_languages.h"
#include "client/paths.h"
#include "translate/translate.h"

namespace yard {
namespace {

struct TranslateOptions {
  std::string to, from, output, script;
  bool strict = false, json = false;
};

bool is_directory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

// Writes `text` to `path`, executable when the script was (the target runs it as it is).
Status write_output(const std::string& path, const std::string& text, const std::string& script, bool script_target) {
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f.flush()) return err("cannot write " + path + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (script_target && ::stat(script.c_str(), &st) == 0 && (st.st_mode & 0111) != 0)
    ::chmod(path.c_str(), st.st_mode & 07777);
  return {};
}

nlohmann::json job_json(const translate::Job& job) {
  nlohmann::json j = job.spec;
  j.erase("env");
  j.erase("script");
  j.erase("argv");
  j.erase("workdir");
  j["chdir"] = bytes_to_json(job.chdir);
  j["export"] = bytes_to_json(job.exports);
  if (auto mode = job.spec.open_mode()) j["open_mode"] = *mode == OpenMode::Append ? "append" : "truncate";
  return j;
}

int run_translate(const TranslateOptions& o) {
  auto text = read_script(o.script);
  if (!text) {
    std::cerr << "yard translate: " << text.error() << "\n";
    return kExitBadInput;
  }
  // A site's settings for the target (its settings file's own keys), where the daemon
  // reads them.
  const std::string settings_dir = std::filesystem::path(default_paths().config).parent_path().string();
  translate::Request request{std::move(*text), o.script, o.from, o.to, o.output, settings_dir};
  auto t = translate::translate(all_script_languages(), request, [](const std::string& p) { return read_file(p); },
                                is_directory);
  if (!t) {
    std::cerr << "yard translate: " << t.error() << "\n";
    return kExitBadInput;
  }
  for (const auto& w : t->warnings) std::cerr << "yard translate: " << w << "\n";
  if (o.strict && t->losses > 0) {
    std::cerr << "yard translate: --strict: " << t->losses << " thing" << (t->losses == 1 ? "" : "s") << " "
              << all_script_languages().find(o.to)->title() << " cannot say; nothing written\n";
    return kExitBadInput;
  }
  const bool writes_script = all_script_languages().find(o.to)->writes_scripts();
  if (!o.output.empty()) {
    if (auto s = write_output(o.output, t->output, t->job.script_path, writes_script); !s) {
      std::cerr << "yard translate: " << s.error() << "\n";
      return 1;
    }
  }
  if (o.json) {
    nlohmann::json j = {{"from", t->from}, {"to", o.to}, {"output", bytes_to_json(t->output)},
                        {"warnings", byte_list_to_json(t->warnings)}, {"job", job_json(t->job)}};
    if (!writes_script) j["executable"] = bytes_to_json(t->job.script_path);
    std::cout << j.dump() << "\n";
  } else if (o.output.empty()) {
    std::cout << t->output;
  }
  return 0;
}

}  // namespace

void add_translate_command(CLI::App& app, int& rc) {
  auto o = std::make_shared<TranslateOptions>();
  const ScriptLanguages& languages = all_script_languages();
  std::string words;
  std::vector<std::string> said;  // a family's word once (two languages may share a prefix)
  for (const auto& l : languages.all()) {
    std::string word = std::string(l->directive_word()) + (l->reads_scripts() ? "" : " (" + std::string(l->title()) + ")");
    if (std::find(said.begin(), said.end(), word) != said.end()) continue;
    said.push_back(word);
    words += (words.empty() ? "" : ", ") + word;
  }
  CLI::App* cmd = app.add_subcommand(
      "translate",
      "Write a batch script for another scheduler: its directives (" + words +
          ") read as yard submit reads them and written in the target's words, every line after them copied byte "
          "for byte; what the target cannot say is one warning line each on stderr (FILE:LINE: OPTION VALUE: why), "
          "an error with --strict");
  std::string targets;
  for (const auto& l : languages.all())
    targets += (targets.empty() ? "" : ", ") + std::string(l->name()) + " (" + std::string(l->title()) +
               (l->writes_scripts() ? "" : ": a description whose executable is the script itself, unchanged") + ")";
  cmd->add_option("--to", o->to, "The scheduler to write for: " + targets)
      ->required()
      ->check(CLI::IsMember(languages.names()));
  std::string descriptions;  // the languages that describe a job apart from its script
  for (const auto& l : languages.all())
    if (!l->reads_scripts()) descriptions += (descriptions.empty() ? "" : ", ") + std::string(l->title()) + "'s";
  const std::string described = descriptions.empty() ? "" : " (or a job description: " + descriptions + ")";
  cmd->add_option("--from", o->from,
                  "The directives to read when the script has several kinds (default: the one it has" +
                      (descriptions.empty() ? std::string() : "; a job description is told by its contents") + ")")
      ->check(CLI::IsMember(languages.names()));
  cmd->add_flag("--strict", o->strict, "Fail (exit 2, nothing written) when the target cannot say something the script asks for");
  cmd->add_flag("--json", o->json,
                "Print {from, to, output, warnings, job} as JSON: the job's fields as yard submit --test-only --json "
                "resolves them");
  cmd->add_option("-o,--output", o->output, "Write the result to FILE (executable when the script is) instead of stdout");
  cmd->add_option("script", o->script, "The batch script" + described + " to translate")->required();
  std::string examples;
  for (const auto& l : languages.all())
    for (const auto& line : l->translate_examples()) examples += "  " + line + "\n";
  cmd->footer((examples.empty() ? std::string() : "Examples:\n" + examples) +
              "Exit status: 0 written; 1 the output file could not be written; 2 a bad script, an unknown kind, or with\n"
              "--strict something the target cannot say.");
  cmd->callback([o, &rc] { rc = run_translate(*o); });
}

}  // namespace yard
