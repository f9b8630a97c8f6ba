// One writer per target: the job's directives in the target's words, and what it lost.
// Each file's header says which directives it writes and from what.
#pragma once

#include <string>
#include <string_view>

#include "translate/job.h"

namespace yard::translate {

Directives write_slurm(const Job& job);     // slurm_writer.cpp: #SBATCH
Directives write_pbs(const Job& job);       // pbs_writer.cpp: #PBS for PBS Pro / OpenPBS
Directives write_torque(const Job& job);    // torque_writer.cpp: #PBS for Torque
Directives write_lsf(const Job& job);       // lsf_writer.cpp: #BSUB
Directives write_sge(const Job& job);       // sge_writer.cpp: #$
Directives write_oar(const Job& job);       // oar_writer.cpp: #OAR
Directives write_flux(const Job& job);      // flux_writer.cpp: # flux:
// htcondor_writer.cpp: a submit description whose executable is `executable`.
Directives write_htcondor(const Job& job, const std::string& executable);

// The writer of `kind` (one of kKinds); `executable` is HTCondor's.
Directives write_directives(std::string_view kind, const Job& job, const std::string& executable);

}  // namespace yard::translate
