// routes.yaml: wishes followed to a backend, size classes chosen by a job's request and
// put on the target's queue, the user's file over the site's, bad files refused naming
// their line, and a file changed read again (the last good routes kept when it is bad).
#include "routes/routes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "routes/routes_file.h"

namespace yard {
namespace {

namespace fs = std::filesystem;

class RoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("yard-routes-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  static bool known(const std::string& b) { return b == "local" || b == "slurm" || b == "sge" || b == "lsf"; }
  Result<Routes> load(const std::vector<std::string>& files) { return load_routes(files, known); }
  fs::path dir_;
};

constexpr const char* kSite =
    "wishes:\n"
    "  lsf: lsf\n"
    "  cluster: slurm\n"
    "classes:\n"
    "  small: {time: 1:00:00, cpus: 4, mem: 8G}\n"
    "  medium: {time: 1-00:00:00, cpus: 16, mem: 64G}\n"
    "  large: {time: 7-00:00:00}\n"
    "targets:\n"
    "  sge: {queues: {small: 1H, medium: 1D, large: 1W}, account: proj}\n"
    "  lsf: {queues: {small: short, large: long}}\n";

TEST_F(RoutesTest, AWishGoesToItsBackendAndOneLineReroutesIt) {
  const std::string site = write("site.yaml", kSite);
  auto routes = load({site});
  ASSERT_TRUE(routes) << routes.error();
  JobSpec spec;
  spec.backend = "lsf";
  spec.res.ntasks = 2;
  spec.res.walltime_s = 600;
  auto r = route_job(*routes, spec, "");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->backend, "lsf");
  EXPECT_EQ(r->size_class, "small");
  EXPECT_EQ(spec.partition, "short");
  // The user's one line: every job wished for LSF goes to Grid Engine, its class on
  // Grid Engine's queue, with the target's account.
  const std::string user = write("user.yaml", "wishes:\n  lsf: sge\n");
  routes = load({site, user});
  ASSERT_TRUE(routes) << routes.error();
  spec = {};
  spec.backend = "lsf";
  spec.res.walltime_s = 7200;
  r = route_job(*routes, spec, "");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(spec.backend, "sge");
  EXPECT_EQ(r->size_class, "medium");
  EXPECT_EQ(spec.partition, "1D");
  EXPECT_EQ(spec.account, "proj");
  EXPECT_EQ(r->why, "wish lsf -> sge (" + user + ":2); class medium (" + site + ":6): queue 1D");
  // A job's own choices stay; a named class gives its time to a job without one.
  spec = {};
  spec.backend = "lsf";
  spec.partition = "mine";
  r = route_job(*routes, spec, "large");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(spec.partition, "mine");
  EXPECT_EQ(spec.res.walltime_s, 7 * 86400);
}

TEST_F(RoutesTest, AJobNoClassHoldsIsRefusedNamingTheLargestAndTheLimit) {
  const std::string site = write("site.yaml", "classes:\n  small: {cpus: 4}\n  big: {cpus: 16, mem: 64G}\n");
  auto routes = load({site});
  ASSERT_TRUE(routes) << routes.error();
  JobSpec spec;
  spec.res.ntasks = 32;
  auto r = route_job(*routes, spec, "");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "no class holds this job: the largest, big (" + site + ":3): the job's 32 CPUs are above its 16");
  spec.res.ntasks = 8;
  r = route_job(*routes, spec, "small");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "class small (" + site + ":2): the job's 8 CPUs are above its 4");
  ASSERT_TRUE(route_job(*routes, spec, ""));
  EXPECT_EQ(spec.backend, "local");
}

// A drained target takes no new job: they go to its fallback, on that backend's queue
// for their class; one without a fallback refuses them, saying so.
TEST_F(RoutesTest, ADrainedTargetSendsNewJobsToItsFallback) {
  const std::string site = write("site.yaml", kSite);
  const std::string user = write("user.yaml", "targets:\n  lsf: {drain: true, fallback: sge}\n");
  auto routes = load({site, user});
  ASSERT_TRUE(routes) << routes.error();
  JobSpec spec;
  spec.backend = "lsf";
  spec.res.walltime_s = 600;
  auto r = route_job(*routes, spec, "");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(spec.backend, "sge");
  EXPECT_EQ(spec.partition, "1H");
  EXPECT_EQ(r->why, "lsf drained (" + user + ":2) -> sge; class small (" + site + ":5): queue 1H");
  write("user.yaml", "targets:\n  lsf: {drain: true}\n");
  routes = load({site, user});
  ASSERT_TRUE(routes) << routes.error();
  spec = {};
  spec.backend = "lsf";
  r = route_job(*routes, spec, "");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "backend lsf is drained (" + user + ":2) and has no fallback: no new job goes there");
  write("user.yaml", "targets:\n  lsf: {drain: true, fallback: sge}\n  sge: {drain: true, fallback: lsf}\n");
  auto cycle = load({user});
  ASSERT_FALSE(cycle);
  EXPECT_NE(cycle.error().find("the fallbacks lsf -> sge -> lsf are a cycle"), std::string::npos)
      << cycle.error();
}

