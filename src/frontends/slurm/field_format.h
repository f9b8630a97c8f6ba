// Slurm's two ways of asking for columns: squeue's `-o "%.18i %.2t ..."` (a field letter,
// `.` to right-justify, a width that pads and truncates, any text between), and the
// named fields of squeue -O and sacct --format (`JobID:.10,State`, `jobid%20,state`).
// A spec is parsed once into items; each item formats a header or a value.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace yard::slurm_front {

struct FieldItem {
  std::string literal;        // text between fields (the field is empty then)
  std::string field;          // a letter ("i") or a name ("JobArrayID"), as the command knows it
  std::optional<int> width;   // none: as long as the value
  bool right = false;         // right-justified
  std::string suffix;         // -O: text after the width (`JobID:.10 ,`: " ")
};

// The words of a comma list, empty ones dropped (Slurm's lists of ids, names, states).
std::vector<std::string> comma_list(const std::string& text);

// squeue -o: %[.][width]letter; %% a percent sign. An unknown letter is kept (the
// command says what it prints for it).
std::vector<FieldItem> parse_percent_format(const std::string& spec);
// squeue -O: name[:[.][width][suffix]],...; no width: `default_width`.
Result<std::vector<FieldItem>> parse_named_format(const std::string& spec, int default_width);
// sacct --format: name[%[-]width],...
Result<std::vector<FieldItem>> parse_sacct_format(const std::string& spec);

// A value in its item's width: padded, or cut to the width (sacct marks a cut value with
// a '+' in its last place). squeue lets a few right-justified values (node lists, times)
// run over their width (`cut` false); a left-justified value is always cut.
std::string fit(const std::string& value, const FieldItem& item, bool mark_cut = false, bool cut = true);

}  // namespace yard::slurm_front
