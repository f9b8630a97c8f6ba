// A run's files (its working directory) and each user's uploads.
#include <unistd.h>

#include <memory>

#include "web/api_routes.h"
#include "web/auth.h"
#include "web/http_reply.h"
#include "web/run_view.h"
#include "web/safe_files.h"

namespace yard::web {
namespace {

nlohmann::json files_json(const std::vector<FileEntry>& files) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : files) out.push_back({{"path", f.path}, {"size", f.size}, {"mtime", f.mtime}});
  return out;
}

// The bytes of an open file, sent as they are read (a big output is never held whole).
void send_file(httplib::Response& res, OpenFile file, const std::string& name) {
  auto fd = std::shared_ptr<int>(new int(file.fd), [](int* p) {
    ::close(*p);
    delete p;
  });
  std::string quoted;
  for (char ch : name) quoted += (ch == '"' || ch == '\\' || static_cast<unsigned char>(ch) < 32) ? '_' : ch;
  res.set_header("Content-Disposition", "attachment; filename=\"" + quoted + "\"");
  res.set_content_provider(static_cast<std::size_t>(file.size), "application/octet-stream",
                           [fd](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                             char buf[65536];
                             const ssize_t n = ::pread(*fd, buf, std::min(length, sizeof buf), static_cast<off_t>(offset));
                             if (n <= 0) return false;
                             return sink.write(buf, static_cast<std::size_t>(n));
                           });
}

}  // namespace

void add_file_routes(httplib::Server& server, Site& site) {
  server.Get(R"(/api/v1/runs/(\d+)/files)", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto run = caller_run(site, c, req, res);
    if (!run) return;
    send_json(res, 200, {{"files", files_json(list_files(site.run_dir(run->id)))}});
  }));
  server.Get(R"(/api/v1/runs/(\d+)/files/(.+))", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    auto run = caller_run(site, c, req, res);
    if (!run) return;
    const std::string path = req.matches[2].str();
    auto file = open_below(site.run_dir(run->id), path);
    if (!file) return send_error(res, 404, file.error(), "path");
    (void)site.db->audit(c.user.name, "file.download", "run " + std::to_string(run->id) + ": " + path);
    send_file(res, *file, path.substr(path.rfind('/') + 1));
  }));
  server.Get("/api/v1/uploads", guarded(site, [&site](const Caller& c, const httplib::Request&, httplib::Response& res) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : list_files(site.upload_dir(c.user.name)))
      if (f.path.find('/') == std::string::npos && f.path[0] != '.')
        out.push_back({{"name", f.path}, {"size", f.size}, {"mtime", f.mtime}});
    send_json(res, 200, {{"uploads", out}});
  }));
  server.Put(R"(/api/v1/uploads/([^/]+))", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    const std::string name = req.matches[1].str();
    if (!good_upload_name(name))
      return send_error(res, 400,
                        "an upload's name is letters, digits, '.', '-' and '_', not starting with '.' ('" + name + "')",
                        "name");
    if (auto st = write_upload(site.upload_dir(c.user.name), name, req.body); !st) return send_failure(res, st.failure());
    (void)site.db->audit(c.user.name, "upload", name + " (" + std::to_string(req.body.size()) + " bytes)");
    send_json(res, 201, {{"upload", {{"name", name}, {"size", req.body.size()}}}});
  }));
}

}  // namespace yard::web