// A target down (its scheduler not answering) sends new jobs to its fallback and on, past
// other targets down; one without a fallback keeps them (they wait for it). Fallbacks
// that loop are refused whatever is drained, since any target may go down.
TEST_F(RoutesTest, ADownTargetSendsNewJobsToItsFallbackAndOneWithoutKeepsThem) {
  const std::string site = write("site.yaml", kSite);
  const std::string user = write("user.yaml", "targets:\n  lsf: {fallback: sge}\n  sge: {fallback: local}\n");
  auto routes = load({site, user});
  ASSERT_TRUE(routes) << routes.error();
  std::set<std::string> down{"lsf"};
  auto why_down = [&](const std::string& b) { return down.count(b) ? "3 failed calls in a row" : ""; };
  JobSpec spec;
  spec.backend = "lsf";
  spec.res.walltime_s = 600;
  auto r = route_job(*routes, spec, "", why_down);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(spec.backend, "sge");
  EXPECT_EQ(spec.partition, "1H");  // the fallback's queue for the job's class
  EXPECT_EQ(r->why, "lsf down (3 failed calls in a row) -> sge; class small (" + site + ":5): queue 1H");
  down = {"lsf", "sge"};
  spec = {};
  spec.backend = "lsf";
  r = route_job(*routes, spec, "", why_down);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(spec.backend, "local");
  down = {"local"};
  spec = {};
  r = route_job(*routes, spec, "", why_down);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(spec.backend, "local");
  EXPECT_NE(r->why.find("local is down (3 failed calls in a row), no fallback: the job waits for it"), std::string::npos)
      << r->why;
  down.clear();
  spec = {};
  spec.backend = "lsf";
  ASSERT_TRUE(route_job(*routes, spec, "", why_down));
  EXPECT_EQ(spec.backend, "lsf");  // back once it answers
  write("user.yaml", "targets:\n  lsf: {fallback: sge}\n  sge: {fallback: lsf}\n");
  auto cycle = load({user});
  ASSERT_FALSE(cycle);
  EXPECT_NE(cycle.error().find(user + ":3: targets: the fallbacks lsf -> sge -> lsf are a cycle"), std::string::npos)
      << cycle.error();
}

TEST_F(RoutesTest, BadFilesAreRefusedNamingTheirLine) {
  auto refused = [&](const std::string& text, const std::string& needle) {
    const std::string f = write("bad.yaml", text);
    auto r = load({f});
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().find(needle), std::string::npos) << r.error();
  };
  refused("wishes:\n  lsf: pbs\n", "bad.yaml:2: wishes: 'pbs' is neither a backend nor a wish");
  refused("wishes:\n  a: b\n  b: a\n", "bad.yaml:2: wishes: a -> b -> a is a cycle");
  refused("targets:\n  pbs: {account: x}\n", "bad.yaml:2: targets: unknown backend 'pbs'");
  refused("classes:\n  small: {time: soon}\n", "bad.yaml:2: classes: small: time: ");
  refused("classes:\n  small: {gpus: 1}\n", "bad.yaml:2: classes: small: unknown limit 'gpus' (time, cpus, mem)");
  refused("targets:\n  sge: {queues: {huge: 1W}}\n", "targets: sge: queues: unknown class 'huge' (classes: none)");
  refused("targets:\n  sge: {drain: yes please}\n", "bad.yaml:2: targets: sge: drain: expected true or false");
  refused("targets:\n  sge: {drain: true, fallback: pbs}\n", "bad.yaml:2: targets: sge: fallback: unknown backend 'pbs'");
  refused("routes: []\n", "bad.yaml:1: unknown key 'routes' (wishes, classes, targets)");
  refused("wishes: [\n", "bad.yaml:");
}

TEST_F(RoutesTest, AChangedFileIsReadAgainAndABadOneKeepsTheLastGoodRoutes) {
  const std::string path = (dir_ / "routes.yaml").string();
  std::vector<std::string> said;
  RoutesFile file({(dir_ / "none.yaml").string(), path}, known, [&](const std::string& l) { said.push_back(l); });
  EXPECT_TRUE(file.current().empty());
  EXPECT_TRUE(said.empty());  // no file, nothing to say
  write("routes.yaml", "wishes:\n  lsf: sge\n");
  EXPECT_EQ(file.current().wishes.at("lsf"), "sge");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said.back(), "routes read again: 1 wishes, 0 classes, 0 targets");
  write("routes.yaml", "wishes:\n  lsf: nowhere\n");
  EXPECT_EQ(file.current().wishes.at("lsf"), "sge");
  EXPECT_NE(file.problem().find("routes.yaml:2: wishes: 'nowhere' is neither a backend nor a wish"), std::string::npos)
      << file.problem();
  EXPECT_NE(said.back().find("the routes read before stay in force"), std::string::npos);
  const auto count = said.size();
  file.current();  // unchanged: not read, nothing said
  EXPECT_EQ(said.size(), count);
  write("routes.yaml", "wishes:\n  lsf: slurm\n");
  EXPECT_EQ(file.current().wishes.at("lsf"), "slurm");
  EXPECT_TRUE(file.problem().empty());
}

}  // namespace
}  // namespace yard
