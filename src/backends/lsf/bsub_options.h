// bsub's options as the #BSUB reader (lsf_directives.cpp) sorts them (LSF 10.1): those
// that take a value (every other option bsub has takes none), those that change nothing in
// the job's result here (read and warned about), and those refused, with why.
#pragma once

#include <map>
#include <set>
#include <string_view>

namespace yard::lsf {

const std::set<std::string_view>& with_value();
const std::set<std::string_view>& warned();
const std::map<std::string_view, std::string_view>& refused();

}  // namespace yard::lsf
