#include "sim/svg_plot.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <utility>

namespace yard::sim {

namespace {

struct Step {
  Time time;
  double delta;
};

// Time average of the step function sum(delta for steps at or before t) over each of
// `n` equal buckets of [from, to).
std::vector<double> bucket_means(std::vector<Step> steps, Time from, Time to, int n) {
  std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.time < b.time; });
  std::vector<double> area(static_cast<std::size_t>(n), 0.0);
  const double width = static_cast<double>(to - from) / n;
  double level = 0;
  double t = static_cast<double>(from);
  std::size_t b = 0;  // the bucket holding t; moves forward only
  auto accumulate = [&](double until) {  // adds level over [t, until)
    while (t < until && b < area.size()) {
      const double edge = b + 1 == area.size()
                              ? static_cast<double>(to)
                              : static_cast<double>(from) + width * static_cast<double>(b + 1);
      const double stop = std::min(until, edge);
      if (stop > t) {
        area[b] += level * (stop - t);
        t = stop;
      }
      if (t >= edge) ++b;
    }
  };
  for (const Step& s : steps) {
    accumulate(static_cast<double>(s.time));
    level += s.delta;
  }
  accumulate(static_cast<double>(to));
  for (double& a : area) a /= width;
  return area;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

void panel(std::ostream& out, const std::vector<double>& ys, double top, double height,
           double ymax, const std::string& label, const std::string& color) {
  constexpr double kLeft = 70, kWidth = 900;
  out << "<rect x='" << kLeft << "' y='" << fmt(top) << "' width='" << kWidth << "' height='"
      << fmt(height) << "' fill='none' stroke='#888'/>\n";
  out << "<text x='" << kLeft << "' y='" << fmt(top - 5) << "' font-size='12'>" << label
      << "</text>\n";
  out << "<text x='" << kLeft - 5 << "' y='" << fmt(top + 10)
      << "' font-size='10' text-anchor='end'>" << fmt(ymax) << "</text>\n";
  out << "<text x='" << kLeft - 5 << "' y='" << fmt(top + height)
      << "' font-size='10' text-anchor='end'>0</text>\n";
  out << "<polyline fill='none' stroke='" << color << "' stroke-width='1' points='";
  const double dx = kWidth / static_cast<double>(std::max<std::size_t>(ys.size(), 1));
  for (std::size_t i = 0; i < ys.size(); ++i) {
    const double y = top + height - height * std::min(ys[i] / ymax, 1.0);
    out << fmt(kLeft + dx * (static_cast<double>(i) + 0.5)) << ',' << fmt(y) << ' ';
  }
  out << "'/>\n";
}

}  // namespace

void write_svg_plot(std::ostream& out, const std::vector<SimJob>& jobs, const SimResult& result,
                    Procs machine, const PlotOptions& options) {
  Time from = std::numeric_limits<Time>::max();
  Time to = std::numeric_limits<Time>::min();
  std::vector<Step> busy, queued;
  busy.reserve(2 * jobs.size());
  queued.reserve(2 * jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const SimJob& j = jobs[i];
    const Time start = result.start[i];
    from = std::min(from, j.submit);
    to = std::max(to, start + j.run);
    busy.push_back({start, static_cast<double>(j.procs)});
    busy.push_back({start + j.run, -static_cast<double>(j.procs)});
    queued.push_back({j.submit, 1});
    queued.push_back({start, -1});
  }
  const int n = std::max(1, options.buckets);
  if (jobs.empty() || to <= from) {
    from = 0;
    to = 1;
  }
  std::vector<double> util = bucket_means(std::move(busy), from, to, n);
  for (double& u : util) u = 100.0 * u / static_cast<double>(std::max<Procs>(machine, 1));
  const std::vector<double> queue = bucket_means(std::move(queued), from, to, n);
  const double qmax = std::max(1.0, *std::max_element(queue.begin(), queue.end()));
  const double days = static_cast<double>(to - from) / 86400.0;

  out << "<?xml version='1.0' encoding='UTF-8'?>\n"
      << "<svg xmlns='http://www.w3.org/2000/svg' width='1000' height='560' "
         "font-family='sans-serif'>\n"
      << "<rect width='100%' height='100%' fill='white'/>\n"
      << "<text x='500' y='22' font-size='15' text-anchor='middle'>";
  for (char c : options.title) {  // the title is user text: escape it
    if (c == '<') out << "&lt;";
    else if (c == '>') out << "&gt;";
    else if (c == '&') out << "&amp;";
    else if (c == '\'') out << "&apos;";
    else out << c;
  }
  out << "</text>\n";
  panel(out, util, 40, 220, 100.0, "utilization %", "#1f77b4");
  panel(out, queue, 290, 220, qmax, "queued jobs", "#d62728");
  out << "<text x='520' y='540' font-size='12' text-anchor='middle'>time (days, 0 to "
      << fmt(days) << ")</text>\n</svg>\n";
}

Status write_svg_plot_file(const std::string& path, const std::vector<SimJob>& jobs,
                           const SimResult& result, Procs machine, const PlotOptions& options) {
  std::ofstream out(path);
  if (!out) return err("cannot write '" + path + "'");
  write_svg_plot(out, jobs, result, machine, options);
  out.flush();
  if (!out) return err("cannot write '" + path + "'");
  return Status::Ok();
}

}  // namespace yard::sim
