// Flux's job ids: 64-bit FLUIDs, printed in F58 (flux-core's fluid.c): "ƒ" (or "f" where
// the locale is not UTF-8) and base58. Switchyard stores the ASCII form, "f3croSDd",
// whatever locale the command printed in, so that an id is one string however it came.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace yard {

// "f" + base58 of `id`.
std::string flux_f58(std::uint64_t id);
// The FLUID of "ƒ3croSDd" or "f3croSDd" (or a decimal id); nothing for anything else.
std::optional<std::uint64_t> flux_fluid(std::string_view text);
// `text` (any form flux_fluid reads) as flux_f58 writes it; nothing if it is no job id.
std::optional<std::string> flux_ascii_id(std::string_view text);

}  // namespace yard
