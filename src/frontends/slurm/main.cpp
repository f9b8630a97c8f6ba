// yard-slurm: Slurm's commands, run by the name they are called by (a symlink sbatch ->
// yard-slurm), or as `yard-slurm COMMAND ARGS...`.
#include <cstring>
#include <iostream>
#include <map>

#include "frontends/slurm/front.h"

int main(int argc, char** argv) {
  using namespace yard::slurm_front;
  const std::map<std::string, int (*)(const Args&)> commands{
      {"sbatch", sbatch_main},     {"squeue", squeue_main}, {"sacct", sacct_main},       {"scancel", scancel_main},
      {"scontrol", scontrol_main}, {"sinfo", sinfo_main},   {"sacctmgr", sacctmgr_main}, {"srun", srun_main}};
  std::string name = argv[0];
  if (const auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  Args args(argv + 1, argv + argc);
  auto it = commands.find(name);
  if (it == commands.end() && !args.empty()) {
    it = commands.find(args.front());
    args.erase(args.begin());
  }
  if (it == commands.end()) {
    std::cerr << "yard-slurm: run as one of sbatch, squeue, sacct, scancel, scontrol, sinfo, sacctmgr, srun "
                 "(a link of that name, or yard-slurm COMMAND ARGS...): `yard slurm-commands env` puts them on PATH\n";
    return 2;
  }
  return it->second(args);
}
