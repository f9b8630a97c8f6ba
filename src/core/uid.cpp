#include "core/uid.h"

#include <sys/random.h>

#include <cstdint>
#include <cstdio>

namespace yard {

std::string new_uid() {
  std::uint64_t r = 0;
  while (getrandom(&r, sizeof r, 0) != static_cast<ssize_t>(sizeof r)) {
  }
  char buf[19];
  std::snprintf(buf, sizeof buf, "yd%016llx", static_cast<unsigned long long>(r));
  return buf;
}

bool is_uid(std::string_view text) {
  if (text.size() != 18 || text.substr(0, 2) != "yd") return false;
  for (char c : text.substr(2))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace yard
