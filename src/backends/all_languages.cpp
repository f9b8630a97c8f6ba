#include "backends/all_languages.h"

#include "backends/flux/flux_language.h"
#include "backends/htcondor/htcondor_language.h"
#include "backends/lsf/lsf_language.h"
#include "backends/oar/oar_language.h"
#include "backends/pbs/pbs_language.h"
#include "backends/sge/sge_language.h"
#include "backends/slurm/slurm_language.h"

namespace yard {

const ScriptLanguages& all_script_languages() {
  static const ScriptLanguages languages = [] {
    ScriptLanguages l;
    register_slurm_language(l);  // first: a script without directives is read as sbatch reads it
    register_sge_language(l);
    register_oar_language(l);
    register_pbs_languages(l);
    register_lsf_language(l);
    register_flux_language(l);
    register_htcondor_language(l);
    return l;
  }();
  return languages;
}

}  // namespace yard
