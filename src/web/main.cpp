// yard-web (run as `yard web ...`): the web platform's service and its admin commands.
//   yard web serve [--listen HOST:PORT] [--site DIR] [--templates DIR] [--static DIR]
//   yard web user add NAME [--admin] [--account A] [--password-stdin]
//   yard web user list | remove NAME | password NAME [--password-stdin]
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "web/secrets.h"
#include "web/server.h"

namespace yard::web {
namespace {

namespace fs = std::filesystem;

std::string default_site_dir() { return default_paths().state_dir + "/web"; }
std::string default_templates_dir() { return default_paths().config + "/web/templates"; }

// The built pages: beside this program in a build tree (build/web/dist), or where the
// package installs them.
std::string default_static_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec).parent_path();
  for (const fs::path& dir : {self / ".." / ".." / "web" / "dist", self / ".." / ".." / "share" / "switchyard" / "web",
                              self / ".." / "share" / "switchyard" / "web"})
    if (fs::exists(dir / "index.html", ec)) return fs::weakly_canonical(dir, ec).string();
  return "";
}

// The password: read from standard input (one line) or asked for twice at a terminal.
std::optional<std::string> read_password(bool from_stdin) {
  std::string password;
  if (from_stdin || !isatty(0)) {
    if (!std::getline(std::cin, password)) return std::nullopt;
    return password;
  }
  const char* first = getpass("password: ");
  if (!first) return std::nullopt;
  password = first;
  const char* again = getpass("again: ");
  if (!again || password != again) {
    std::cerr << "yard web: the two passwords differ\n";
    return std::nullopt;
  }
  return password;
}

Result<std::unique_ptr<WebDb>> open_site_db(const std::string& site_dir) {
  std::error_code ec;
  fs::create_directories(site_dir, ec);
  if (ec) return Error{"cannot make " + site_dir + ": " + ec.message(), ErrorKind::Unavailable};
  ::chmod(site_dir.c_str(), 0700);
  return WebDb::open(site_dir + "/web.db");
}

bool good_user_name(const std::string& n) {
  return !n.empty() && n.size() <= 64 && n.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._-") == std::string::npos &&
         n[0] != '.' && n[0] != '-';
}

int user_command(const std::string& action, const std::string& site_dir, const std::string& name, bool admin,
                 std::string account, bool password_stdin) {
  auto db = open_site_db(site_dir);
  if (!db) {
    std::cerr << "yard web: " << db.error() << "\n";
    return 1;
  }
  if (action == "list") {
    for (const auto& u : (*db)->users()) std::cout << u.name << "\t" << u.account << (u.admin ? "\tadmin" : "") << "\n";
    return 0;
  }
  if (!good_user_name(name)) {
    std::cerr << "yard web: a user's name is lower-case letters, digits, '.', '-' and '_' ('" << name << "')\n";
    return 2;
  }
  Status st;
  if (action == "remove") {
    st = (*db)->remove_user(name);
  } else {
    auto password = read_password(password_stdin);
    if (!password) return 2;
    if (password->size() < 8) {
      std::cerr << "yard web: a password has at least 8 characters\n";
      return 2;
    }
    auto hash = hash_password(*password);
    if (!hash) {
      std::cerr << "yard web: " << hash.error() << "\n";
      return 1;
    }
    if (account.empty()) account = name;
    st = action == "add" ? (*db)->add_user(name, *hash, admin, account) : (*db)->set_password(name, *hash);
  }
  if (!st) {
    std::cerr << "yard web: " << st.error() << "\n";
    return st.kind() == ErrorKind::Invalid ? 2 : 1;
  }
  (void)(*db)->audit("(admin)", "user." + action, name);
  std::cout << "user " << name << (action == "add" ? " added" : action == "remove" ? " removed" : ": password set") << "\n";
  return 0;
}

