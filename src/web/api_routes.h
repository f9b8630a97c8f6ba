// The routes of the web API, one function per group (each in its own file).
#pragma once

#include <httplib.h>

#include <optional>

#include "web/auth.h"
#include "web/site.h"

namespace yard::web {

void add_run_routes(httplib::Server& server, Site& site);    // api_runs.cpp
void add_file_routes(httplib::Server& server, Site& site);   // api_files.cpp
void add_event_routes(httplib::Server& server, Site& site);  // api_events.cpp
void add_site_routes(httplib::Server& server, Site& site);   // api_site.cpp: templates, usage, routes, audit, openapi

// The run the URL's first number names, if the caller may see it; else nothing after
// replying 404 (a run of someone else's is as absent as one that never was).
std::optional<RunRow> caller_run(Site& site, const Caller& c, const httplib::Request& req, httplib::Response& res);

}  // namespace yard::web
