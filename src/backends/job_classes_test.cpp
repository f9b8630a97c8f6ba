#include "backends/job_classes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "backends/indirect_backend.h"
#include "backends/slurm_yaml_fixture.h"

namespace yard {
namespace {

JobClasses two_classes() {
  JobClasses c;
  c["sweep"] = {"slurm-steps", "", "", "", 0, {}, std::nullopt};
  c["big"] = {"slurm", "cpu", "proj", "normal", 7200, {}, std::nullopt};
  return c;
}

TEST(JobClasses, AClassGivesItsBackendAndFillsOnlyWhatTheJobLeavesUnset) {
  JobSpec s;
  ASSERT_TRUE(apply_job_class(s, "big", two_classes()));
  EXPECT_EQ(s.backend, "slurm");
  EXPECT_EQ(s.partition, "cpu");
  EXPECT_EQ(s.account, "proj");
  EXPECT_EQ(s.qos, "normal");
  EXPECT_EQ(s.res.walltime_s, 7200);
  JobSpec own;
  own.partition = "gpu";
  own.res.walltime_s = 60;
  own.backend = "slurm";  // the same backend as the class: fine
  ASSERT_TRUE(apply_job_class(own, "big", two_classes()));
  EXPECT_EQ(own.partition, "gpu");
  EXPECT_EQ(own.res.walltime_s, 60);
  EXPECT_EQ(own.account, "proj");
  JobSpec steps;
  ASSERT_TRUE(apply_job_class(steps, "sweep", two_classes()));
  EXPECT_EQ(steps.backend, "slurm-steps");
  EXPECT_EQ(steps.partition, "");
}

TEST(JobClasses, AnUnknownClassOrAnotherBackendIsRefusedNamingThemAndChangesNothing) {
  JobSpec s;
  auto r = apply_job_class(s, "nosuch", two_classes());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "unknown class 'nosuch' (known: big, sweep)");
  EXPECT_EQ(s.backend, "");
  auto none = apply_job_class(s, "big", {});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error(), "unknown class 'big': no classes are defined (slurm.yaml `classes:`)");
  s.backend = "local";
  auto clash = apply_job_class(s, "big", two_classes());
  ASSERT_FALSE(clash);
  EXPECT_EQ(clash.error(), "class 'big' runs on backend 'slurm', but --backend local was given: drop one of them");
  EXPECT_EQ(s.backend, "local");
  EXPECT_EQ(s.partition, "");
}

class ClassesConfig : public SlurmYamlTest {};

TEST_F(ClassesConfig, ReadsBothForms) {
  auto c = load("classes:\n  sweep: slurm-steps\n  big:\n    backend: slurm\n    partition: cpu\n    time: 2:00:00\n");
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->classes.size(), 2u);
  EXPECT_EQ(c->classes.at("sweep").backend, "slurm-steps");
  EXPECT_EQ(c->classes.at("big").backend, "slurm");
  EXPECT_EQ(c->classes.at("big").partition, "cpu");
  EXPECT_EQ(c->classes.at("big").walltime_s, 7200);
}

TEST_F(ClassesConfig, AnOarBestEffortClassGivesItsJobTypesAndRequeue) {
  auto c = load("classes:\n  scavenge:\n    backend: oar\n    job_types: [besteffort, idempotent]\n    requeue: true\n");
  ASSERT_TRUE(c) << c.error();
  const JobClass& k = c->classes.at("scavenge");
  EXPECT_EQ(k.job_types, (std::vector<std::string>{"besteffort", "idempotent"}));
  EXPECT_EQ(k.requeue, true);
  JobSpec own;
  own.job_types = {"besteffort"};
  own.requeue = false;  // the job's own choice wins
  ASSERT_TRUE(apply_job_class(own, "scavenge", c->classes));
  EXPECT_EQ(own.job_types, (std::vector<std::string>{"besteffort", "idempotent"}));
  EXPECT_EQ(own.requeue, false);
  auto bad = load("classes:\n  s: {backend: oar, requeue: yes please}\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("requeue: expected true or false"), std::string::npos) << bad.error();
  auto list = load("classes:\n  s: {backend: oar, job_types: besteffort}\n");
  ASSERT_FALSE(list);
  EXPECT_NE(list.error().find("job_types: expected a list"), std::string::npos) << list.error();
}

TEST_F(ClassesConfig, BadClassesAreNamedWithTheirLine) {
  // Any backend's name: the daemon refuses a job of a class whose backend it does not
  // have (tests/seam), whichever backends it has (oar-steps, a test's own).
  auto a = load("poll_interval: 1\nclasses:\n  sweep: oar-steps\n  mine: {backend: fake}\n");
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->classes.at("sweep").backend, "oar-steps");
  auto b = load("classes:\n  big:\n    backend: slurm\n    partiton: cpu\n");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().find(":4: classes: big: unknown key 'partiton'"), std::string::npos) << b.error();
  auto t = load("classes:\n  big: {backend: slurm, time: \"1:x:00\"}\n");
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().find("classes: big: time:"), std::string::npos) << t.error();
  auto m = load("classes:\n  big: {partition: cpu}\n");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().find(":2: classes: big: no backend"), std::string::npos) << m.error();
  auto l = load("classes: [a, b]\n");
  ASSERT_FALSE(l);
  EXPECT_NE(l.error().find("classes: expected a mapping"), std::string::npos) << l.error();
}

}  // namespace
}  // namespace yard
