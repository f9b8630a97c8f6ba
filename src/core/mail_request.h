// sbatch's --mail-type and --mail-user: which events of a job its owner is mailed about,
// and to whom. Read once where the options are checked (make_spec) and again where mail
// is sent (the local backend); other backends pass the options to their scheduler.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "core/sbatch_options.h"

namespace yard {

// sbatch's mail types, as bits. ALL is BEGIN, END, FAIL, REQUEUE, INVALID_DEPEND and
// STAGE_OUT; NONE is none.
enum MailEvent : unsigned {
  kMailBegin = 1u << 0,
  kMailEnd = 1u << 1,
  kMailFail = 1u << 2,
  kMailRequeue = 1u << 3,
  kMailInvalidDepend = 1u << 4,
  kMailStageOut = 1u << 5,
  kMailTimeLimit = 1u << 6,
  kMailTimeLimit90 = 1u << 7,
  kMailTimeLimit80 = 1u << 8,
  kMailTimeLimit50 = 1u << 9,
  kMailArrayTasks = 1u << 10,
};

// A comma-separated --mail-type value, case-insensitive as sbatch reads it. An unknown
// word is an error naming it and listing the accepted ones.
Result<unsigned> parse_mail_types(std::string_view value);

struct MailRequest {
  unsigned events = 0;  // 0: no mail
  std::string user;     // "" : the job's owner
};

// The request in a job's sbatch options (the last --mail-type and --mail-user win, as in
// sbatch). Values were checked by make_spec; a bad one here means no mail.
MailRequest mail_request(const SbatchSettings& options);

}  // namespace yard
