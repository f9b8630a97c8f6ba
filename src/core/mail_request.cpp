#include "core/mail_request.h"

#include <array>
#include <utility>

#include "core/text.h"

namespace yard {
namespace {

constexpr unsigned kMailAll = kMailBegin | kMailEnd | kMailFail | kMailRequeue | kMailInvalidDepend | kMailStageOut;

constexpr std::array<std::pair<std::string_view, unsigned>, 13> kTypes{{
    {"NONE", 0},
    {"BEGIN", kMailBegin},
    {"END", kMailEnd},
    {"FAIL", kMailFail},
    {"REQUEUE", kMailRequeue},
    {"ALL", kMailAll},
    {"INVALID_DEPEND", kMailInvalidDepend},
    {"STAGE_OUT", kMailStageOut},
    {"TIME_LIMIT", kMailTimeLimit},
    {"TIME_LIMIT_90", kMailTimeLimit90},
    {"TIME_LIMIT_80", kMailTimeLimit80},
    {"TIME_LIMIT_50", kMailTimeLimit50},
    {"ARRAY_TASKS", kMailArrayTasks},
}};

}  // namespace

Result<unsigned> parse_mail_types(std::string_view value) {
  unsigned events = 0;
  for (std::string_view word : split(value, ',')) {
    bool known = false;
    for (auto& [name, bits] : kTypes)
      if (iequals(word, name)) {
        known = true;
        events = name == "NONE" ? 0 : events | bits;
      }
    if (!known)
      return err("--mail-type: invalid value '" + std::string(word) +
                 "' (accepted, separated by commas: NONE, BEGIN, END, FAIL, REQUEUE, ALL, INVALID_DEPEND, STAGE_OUT, "
                 "TIME_LIMIT, TIME_LIMIT_90, TIME_LIMIT_80, TIME_LIMIT_50, ARRAY_TASKS)");
  }
  return events;
}

MailRequest mail_request(const SbatchSettings& options) {
  MailRequest r;
  for (auto& [name, value] : options) {
    if (name == "mail-type") {
      auto events = parse_mail_types(value);
      r.events = events ? *events : 0;
    } else if (name == "mail-user") {
      r.user = value;
    }
  }
  return r;
}

}  // namespace yard
