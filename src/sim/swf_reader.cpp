#include "sim/swf_reader.h"

#include <zlib.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace yard::sim {

namespace {

constexpr int kFields = 18;
constexpr double kLargest = 9007199254740992.0;  // 2^53

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// An SWF number: an integer, or a decimal (some logs write "142.00"), kept as an integer
// by truncation. Anything else, or a value beyond +-2^53, is rejected.
std::optional<std::int64_t> parse_slow(std::string_view s) {
  double d = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(d)) return std::nullopt;
  if (std::fabs(d) > kLargest) return std::nullopt;
  return static_cast<std::int64_t>(d);
}

std::optional<std::int64_t> parse_number(std::string_view s) {
  // Fast path for the usual "-1", "12345" and "142.00".
  std::size_t i = 0;
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) ++i;
  const std::size_t digits_from = i;
  std::int64_t value = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - digits_from < 15) {
    value = value * 10 + (s[i] - '0');
    ++i;
  }
  if (i == digits_from) return parse_slow(s);
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  }
  if (i != s.size()) return parse_slow(s);
  return negative ? -value : value;
}

// "; MaxProcs: 128" -> 128
void parse_header(std::string_view line, SwfTrace& trace) {
  line.remove_prefix(1);
  line = trim(line);
  constexpr std::string_view kKey = "MaxProcs:";
  if (line.substr(0, kKey.size()) != kKey) return;
  std::string_view value = trim(line.substr(kKey.size()));
  // Some logs add a remark after the number: "338 (batch partition; 512 total)".
  std::size_t end = 0;
  while (end < value.size() && value[end] >= '0' && value[end] <= '9') ++end;
  if (auto n = parse_number(value.substr(0, end)); n && *n > 0) trace.max_procs = *n;
}

Status parse_job(std::string_view line, std::size_t line_no, SwfRecord& out) {
  std::array<std::int64_t, kFields> f{};
  int count = 0;
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && is_space(line[pos])) ++pos;
    if (pos >= line.size()) break;
    std::size_t end = pos;
    while (end < line.size() && !is_space(line[end])) ++end;
    const std::string_view token = line.substr(pos, end - pos);
    if (count >= kFields) {
      return err("line " + std::to_string(line_no) + ": more than 18 fields");
    }
    auto n = parse_number(token);
    if (!n) {
      return err("line " + std::to_string(line_no) + ": field " + std::to_string(count + 1) +
                 " is not a number: '" + std::string(token.substr(0, 40)) + "'");
    }
    f[static_cast<std::size_t>(count++)] = *n;
    pos = end;
  }
  if (count != kFields) {
    return err("line " + std::to_string(line_no) + ": expected 18 fields, found " +
               std::to_string(count));
  }
  auto narrow = [](std::int64_t v) {
    return v < INT32_MIN || v > INT32_MAX ? std::int32_t{-1} : static_cast<std::int32_t>(v);
  };
  out = SwfRecord{f[0], f[1], f[3], f[4], f[7], f[8],
                  narrow(f[11]), narrow(f[12]), narrow(f[14]), narrow(f[15]), f[9]};
  return Status::Ok();
}

// Parses complete lines as they come; the caller feeds text in pieces of any size.
class LineParser {
 public:
  explicit LineParser(const SwfOptions& options) : options_(options) {}

  // Parses every complete line of `text`; returns the unparsed tail (a partial line).
  Result<std::string_view> feed(std::string_view text) {
    for (;;) {
      const std::size_t nl = text.find('\n');
      if (nl == std::string_view::npos) return text;
      if (Status st = line(text.substr(0, nl)); !st) return err(st.error());
      text.remove_prefix(nl + 1);
    }
  }

  Status line(std::string_view line) {
    ++line_no_;
    line = trim(line);
    if (line.empty()) return Status::Ok();
    if (line.front() == ';') {
      parse_header(line, trace_);
      return Status::Ok();
    }
    SwfRecord record;
    if (Status st = parse_job(line, line_no_, record); !st) {
      if (!options_.lenient) return st;
      if (trace_.skipped_lines++ == 0) trace_.first_skipped = st.error();
      return Status::Ok();
    }
    trace_.records.push_back(record);
    return Status::Ok();
  }

  SwfTrace take() { return std::move(trace_); }

 private:
  SwfOptions options_;
  SwfTrace trace_;
  std::size_t line_no_ = 0;
};

}  // namespace

Result<SwfTrace> parse_swf(std::string_view text, const SwfOptions& options) {
  LineParser parser(options);
  auto tail = parser.feed(text);
  if (!tail) return err(tail.error());
  if (!tail->empty()) {
    if (Status st = parser.line(*tail); !st) return err(st.error());
  }
  return parser.take();
}

Result<SwfTrace> read_swf(const std::string& path, const SwfOptions& options) {
  // gzread reads plain files unchanged, so one path serves both. The text is parsed as it
  // is decompressed, a buffer at a time, with a line cut by a buffer's end carried over.
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
  if (!file) return err("cannot open trace '" + path + "'");
  gzbuffer(file.get(), 1 << 17);
  LineParser parser(options);
  std::vector<char> buffer(1 << 18);
  std::size_t carried = 0;
  for (;;) {
    if (carried == buffer.size()) buffer.resize(2 * buffer.size());  // a very long line
    const int n = gzread(file.get(), buffer.data() + carried,
                         static_cast<unsigned>(buffer.size() - carried));
    if (n < 0) {
      int code = 0;
      const char* msg = gzerror(file.get(), &code);
      return err("cannot read trace '" + path + "': " + (msg ? msg : "read error"));
    }
    const std::string_view text(buffer.data(), carried + static_cast<std::size_t>(n));
    if (n == 0) {
      if (!text.empty()) {
        if (Status st = parser.line(text); !st) return err(st.error());
      }
      break;
    }
    auto tail = parser.feed(text);
    if (!tail) return err(tail.error());
    carried = tail->size();
    std::memmove(buffer.data(), tail->data(), carried);
  }
  return parser.take();
}

}  // namespace yard::sim
