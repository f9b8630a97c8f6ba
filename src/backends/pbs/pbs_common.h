// What the PBS Pro and Torque writers share (pbs_writer.cpp, torque_writer.cpp): every
// #PBS directive but the resources of the job's shape and its array.
#pragma once

#include "jobtext/directive_writer.h"

namespace yard::jobtext {

// Writes -N, -q, -A, -l walltime, -o/-e/-j, -W depend, -W block, -m/-M, -r, -p, -V/-v (a
// path whose own text holds $HOME or another word qsub puts a value in for is a loss);
// `array_index` is the variable an output path's %a becomes; `handled` the sbatch
// options the caller wrote. Then every loss the two share.
// `shape` writes the resources of the job's shape, after -N.
void write_pbs_common(Writer& w, std::string_view array_index, std::vector<std::string_view> handled,
                      void (*shape)(Writer&));

// The job's shape (`shape`), then -q, -A and -l walltime: what the backend's scripts and
// translate's share.
void write_pbs_place(Writer& w, void (*shape)(Writer&));
// -p PRIORITY, within PBS's -1024..1023 (else a loss).
void write_pbs_priority(Writer& w);

// A size as qsub reads it: 4gb, 500mb, 1536kb.
std::string pbs_size(std::uint64_t bytes);

}  // namespace yard::jobtext
