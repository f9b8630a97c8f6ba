// srun outside a job: the command submitted as a job of yard's with srun's options (read
// as sbatch's), its output and errors shown as they come, srun's exit status the job's.
#pragma once

#include "frontends/slurm/front.h"

namespace yard::slurm_front {

int run_as_job(const Args& options, const Args& command);

}  // namespace yard::slurm_front
