// Small string helpers shared by the parsers of user input and scheduler output.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace yard {

std::string_view trim(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
bool iequals(std::string_view a, std::string_view b);
bool starts_with(std::string_view s, std::string_view prefix);
std::string to_lower(std::string_view s);

}  // namespace yard
