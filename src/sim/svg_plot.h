// SVG plot of a simulated schedule: utilization (busy processors over the machine) and
// queue length (jobs submitted and not yet started) over time, two stacked panels, each
// a time average over a fixed number of buckets. Self-contained SVG, no scripts.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"
#include "sim/simulator.h"
#include "sim/workload.h"

namespace yard::sim {

struct PlotOptions {
  int buckets = 500;
  std::string title = "Simulated schedule";
};

void write_svg_plot(std::ostream& out, const std::vector<SimJob>& jobs, const SimResult& result,
                    Procs machine, const PlotOptions& options = {});
Status write_svg_plot_file(const std::string& path, const std::vector<SimJob>& jobs,
                           const SimResult& result, Procs machine,
                           const PlotOptions& options = {});

}  // namespace yard::sim
