// Routes (routes.yaml) through the daemon: a wish routed by one line of the user's file
// over the site's, a size class chosen from the job's request, a job too big for every
// class refused, a file changed read again, and a bad one refused whole with the last
// good routes kept.
#include <filesystem>

#include "harness.h"

namespace yard::test {
namespace {

class Routes : public YardWorld {
 protected:
  Output yard_here(std::vector<std::string> args) { return yard(args, {"YARD_SITE_CONFIG_DIR=" + dir_ + "/site"}); }
  nlohmann::json checked(const std::string& cpus) {
    Output o = yard_here({"submit", "--test-only", "--json", "--backend", "cluster", "-n", cpus, "--", "true"});
    EXPECT_EQ(o.rc, 0) << o.out << o.err;
    return o.rc == 0 ? nlohmann::json::parse(o.out) : nlohmann::json{};
  }
};

TEST_F(Routes, AWishIsRoutedByOneLineAndABadFileKeepsTheRoutesInForce) {
  std::filesystem::create_directories(dir_ + "/site");
  write("site/routes.yaml", "classes:\n  small: {time: 1:00:00, cpus: 1}\n  big: {cpus: 2}\n");
  write("config/switchyard/routes.yaml", "wishes:\n  cluster: local\n");
  const std::string site = dir_ + "/site/routes.yaml", user = dir_ + "/config/switchyard/routes.yaml";
  auto j = checked("2");
  EXPECT_EQ(j["backend"], "local");
  EXPECT_EQ(j["route"], "wish cluster -> local (" + user + ":2); class big (" + site + ":3)");
  j = checked("1");
  EXPECT_EQ(j["route"], "wish cluster -> local (" + user + ":2); class small (" + site + ":2)");
  EXPECT_EQ(j["job"]["walltime_s"], 3600) << j.dump();  // the class's time
  Output too_big = yard_here({"submit", "--backend", "cluster", "-n", "4", "--", "true"});
  EXPECT_EQ(too_big.rc, 2);
  EXPECT_NE(too_big.err.find("routes.yaml: no class holds this job: the largest, big (" + site +
                             ":3): the job's 4 CPUs are above its 2"),
            std::string::npos)
      << too_big.err;

  // One line changed: every new job wished for the cluster goes to Slurm.
  write("config/switchyard/routes.yaml", "wishes:\n  cluster: slurm\n");
  EXPECT_EQ(checked("1")["backend"], "slurm");
  // A bad line: refused whole, said in the log, the routes before stay in force.
  write("config/switchyard/routes.yaml", "wishes:\n  cluster: nowhere\n");
  EXPECT_EQ(checked("1")["backend"], "slurm");
  // `yard routes` shows the routes in force, and why the new file was refused.
  Output shown = yard_here({"routes", "--json"});
  ASSERT_EQ(shown.rc, 0) << shown.err;
  auto routes = nlohmann::json::parse(shown.out);
  ASSERT_EQ(routes["wishes"].size(), 1u) << shown.out;
  EXPECT_EQ(routes["wishes"][0]["backend"], "slurm");
  EXPECT_EQ(routes["classes"].size(), 2u);
  EXPECT_EQ(routes["files"][1], user);
  EXPECT_NE(routes["problem"].get<std::string>().find("'nowhere' is neither a backend nor a wish"), std::string::npos);
  Output table = yard_here({"routes"});
  ASSERT_EQ(table.rc, 0) << table.err;
  EXPECT_NE(table.out.find("refused (the routes before stay in force): " + user + ":2:"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("cluster"), std::string::npos) << table.out;
  EXPECT_NE(read("state/switchyard/daemon.log")
                .find(user + ":2: wishes: 'nowhere' is neither a backend nor a wish; the routes read before stay in force"),
            std::string::npos)
      << read("state/switchyard/daemon.log");
  // Rolled back by the same line: the job runs here.
  write("config/switchyard/routes.yaml", "wishes:\n  cluster: local\n");
  Output o = yard_here({"submit", "--json", "--backend", "cluster", "-o", "/dev/null", "--", "true"});
  ASSERT_EQ(o.rc, 0) << o.err;
  const long id = nlohmann::json::parse(o.out)["id"];
  EXPECT_EQ(wait({id}), 0);
  EXPECT_EQ(job(id)["backend"], "local");
  EXPECT_EQ(job(id)["state"], "COMPLETED");
}

// `yard routes check` reads files as the daemon would, without one: a bad file is exit 2
// naming its file, line and value.
TEST_F(Routes, CheckNamesTheLineOfABadFileAndExits2) {
  write("good.yaml", "wishes:\n  lsf: sge\ntargets:\n  sge: {fallback: local}\n");
  write("bad.yaml", "wishes:\n  lsf: sge\n  cluster: nowhere\n");
  Output good = yard({"routes", "check", dir_ + "/good.yaml"});
  EXPECT_EQ(good.rc, 0) << good.err;
  EXPECT_NE(good.out.find("good: 1 wishes, 0 classes, 1 targets"), std::string::npos) << good.out;
  Output bad = yard({"routes", "check", dir_ + "/good.yaml", dir_ + "/bad.yaml"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find(dir_ + "/bad.yaml:3: wishes: 'nowhere' is neither a backend nor a wish"), std::string::npos)
      << bad.err;
  EXPECT_EQ(status().size(), 0u);
}

// `yard routes` tells each backend's health and its jobs not ended; `yard accounts --by
// target` the usage charged by account and by the backend the jobs ran on.
TEST_F(Routes, EachBackendsHealthAndJobsAreShownAndUsageChargedByTarget) {
  const long held = submit({"--account", "proj", "--", "sh", "-c", "while [ ! -e go ]; do sleep 0.05; done"});
  ASSERT_TRUE(wait_until([&] { return job(held)["state"] == "RUNNING"; }, 20));
  auto routes = nlohmann::json::parse(yard_here({"routes", "--json"}).out);
  nlohmann::json local;
  for (auto& b : routes["backends"])
    if (b["backend"] == "local") local = b;
  ASSERT_FALSE(local.is_null()) << routes.dump();
  EXPECT_EQ(local["down"], "");
  EXPECT_EQ(local["running"], 1) << local.dump();
  EXPECT_EQ(local["pending"], 0) << local.dump();
  Output table = yard_here({"routes"});
  EXPECT_NE(table.out.find("BACKEND              STATE    PENDING  RUNNING  UNKNOWN  WHY DOWN\nlocal                up       0        1  "),
            std::string::npos)
      << table.out;
  write("go", "");
  EXPECT_EQ(wait({held}), 0);
  const long other = submit({"--account", "other", "--", "true"});
  EXPECT_EQ(wait({other}), 0);
  Output charged = yard_here({"accounts", "--by", "target", "--json"});
  ASSERT_EQ(charged.rc, 0) << charged.err;
  auto rows = nlohmann::json::parse(charged.out);
  ASSERT_EQ(rows.size(), 2u) << charged.out;
  EXPECT_EQ(rows[1]["account"], "proj");
  EXPECT_EQ(rows[1]["target"], "local");
  EXPECT_EQ(rows[1]["jobs"], 1);
  EXPECT_GT(rows[1]["usage_core_hours"].get<double>(), 0);
  EXPECT_EQ(rows[0]["account"], "other");
  Output text = yard_here({"accounts", "--by", "target"});
  EXPECT_NE(text.out.find("proj             local                   1"), std::string::npos) << text.out;
  Output bad = yard_here({"accounts", "--by", "queue"});
  EXPECT_NE(bad.rc, 0);
  EXPECT_NE(bad.err.find("--by"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace yard::test
