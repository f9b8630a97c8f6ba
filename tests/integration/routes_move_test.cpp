// `yard routes move`: with Slurm's controller unreachable (its commands print Slurm's own
// error), the jobs yard holds for it move to the local machine and run there, in the order
// their dependencies say, keeping their ids and history; a job whose submission may have
// gone through stays; a second move moves nothing; --dry-run moves nothing.
#include <cstdlib>
#include <filesystem>

#include "harness.h"

namespace yard::test {
namespace {

class RoutesMove : public YardWorld {
 protected:
  // Slurm's commands, failing as they do when the controller cannot be reached.
  void unreachable_slurm() {
    std::filesystem::create_directories(dir_ + "/bin");
    for (const char* c : {"sbatch", "squeue", "sacct", "scancel", "scontrol"}) {
      const std::string path = dir_ + "/bin/" + c;
      write("bin/" + std::string(c), std::string("#!/bin/sh\necho \"") + c +
                                         ": error: Unable to contact slurm controller (connect failure)\" >&2\nexit 1\n");
      std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    }
    write("config/switchyard/slurm.yaml", "poll_interval: 0.2\nretry_max: 1\ndown_after_failures: 1\n");
    ASSERT_EQ(yard({"server", "start"}, {"PATH=" + dir_ + "/bin:" + std::getenv("PATH")}).rc, 0);
  }
  std::string slurm_down() {
    auto routes = nlohmann::json::parse(yard({"routes", "--json"}).out);
    for (auto& b : routes["backends"])
      if (b["backend"] == "slurm") return b["down"];
    return "";
  }
  nlohmann::json moved(std::vector<std::string> args) {
    Output o = yard(args);
    EXPECT_EQ(o.rc, 0) << o.err;
    return o.rc == 0 ? nlohmann::json::parse(o.out) : nlohmann::json{};
  }
};

TEST_F(RoutesMove, HeldJobsMoveWithTheirIdsAndDependenciesExactlyOnce) {
  unreachable_slurm();
  const long tried = submit({"--backend", "slurm", "-o", "/dev/null", "--", "true"});
  ASSERT_TRUE(wait_until([&] { return !slurm_down().empty(); }, 30));
  // Slurm is down: these are held by yard, never sent.
  const long first = submit({"--backend", "slurm", "-o", "first.out", "--", "sh", "-c", "echo first >> order"});
  const long second = submit({"--backend", "slurm", "--dependency", "afterok:" + std::to_string(first), "-o",
                              "second.out", "--", "sh", "-c", "echo second >> order"});
  ASSERT_TRUE(wait_until([&] { return job(first)["reason"].get<std::string>().find("is down") != std::string::npos; }, 30))
      << job(first).dump();

  auto dry = moved({"routes", "move", "slurm", "local", "--dry-run", "--json"});
  EXPECT_EQ(dry["moved"], nlohmann::json({first, second})) << dry.dump();
  ASSERT_EQ(dry["stay"].size(), 1u) << dry.dump();
  EXPECT_EQ(dry["stay"][0]["id"], tried);
  EXPECT_NE(dry["stay"][0]["why"].get<std::string>().find("may have gone through"), std::string::npos) << dry.dump();
  EXPECT_EQ(job(first)["backend"], "slurm");  // nothing moved

  auto done = moved({"routes", "move", "slurm", "local", "--json"});
  EXPECT_EQ(done["moved"], nlohmann::json({first, second})) << done.dump();
  EXPECT_EQ(wait({first, second}), 0);
  EXPECT_EQ(read("order"), "first\nsecond\n");  // the dependency held across the move
  for (long id : {first, second}) {
    auto j = job(id);
    EXPECT_EQ(j["backend"], "local") << j.dump();
    EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
  }
  Output shown = yard({"watch", "--no-follow", std::to_string(first)});
  EXPECT_NE(shown.out.find("moved from slurm to local (yard routes move)"), std::string::npos) << shown.out;
  EXPECT_EQ(job(tried)["backend"], "slurm");

  // Exactly once: nothing more to move; and a backend that does not exist is refused.
  auto again = moved({"routes", "move", "slurm", "local", "--json"});
  EXPECT_TRUE(again["moved"].empty()) << again.dump();
  Output text = yard({"routes", "move", "slurm", "local"});
  EXPECT_NE(text.out.find("moved 0 jobs from slurm to local"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("stayed in slurm, its submission may have gone through"), std::string::npos) << text.out;
  Output bad = yard({"routes", "move", "slurm", "nowhere"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("unknown backend 'nowhere'"), std::string::npos) << bad.err;
  ASSERT_EQ(yard({"cancel", std::to_string(tried)}).rc, 0);
}

}  // namespace
}  // namespace yard::test
