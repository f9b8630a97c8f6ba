// Every backend of this build: one line per scheduler, each registering from its folder.
#include "backends/backend_registry.h"
#include "backends/local/local_entry.h"
#include "backends/oar/oar_entry.h"
#include "backends/sge/sge_entry.h"
#include "backends/slurm/slurm_entry.h"

namespace yard {

BackendRegistry all_backends() {
  BackendRegistry r;
  register_local_backend(r);
  register_slurm_backends(r);
  register_sge_backend(r);
  register_oar_backend(r);
  return r;
}

}  // namespace yard
