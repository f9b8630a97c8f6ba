// The OpenAPI 3 document of the web API (src/web/openapi.json), served at
// /api/v1/openapi.json; the tests check real replies against it.
#pragma once

#include <string>

namespace yard::web {

const std::string& openapi_document();

}  // namespace yard::web
