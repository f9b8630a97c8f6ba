#include "cli/cli_tree.h"

#include "backends/all_languages.h"
#include "backends/backend_names.h"

#include "cli/cmd_sim.h"
#include "cli/cmd_translate.h"
#include "cli/commands.h"
#include "jobtext/submit_internal.h"

namespace yard {

std::unique_ptr<CliTree> make_cli_tree() {
  auto t = std::make_unique<CliTree>();
  t->app = std::make_unique<CLI::App>(
      "yard: submit, follow and manage jobs on the embedded local scheduler\n"
      "(flags as in Slurm: -n -c --mem -t -J -o -e -D --export -d -a --gpus)",
      "yard");
  CLI::App& app = *t->app;
  app.require_subcommand(1);
  // main() answers --version before parsing; declared so that --help lists it.
  app.add_flag("-V,--version", t->version,
               "Print the version, commit, build and the backends built in (--json: as JSON)");
  app.add_subcommand("submit", "Submit a job: yard submit [FLAGS] SCRIPT [ARGS] | yard submit [FLAGS] -- CMD [ARGS]"
                               " (yard submit --help for the flags)");
  const SubmitChoices choices{backend_names(), all_script_languages().script_names()};
  t->submit = submit_app(t->submit_flags, t->submit_json, choices);
  // main() hands `yard web ...` to yard-web (src/web/); declared so that --help lists it.
  app.add_subcommand("web", "The web platform: serve the API and the pages (yard web serve), manage its users "
                            "(yard web user add|list|remove|password); yard web --help for more");
  add_status_commands(app, t->rc);
  add_server_command(app, t->rc);
  add_run_command(app, t->rc);
  add_flow_command(app, t->rc);
  add_translate_command(app, t->rc);
  add_accounts_command(app, t->rc);
  add_routes_command(app, t->rc);
  add_watch_command(app, t->rc);
  add_slurm_commands_command(app, t->rc);
  add_sim_command(app);
  add_completion_command(app, *t);
  return t;
}

const CLI::App& documented(const CliTree& tree, const CLI::App& sub) {
  return sub.get_name() == "submit" ? *tree.submit : sub;
}

}  // namespace yard
