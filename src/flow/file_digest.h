// Content digests of a flow's input files (step_key.h), read only when a file changed: a
// digest is kept with the size, modification time and inode it was taken at (the daemon
// keeps them: protocol/flows.h), and a file whose three are the same is not read again.
// A file touched or checked out again with the same bytes gets the same digest, so the
// steps that read it are not run again.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/flow_record.h"
#include "core/result.h"

namespace yard {

// The path's size, modification time (ns) and inode; for a directory, the number of
// entries below it and a fingerprint of all their sizes, times and inodes in place of the
// time. Errors name the path.
Result<FileDigest> stat_for_digest(const std::string& path);

// The digest of the content: XXH3-128 of a file's bytes; of a directory, of its entries'
// names and their own digests, recursively.
Result<std::string> content_digest(const std::string& path);

struct InputDigests {
  std::map<std::string, std::string> by_path;  // every input's digest
  std::vector<FileDigest> fresh;               // those read now: to be kept for next time
  std::int64_t bytes_read = 0;
};

// The digests of `paths`, given what was known of them (`known`: one per path, digest ""
// when unknown, as the daemon answers); `progress` is told each file read, with its size.
Result<InputDigests> digest_inputs(const std::vector<std::string>& paths, const std::vector<FileDigest>& known,
                                   const std::function<void(const std::string&, std::int64_t)>& progress = {});

}  // namespace yard
