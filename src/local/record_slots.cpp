#include "local/record_slots.h"

#include <dirent.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "core/file_text.h"
#include "local/run_record.h"

namespace yard {

int RecordSlots::acquire() {
  for (std::size_t i = 0; i < used_.size(); ++i)
    if (!used_[i]) {
      used_[i] = true;
      return static_cast<int>(i);
    }
  used_.push_back(true);
  return static_cast<int>(used_.size() - 1);
}

void RecordSlots::release(int slot) {
  if (slot >= 0 && static_cast<std::size_t>(slot) < used_.size()) used_[static_cast<std::size_t>(slot)] = false;
}

std::string RecordSlots::path(int slot) const { return dir_ + "/" + prefix_ + "-" + std::to_string(slot) + ".rec"; }

std::unordered_map<std::int64_t, int> RecordSlots::scan() {
  std::unordered_map<std::int64_t, int> found;
  DIR* d = ::opendir(dir_.c_str());
  if (!d) return found;
  const std::string head = prefix_ + "-";
  while (dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name.substr(0, head.size()) != head || name.size() <= head.size() + 4 ||
        name.substr(name.size() - 4) != ".rec")
      continue;
    auto digits = name.substr(head.size(), name.size() - head.size() - 4);
    int slot = -1;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), slot);
    if (ec != std::errc() || end != digits.data() + digits.size() || slot < 0 || slot > 1'000'000) continue;
    const std::string text = read_file_or_empty(path(slot));
    if (static_cast<std::size_t>(slot) >= used_.size()) used_.resize(static_cast<std::size_t>(slot) + 1, false);
    const auto rec = parse_run_record(text);  // the last job's record
    if (rec.job_id <= 0) continue;  // never written: free
    used_[static_cast<std::size_t>(slot)] = true;
    found[rec.job_id] = slot;
  }
  ::closedir(d);
  return found;
}

}  // namespace yard
