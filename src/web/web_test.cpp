// The web service's parts that need no server: templates and their values, passwords and
// tokens, paths below a directory, the login limiter, a run's state from its jobs'.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "web/event_feed.h"
#include "web/login_limiter.h"
#include "web/safe_files.h"
#include "web/secrets.h"
#include "web/templates.h"

namespace yard::web {
namespace {

const char* kHello = R"(title: Hello
fields:
  - {name: count, type: integer, min: 1, max: 10, default: 3}
  - {name: colour, type: choice, choices: [red, blue]}
  - {name: note, type: text, max_length: 5, default: hi}
job:
  options: {cpus-per-task: "{count}"}
  command: [echo, "{note}"]
)";

TEST(WebTemplates, ValuesAreCheckedAgainstTheirFieldsAndFillTheJob) {
  auto t = parse_template("hello", kHello, "hello.yaml");
  ASSERT_TRUE(t.ok()) << t.error();
  auto ok = check_values(*t, {{"colour", "red"}, {"count", "4"}});
  ASSERT_TRUE(std::holds_alternative<nlohmann::json>(ok));
  const auto& values = std::get<nlohmann::json>(ok);
  EXPECT_EQ(values["count"], 4);
  EXPECT_EQ(values["note"], "hi");
  auto steps = fill(*t, values);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].flags, std::vector<std::string>{"--cpus-per-task=4"});
  EXPECT_EQ(steps[0].command, (std::vector<std::string>{"echo", "hi"}));
  EXPECT_EQ(steps[0].env.at("COLOUR"), "red");
  struct Case {
    nlohmann::json values;
    std::string field, words;
  };
  for (const auto& c : std::vector<Case>{{{{"count", 11}, {"colour", "red"}}, "count", "at most 10"},
                                         {{{"count", 0}, {"colour", "red"}}, "count", "at least 1"},
                                         {{{"colour", "green"}}, "colour", "not one of the choices"},
                                         {{{"colour", "red"}, {"note", "toolong"}}, "note", "at most 5 characters"},
                                         {nlohmann::json::object(), "colour", "required"},
                                         {{{"colour", "red"}, {"size", 1}}, "size", "not a field"},
                                         {{{"colour", "red"}, {"count", "1e400"}}, "count", "not an integer"}}) {
    auto bad = check_values(*t, c.values);
    ASSERT_TRUE(std::holds_alternative<FieldError>(bad)) << c.values.dump();
    EXPECT_EQ(std::get<FieldError>(bad).field, c.field);
    EXPECT_NE(std::get<FieldError>(bad).message.find(c.words), std::string::npos) << std::get<FieldError>(bad).message;
  }
}

TEST(WebTemplates, BadFilesNameTheirLine) {
  struct Case {
    std::string text, words;
  };
  for (const auto& c : std::vector<Case>{
           {"title: x\njob: {command: [a]}\ncolour: red\n", "t.yaml:3: unknown key 'colour'"},
           {"fields:\n  - {name: Bad, type: text}\njob: {command: [a]}\n", "t.yaml:2"},
           {"fields:\n  - {name: a, type: date}\njob: {command: [a]}\n", "type 'date'"},
           {"title: x\n", "needs a job: or steps:"},
           {"job: {command: [a], script: b}\n", "one of them"},
           {"steps:\n  - {name: a, needs: [b], command: [x]}\n  - {name: b, command: [y]}\n", "needs 'b', not an earlier step"},
           {"title: [unclosed\n", "malformed YAML"}}) {
    auto t = parse_template("t", c.text, "t.yaml");
    ASSERT_FALSE(t.ok()) << c.text;
    EXPECT_NE(t.error().find(c.words), std::string::npos) << t.error();
  }
}

TEST(WebSecrets, PasswordsAreArgon2idAndTokensAreStoredAsDigests) {
  ASSERT_TRUE(init_secrets().ok());
  auto hash = hash_password("correct horse");
  ASSERT_TRUE(hash.ok());
  EXPECT_EQ(hash->rfind("$argon2id$", 0), 0u);
  EXPECT_TRUE(password_matches(*hash, "correct horse"));
  EXPECT_FALSE(password_matches(*hash, "correct horsf"));
  EXPECT_FALSE(password_matches("", ""));
  const std::string a = random_token(), b = random_token();
  EXPECT_EQ(a.size(), 64u);
  EXPECT_NE(a, b);
  EXPECT_EQ(token_digest(a), token_digest(a));
  EXPECT_NE(token_digest(a), a);
  EXPECT_NE(keyed_digest(a, "x"), keyed_digest(b, "x"));
  EXPECT_TRUE(same_secret(a, a));
  EXPECT_FALSE(same_secret(a, b));
}

TEST(WebFiles, NothingOutsideTheDirectoryIsReached) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("yard-web-test-" + std::to_string(::getpid()));
  fs::create_directories(root / "run" / "sub");
  std::ofstream(root / "secret") << "secret";
  std::ofstream(root / "run" / "sub" / "out.txt") << "out";
  fs::create_symlink(root / "secret", root / "run" / "link");
  fs::create_directory_symlink(root, root / "run" / "up");
  auto good = open_below((root / "run").string(), "sub/out.txt");
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good->size, 3);
  ::close(good->fd);
  for (const char* bad : {"../secret", "link", "up/secret", "sub/../../secret", "/etc/passwd", "", "sub", "sub/",
                          "./sub/out.txt", "sub//out.txt"})
    EXPECT_FALSE(open_below((root / "run").string(), bad).ok()) << bad;
  auto listed = list_files((root / "run").string());
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].path, "sub/out.txt");
  for (const char* name : {"in.txt", "A-b_c.1"}) EXPECT_TRUE(good_upload_name(name)) << name;
  for (const char* name : {".", "..", ".x", "a/b", "a b", ""}) EXPECT_FALSE(good_upload_name(name)) << name;
  ASSERT_TRUE(write_upload((root / "up2").string(), "in.txt", "bytes").ok());
  EXPECT_EQ(fs::file_size(root / "up2" / "in.txt"), 5u);
  fs::remove_all(root);
}

TEST(WebLogins, FiveFailuresAMinuteThenWait) {
  LoginLimiter limiter;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(limiter.wait_s("bob", "1.2.3.4", 100 + i), 0);
    limiter.failed("bob", "1.2.3.4", 100 + i);
  }
  EXPECT_GT(limiter.wait_s("bob", "5.6.7.8", 105), 0);
  EXPECT_EQ(limiter.wait_s("alice", "5.6.7.8", 105), 0);  // another name, another address
  EXPECT_EQ(limiter.wait_s("bob", "1.2.3.4", 161), 0);    // the minute has passed
}

TEST(WebRuns, ARunsStateIsItsJobs) {
  using S = JobState;
  EXPECT_EQ(run_state(std::vector<S>{S::Pending, S::Pending}), S::Pending);
  EXPECT_EQ(run_state(std::vector<S>{S::Completed, S::Running}), S::Running);
  EXPECT_EQ(run_state(std::vector<S>{S::Completed, S::Pending}), S::Running);  // between steps
  EXPECT_EQ(run_state(std::vector<S>{S::Failed, S::Pending}), S::Failed);     // its dependents never run
  EXPECT_EQ(run_state(std::vector<S>{S::Completed, S::Completed}), S::Completed);
  EXPECT_EQ(run_state(std::vector<S>{S::Completed, S::Cancelled}), S::Cancelled);
}

}  // namespace
}  // namespace yard::web
