#include "cli/cli_docs.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "backends/all_languages.h"
#include "cli/build_info.h"

namespace yard {
namespace {

// "slurm.yaml, ...": the settings files of the build's schedulers.
std::string settings_files() {
  std::vector<std::string> files;
  for (const auto& l : all_script_languages().all())
    if (!l->settings_file().empty()) files.emplace_back(l->settings_file());
  return joined(files);
}

// Text in roff: a backslash is \e, a line may not start with '.' or '\''.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string header(const std::string& name, const std::string& summary) {
  return ".TH \"" + upper(name) + "\" \"1\" \"\" \"switchyard " + build_info().version + "\" \"User Commands\"\n" +
         ".SH NAME\n" + roff(name) + " \\- " + roff(summary) + "\n";
}

// Each option of `app` as a tagged paragraph: its names in bold, its value in italics.
void option_entries(std::string& out, const CLI::App& app) {
  for (const auto& o : option_docs(app)) {
    out += ".TP\n";
    for (std::size_t i = 0; i < o.names.size(); ++i) out += (i ? ", " : "") + std::string("\\fB") + roff(o.names[i]) + "\\fR";
    if (o.takes_value) out += " \\fI" + roff(o.value_name) + "\\fR";
    out += "\n" + roff(o.description) + "\n";
  }
}

void options_section(std::string& out, const CLI::App& app) {
  if (option_docs(app).empty()) return;
  out += ".SH OPTIONS\n";
  option_entries(out, app);
}

// "server start" for the app `start` under `server`.
std::string command_path(const CLI::App& app) {
  std::string path;
  for (const CLI::App* a = &app; a && a->get_parent(); a = a->get_parent())
    path = a->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

// Each command path with what completes there.
struct Completion {
  std::string path;  // "" for yard itself, "server", "server start"
  std::vector<std::string> options, subcommands;
};

void collect(const CliTree& tree, const CLI::App& app, std::vector<Completion>& out) {
  Completion c;
  c.path = command_path(app);
  for (const auto& o : option_docs(documented(tree, app)))
    for (const auto& n : o.names) c.options.push_back(n);
  const auto subs = visible_subcommands(app);
  for (const auto* s : subs) c.subcommands.push_back(s->get_name());
  out.push_back(c);
  for (const auto* s : subs) collect(tree, *s, out);
}

std::string space_joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// Text inside a zsh single-quoted _arguments spec's [description].
std::string zsh_text(const std::string& text) {
  std::string out;
  for (char c : text.substr(0, text.find('\n'))) {
    if (c == '\'') out += "'\\''";
    else if (c == '[' || c == ']' || c == ':' || c == '\\') out += std::string("\\") + c;
    else out += c;
  }
  return out;
}

std::string zsh_function(const CliTree& tree, const CLI::App& app) {
  std::string path = command_path(app), name = "_yard";
  for (char c : path) name += c == ' ' || c == '-' ? '_' : c;
  const auto subs = visible_subcommands(app);
  std::string out = name + "() {\n  local curcontext=\"$curcontext\" state line\n  _arguments -C -s";
  for (const auto& o : option_docs(documented(tree, app)))
    for (const auto& n : o.names)
      out += " \\\n    '" + n + "[" + zsh_text(o.description) + "]" + (o.takes_value ? ":" + o.value_name + ":" : "") + "'";
  if (subs.empty()) {
    out += " \\\n    '*:file:_files'\n}\n";
    return out;
  }
  out += " \\\n    '1: :->command' \\\n    '*:: :->args'\n  case $state in\n    command)\n      local -a commands\n"
         "      commands=(";
  for (const auto* s : subs) out += "\n        '" + s->get_name() + ":" + zsh_text(summary(*s)) + "'";
  out += "\n      )\n      _describe -t commands 'yard" + (path.empty() ? "" : " " + path) +
         " command' commands ;;\n    args)\n      case $words[1] in\n";
  for (const auto* s : subs) {
    std::string sub_name = name + "_";
    for (char c : s->get_name()) sub_name += c == '-' ? '_' : c;
    out += "        " + s->get_name() + ") " + sub_name + " ;;\n";
  }
  out += "      esac ;;\n  esac\n}\n";
  for (const auto* s : subs) out += "\n" + zsh_function(tree, *s);
  return out;
}

}  // namespace

std::string exit_status_text() {
  return "0: success. 1: a job or the daemon failed (nothing was changed). 2: bad input (nothing was changed). 3: "
         "yard wait gave up (--timeout). 4: the daemon holds its state directory but did not answer within "
         "$YARD_PATIENCE seconds (600 by default; 0 waits for ever): whether the request was carried out is unknown, "
         "and yard status tells; do not simply retry.";
}

std::string environment_text() {
  return "How long a request that changes something (submit, cancel, stop) waits for a daemon that "
         "is alive but silent (stopped, or stalled on a hung disk), in seconds.";
}

std::string files_text(bool config) {
  if (!config)
    return "The store: every job and its history, its environment and script included: private to its user (0600, "
           "in a 0700 directory).";
  return "local.yaml and policy.yaml (the local scheduler), routes.yaml, and each scheduler's settings: " +
         settings_files() + ".";
}

std::string files_text() {
  return "$XDG_STATE_HOME/switchyard/store.db: " + files_text(false) + " $XDG_CONFIG_HOME/switchyard/: " +
         files_text(true);
}

std::string summary(const CLI::App& app) {
  const std::string d = app.get_description();
  return d.substr(0, d.find('\n'));
}

std::vector<OptionDoc> option_docs(const CLI::App& app) {
  std::vector<OptionDoc> out;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_positional() && o->get_snames().empty() && o->get_lnames().empty()) continue;
    OptionDoc d;
    for (const auto& s : o->get_snames()) d.names.push_back("-" + s);
    for (const auto& l : o->get_lnames()) d.names.push_back("--" + l);
    if (d.names.empty()) continue;
    d.takes_value = o->get_items_expected_max() != 0;  // a flag expects no value
    d.value_name = o->get_type_name().empty() ? "VALUE" : o->get_type_name();
    d.description = o->get_description();
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); });
}

