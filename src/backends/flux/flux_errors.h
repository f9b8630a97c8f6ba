// What a failed Flux command means: the broker out of reach (worth retrying), ids it no
// longer knows among those it listed (a usable listing), or a refusal.
#pragma once

#include <string_view>

namespace yard {

bool flux_transient_failure(int exit_code, std::string_view err);
// `flux jobs --json IDS` says "JobID <id> unknown" for each id it does not know (purged)
// and exits 1 when it knew none; the others are listed: usable when every stderr line
// says so.
bool flux_usable_despite(int exit_code, std::string_view err);
// A submission refused because a dependency can never be met (its parent already ended
// as the dependency forbids): "dependency: afterok: job X failed or was canceled",
// "dependency: afternotok: job X succeeded", "dependency: after: X never started".
bool flux_refused_for_a_dependency(std::string_view err);

}  // namespace yard
