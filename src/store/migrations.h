// The store's schema as numbered migrations. PRAGMA user_version holds the number of
// migrations applied; a store written by a newer Switchyard is refused, never altered.
#pragma once

#include "core/result.h"
#include "store/sqlite.h"

namespace yard {

int schema_version();
Status migrate(sql::Db& db);

}  // namespace yard
