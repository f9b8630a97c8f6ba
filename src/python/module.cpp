// _switchyard: the compiled half of the `switchyard` package (switchyard/*.py holds the
// rest). A Client is the client library's DaemonClient; requests and replies cross as the
// protocol's JSON lines (request_line.h), and a job's resources are read by `yard submit`'s
// own flag parser, so Python and the CLI refuse the same things in the same words. Every
// call that waits on the daemon lets other Python threads run.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/daemon_client.h"
#include "jobtext/submit_options.h"
#include "protocol/job_wire.h"
#include "python/request_line.h"

namespace py = pybind11;

namespace yard {
namespace {

// A failure of the client library, raised in Python as _switchyard.Error(message, kind).
struct ClientError {
  Error error;
};

template <typename T>
T value_or_raise(Result<T> r) {
  if (!r) throw ClientError{r.failure()};
  return std::move(*r);
}

class PyClient {
 public:
  PyClient() : client_(default_paths(), true) {}

  std::string request(const std::string& line) {
    Result<std::string> reply = Error{"", ErrorKind::Internal};
    {
      py::gil_scoped_release release;
      reply = request_line(client_, line);
    }
    return value_or_raise(std::move(reply));
  }

  // The wait reply's line once every job named ended, or None after `timeout_s`.
  std::optional<std::string> wait(const std::vector<std::int64_t>& ids, double timeout_s) {
    Result<std::optional<WaitReply>> got = Error{"", ErrorKind::Internal};
    {
      py::gil_scoped_release release;
      got = client_.wait(WaitRequest{ids}, timeout_s);
    }
    auto reply = value_or_raise(std::move(got));
    if (!reply) return std::nullopt;
    return encode_reply(*reply);
  }

  // The events after `since` (each one JSON object's text), the first within `timeout_s`.
  std::vector<std::string> events(std::int64_t since, double timeout_s, std::size_t max_events) {
    Result<std::vector<LoggedEvent>> got = Error{"", ErrorKind::Internal};
    {
      py::gil_scoped_release release;
      WatchRequest request;
      request.since = since;
      got = client_.poll_events(std::move(request), timeout_s, max_events);
    }
    std::vector<std::string> out;
    for (const auto& e : value_or_raise(std::move(got))) out.push_back(logged_event_to_wire(e).dump());
    return out;
  }

  py::dict paths() const {
    const Paths& p = client_.paths();
    py::dict d;
    d["runtime_dir"] = p.runtime_dir;
    d["state_dir"] = p.state_dir;
    d["socket"] = p.socket;
    d["store"] = p.store;
    d["log"] = p.log;
    d["config"] = p.config;
    return d;
  }

 private:
  DaemonClient client_;
};

// `yard submit`'s flags (`--mem 8G -c 4 ...`) and a command: the job's spec as the wire's
// JSON text, and its --class.
std::pair<std::string, std::string> job_spec(const std::vector<std::string>& words, const std::vector<std::string>& command) {
  auto job = parse_job_flags(words, command);
  if (!job) throw py::value_error(job.error());
  const nlohmann::json spec = job->spec;
  return {spec.dump(), job->job_class};
}

}  // namespace
}  // namespace yard

PYBIND11_MODULE(_switchyard, m) {
  m.doc() = "The client library of Switchyard's daemon (use the switchyard package)";
  static py::exception<yard::ClientError> error(m, "Error");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const yard::ClientError& e) {
      py::object args = py::make_tuple(e.error.message, yard::error_kind_name(e.error.kind));
      PyErr_SetObject(error.ptr(), args.ptr());
    }
  });
  py::class_<yard::PyClient>(m, "Client")
      .def(py::init<>())
      .def("request", &yard::PyClient::request, py::arg("line"),
           "Sends one request line of the daemon's protocol; returns its reply line")
      .def("wait", &yard::PyClient::wait, py::arg("ids"), py::arg("timeout") = 0.0,
           "The wait reply once every job named ended; None after `timeout` seconds (0: no limit)")
      .def("events", &yard::PyClient::events, py::arg("since"), py::arg("timeout") = 1.0, py::arg("max_events") = 10000,
           "The event log after `since`, waiting up to `timeout` seconds for the first")
      .def("paths", &yard::PyClient::paths, "Where the daemon keeps its socket, store and log");
  m.def("job_spec", &yard::job_spec, py::arg("flags"), py::arg("command"),
        "yard submit's flags and a command: (the job spec's JSON text, its --class)");
}
