// The variables qsub's -o and -e paths hold (PBS Pro's and Torque's): read into yard's
// output patterns (pbs_directives.h), and the words a writer of #PBS lines must not let a
// path's own text form (translate/pbs_common.cpp), since PBS would put a value in for them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace yard {

// $PBS_JOBID, ${PBS_JOBID}, ..., ^array_index^, $USER, $HOSTNAME, $HOME, $PBS_O_WORKDIR: in
// the order the reader tries them at each place of a path, left to right.
const std::vector<std::string_view>& pbs_path_words();

// `raw` with each of those words as yard's pattern (%j %x %a %u %N), $HOME and
// $PBS_O_WORKDIR as the home and the current directory, every other '%' doubled.
std::string pbs_path_pattern(std::string_view raw);

}  // namespace yard