int serve_command(const std::string& listen_text, SiteSettings settings, int threads,
                  const std::vector<std::string>& webhook_prefixes, const std::string& tls_cert,
                  const std::string& tls_key) {
  ListenSettings listen;
  listen.threads = threads;
  listen.tls_cert = tls_cert;
  listen.tls_key = tls_key;
  if (!tls_cert.empty()) settings.secure_cookies = true;  // the browser sends them over TLS only
  auto server = new_server(listen);  // before anything starts
  if (!server) {
    std::cerr << "yard web: " << server.error() << "\n";
    return 2;
  }
  const auto colon = listen_text.rfind(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument(listen_text);
    listen.host = listen_text.substr(0, colon);
    listen.port = std::stoi(listen_text.substr(colon + 1));
    if (listen.port < 0 || listen.port > 65535) throw std::out_of_range(listen_text);
  } catch (const std::exception&) {
    std::cerr << "yard web: --listen HOST:PORT, not '" << listen_text << "'\n";
    return 2;
  }
  block_stop_signals();
  Site site;
  site.settings = std::move(settings);
  site.daemon_paths = default_paths();
  auto db = open_site_db(site.settings.site_dir);
  if (!db) {
    std::cerr << "yard web: " << db.error() << "\n";
    return 1;
  }
  site.db = std::move(*db);
  if (auto templates = site.templates(); !templates) {
    std::cerr << "yard web: " << templates.error() << "\n";
    return 2;
  }
  WebDb* web_db = site.db.get();
  site.feed = std::make_unique<EventFeed>(site.daemon_paths, [web_db](std::int64_t job) -> std::optional<EventFeed::RunOf> {
    for (const auto& [run, jobs] : web_db->all_run_jobs())
      if (std::find(jobs.begin(), jobs.end(), job) != jobs.end()) {
        auto row = web_db->run(run);
        if (row) return EventFeed::RunOf{run, row->owner, jobs};
      }
    return std::nullopt;
  });
  site.webhooks.start(site, webhook_prefixes);
  site.feed->on_run_end([&site](std::int64_t run) {
    site.runs.run_ended(site, run);
    site.webhooks.run_ended(run);
  });
  if (auto st = site.feed->start(); !st) {
    std::cerr << "yard web: the daemon does not answer: " << st.error() << "\n";
    return 1;
  }
  const int rc = serve(site, listen, std::move(*server));
  // The feed's thread may still be inside the daemon's watch: the process ends here, without
  // destroying what that thread uses (every change is already in web.db and the store).
  std::cout.flush();
  std::_Exit(rc);
}

}  // namespace
}  // namespace yard::web

int main(int argc, char** argv) {
  using namespace yard::web;
  if (auto st = init_secrets(); !st) {
    std::cerr << "yard web: " << st.error() << "\n";
    return 1;
  }
  CLI::App app{"The web platform: runs started, watched and collected from a browser (docs/WEB.md)", "yard web"};
  app.require_subcommand(1);
  SiteSettings settings{default_site_dir(), default_templates_dir(), default_static_dir()};
  std::string listen = "127.0.0.1:8080";
  int threads = 512;
  auto* serve = app.add_subcommand("serve", "Serve the API and the pages (until SIGINT or SIGTERM)");
  serve->add_option("--listen", listen,
                    "HOST:PORT to listen on (PORT 0: any free one; TLS: --tls-cert and --tls-key, or a reverse proxy in "
                    "front: docs/WEB.md)")
      ->capture_default_str();
  serve->add_option("--site", settings.site_dir, "The site's directory: its users, runs and uploads")->capture_default_str();
  serve->add_option("--templates", settings.templates_dir, "The admin's templates (*.yaml)")->capture_default_str();
  serve->add_option("--static", settings.static_dir, "The built pages (web/ built by npm)")->capture_default_str();
  serve->add_option("--threads", threads, "Requests and event streams served at once")->check(CLI::Range(4, 20000))
      ->capture_default_str();
  serve->add_flag("--secure-cookies", settings.secure_cookies, "Mark cookies Secure (behind a proxy that speaks TLS)");
  std::string tls_cert, tls_key;
  auto* cert = serve->add_option("--tls-cert", tls_cert, "Serve HTTPS with this certificate (PEM, the chain after it)");
  auto* key = serve->add_option("--tls-key", tls_key, "... and this private key (PEM); cookies are then Secure");
  cert->needs(key);
  key->needs(cert);
  std::vector<std::string> webhook_prefixes;
  serve->add_option("--webhook-prefix", webhook_prefixes,
                    "A URL prefix runs' webhooks may go to (repeatable; none: no webhooks)");

  auto* user = app.add_subcommand("user", "The platform's users (passwords hashed with argon2id)");
  user->require_subcommand(1);
  std::string name, account;
  bool admin = false, password_stdin = false;
  auto* add = user->add_subcommand("add", "Add a user");
  add->add_option("name", name, "The user's name")->required();
  add->add_flag("--admin", admin, "Sees and acts on every user's runs; reads the audit log");
  add->add_option("--account", account, "The account their jobs are charged to (default: their name)");
  add->add_flag("--password-stdin", password_stdin, "Read the password from standard input");
  auto* password = user->add_subcommand("password", "Set a user's password (ends their sessions)");
  password->add_option("name", name, "The user's name")->required();
  password->add_flag("--password-stdin", password_stdin, "Read the password from standard input");
  auto* remove = user->add_subcommand("remove", "Remove a user (their runs stay)");
  remove->add_option("name", name, "The user's name")->required();
  auto* list = user->add_subcommand("list", "List the users");
  for (auto* sub : {add, password, remove, list})
    sub->add_option("--site", settings.site_dir, "The site's directory")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (serve->parsed()) return serve_command(listen, settings, threads, webhook_prefixes, tls_cert, tls_key);
  for (auto* sub : {add, password, remove, list})
    if (sub->parsed()) return user_command(sub->get_name(), settings.site_dir, name, admin, account, password_stdin);
  return 2;
}