std::string man_page(const CliTree& tree, const CLI::App* sub) {
  if (!sub) {
    const CLI::App& app = *tree.app;
    std::string out = header("yard", "one job interface for every batch scheduler, and a scheduler of its own");
    out += ".SH SYNOPSIS\n\\fByard\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.br\n\\fByard \\-\\-version\\fR [\\-\\-json]\n";
    out += ".SH DESCRIPTION\n" + roff(app.get_description()) + "\n";
    options_section(out, app);
    out += ".SH COMMANDS\n";
    for (const auto* s : visible_subcommands(app))
      out += ".TP\n\\fByard " + roff(s->get_name()) + "\\fR\n" + roff(summary(*s)) + " See \\fByard\\-" +
             roff(s->get_name()) + "\\fR(1).\n";
    out += ".SH EXIT STATUS\n" + roff(exit_status_text()) + "\n";
    out += ".SH ENVIRONMENT\n.TP\n\\fBYARD_PATIENCE\\fR\n" + roff(environment_text()) + "\n";
    out += ".SH FILES\n.TP\n\\fI$XDG_STATE_HOME/switchyard/store.db\\fR\n" + roff(files_text(false)) + "\n" +
           ".TP\n\\fI$XDG_CONFIG_HOME/switchyard/\\fR\n" + roff(files_text(true)) + "\n";
    out += ".SH SEE ALSO\n";
    bool first = true;
    for (const auto* s : visible_subcommands(app)) {
      out += std::string(first ? "" : ", ") + "\\fByard\\-" + roff(s->get_name()) + "\\fR(1)";
      first = false;
    }
    return out + "\n";
  }
  const CLI::App& app = documented(tree, *sub);
  const std::string name = "yard-" + sub->get_name();
  std::string out = header(name, summary(*sub));
  out += ".SH SYNOPSIS\n\\fByard " + roff(sub->get_name()) + "\\fR [\\fIOPTIONS\\fR]";
  const auto subs = visible_subcommands(*sub);
  if (!subs.empty()) out += " \\fICOMMAND\\fR";
  out += "\n.SH DESCRIPTION\n" + roff(app.get_description()) + "\n";
  options_section(out, app);
  if (!subs.empty()) {
    out += ".SH COMMANDS\n";
    for (const auto* s : subs) {
      out += ".SS \"yard " + roff(sub->get_name() + " " + s->get_name()) + "\"\n" + roff(s->get_description()) + "\n";
      option_entries(out, *s);
    }
  }
  return out + ".SH SEE ALSO\n\\fByard\\fR(1)\n";
}

Status write_text_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  if (!f.flush()) return err("cannot write " + path + ": " + std::strerror(errno));
  return {};
}

Status write_man_pages(const CliTree& tree, const std::string& dir) {
  auto write = [&](const std::string& file, const std::string& text) { return write_text_file(dir + "/" + file, text); };
  if (auto s = write("yard.1", man_page(tree, nullptr)); !s) return s;
  for (const auto* sub : visible_subcommands(*tree.app))
    if (auto s = write("yard-" + sub->get_name() + ".1", man_page(tree, sub)); !s) return s;
  return {};
}

std::string bash_completion(const CliTree& tree) {
  std::vector<Completion> all;
  collect(tree, *tree.app, all);
  std::string out =
      "# bash completion for yard (generated by `yard completion bash`)\n"
      "_yard() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} path='' next i opts subs\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    next=\"${path:+$path }${COMP_WORDS[i]}\"\n"
      "    case \"$next\" in\n";
  std::string paths;
  for (const auto& c : all)
    if (!c.path.empty()) paths += (paths.empty() ? "" : "|") + std::string("'") + c.path + "'";
  out += "      " + paths + ") path=$next ;;\n    esac\n  done\n  case \"$path\" in\n";
  for (const auto& c : all)
    out += "    '" + c.path + "') opts='" + space_joined(c.options) + "'; subs='" + space_joined(c.subcommands) + "' ;;\n";
  out +=
      "  esac\n"
      "  if [[ $cur == -* ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
      "  elif [[ -n $subs ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
      "  else\n"
      "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      "  fi\n"
      "}\n"
      "complete -o filenames -F _yard yard\n";
  return out;
}

std::string zsh_completion(const CliTree& tree) {
  return "#compdef yard\n# zsh completion for yard (generated by `yard completion zsh`)\n\n" +
         zsh_function(tree, *tree.app) + "\nif [ \"$funcstack[1]\" = \"_yard\" ]; then\n  _yard \"$@\"\nelse\n"
         "  compdef _yard yard\nfi\n";
}

}  // namespace yard
