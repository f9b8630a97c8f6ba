#include "frontends/slurm/getopt_words.h"

#include <getopt.h>

#include <iostream>

namespace yard::slurm_front {

std::optional<Args> getopt_words(const std::string& command, const Args& args, const char* short_options,
                                 const std::vector<Option>& long_options,
                                 const std::function<bool(int code, const std::string& value)>& on,
                                 bool stop_at_first_operand) {
  std::vector<std::string> words{command};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::vector<struct option> longs;
  for (const auto& o : long_options) longs.push_back({o.name, o.has_arg, nullptr, o.code});
  longs.push_back({nullptr, 0, nullptr, 0});
  // '+': stop at the first operand (sbatch: a script's own arguments follow it).
  const std::string shorts = std::string(stop_at_first_operand ? "+" : "") + short_options;
  optind = 0;  // a fresh scan (glibc: 0 also resets its internal state)
  opterr = 1;
  for (;;) {
    const int c = getopt_long(static_cast<int>(words.size()), argv.data(), shorts.c_str(), longs.data(), nullptr);
    if (c == -1) break;
    if (c == '?' || c == ':') {
      std::cerr << "Try \"" << command << " --help\" for more information\n";
      return std::nullopt;
    }
    if (!on(c, optarg ? std::string(optarg) : std::string())) return std::nullopt;
  }
  Args operands;
  for (int i = optind; i < static_cast<int>(words.size()); ++i) operands.push_back(argv[static_cast<std::size_t>(i)]);
  return operands;
}

}  // namespace yard::slurm_front
