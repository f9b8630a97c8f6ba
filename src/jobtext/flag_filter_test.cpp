// yard submit declares only the flags its words may name (FlagFilter): the same parse, and
// the same errors, as with every flag declared.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "jobtext/submit_internal.h"
#include "jobtext/submit_options.h"

namespace yard {
namespace {

TEST(FlagFilter, DeclaresTheFlagsTheWordsNameSpelledOutAbbreviatedOrShort) {
  const std::vector<std::string> words{"-o", "/dev/null", "--mem-per-c", "2G", "--export=NONE", "-Jname", "x.sh"};
  const FlagFilter want(words);
  EXPECT_TRUE(want("-o,--output"));
  EXPECT_TRUE(want("--mem-per-cpu"));  // an abbreviation
  EXPECT_TRUE(want("--export"));       // with its value after '='
  EXPECT_TRUE(want("-J,--job-name"));  // a value glued to the letter
  EXPECT_TRUE(want("script"));         // a positional, always
  EXPECT_FALSE(want("--mem"));         // --mem-per-c does not name it
  EXPECT_FALSE(want("-d,--dependency"));
  EXPECT_FALSE(want("--backend"));
  // Help lists every flag; no words given, every flag too.
  for (const std::vector<std::string>& help : {std::vector<std::string>{"-h"}, {"--help"}, {"--he"}})
    EXPECT_TRUE(FlagFilter(help)("--backend"));
  EXPECT_TRUE(FlagFilter()("--backend"));
}

TEST(FlagFilter, AnAppWithTheNamedFlagsParsesAsOneWithAllOfThem) {
  auto parse = [](const std::vector<std::string>& words, const FlagFilter& want) -> std::string {
    SubmitFlags f;
    bool json = false;
    auto app = submit_app(f, json, {}, want);
    try {
      parse_words(*app, words, &f.sbatch_options);
    } catch (const CLI::ParseError& e) {
      return "error: " + parse_error_text(e);
    }
    auto spec = make_spec(f, {"/bin/true"});
    return spec ? nlohmann::json(*spec).dump() + " json " + std::to_string(json) : "refused: " + spec.error();
  };
  for (const std::vector<std::string>& words : std::vector<std::vector<std::string>>{
           {"-o", "/dev/null", "-d", "afterany:1"},
           {"-J", "x", "--mem-per-c", "2G", "-t", "1:00", "--json"},
           {"-n2", "-c", "3", "--output=o-%j.txt", "--requeue"},
           {"--job-n", "abc", "--export=NONE", "--no-requeue", "--begin=now"},
           {"-Jname", "-pgpu", "--mem", "4G", "--mem-per-cpu", "1G"},
           {"--mem-per", "1G"},          // ambiguous, as sbatch says
           {"--frob", "1"},              // unknown
           {"-t", ""},                   // empty
           {"-J", "--mem", "-N", "2"},   // a value that looks like a flag
           {"--nodes", "1-2", "-q", "low", "--class", "big", "job.sh", "--mem", "1G"}}) {
    const std::string all = parse(words, FlagFilter());
    const FlagFilter named(words);
    EXPECT_EQ(parse(words, named), all) << ::testing::PrintToString(words);
  }
  // And the point: few flags declared for a few words.
  SubmitFlags f;
  bool json = false;
  const std::vector<std::string> words{"-o", "/dev/null", "-d", "afterany:1"};
  const FlagFilter named(words);
  EXPECT_LT(submit_app(f, json, {}, named)->get_options().size(), 8u);
  EXPECT_GT(submit_app(f, json)->get_options().size(), 30u);
}

}  // namespace
}  // namespace yard
