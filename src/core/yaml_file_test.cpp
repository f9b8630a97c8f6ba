#include "core/yaml_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace yard {
namespace {

TEST(YamlFile, MalformedYamlNamesTheSourceAndTheLine) {
  auto bad = parse_yaml("a: 1\nb: [1, 2\n", "conf.yaml");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().rfind("conf.yaml:", 0), 0u) << bad.error();
  EXPECT_NE(bad.error().find("malformed YAML"), std::string::npos) << bad.error();
}

TEST(YamlFile, WhereAndWrongTypesNameTheLineOfTheValue) {
  auto doc = parse_yaml("a: 1\nb: x\n", "conf.yaml");
  ASSERT_TRUE(doc) << doc.error();
  EXPECT_EQ(yaml_where("conf.yaml", (*doc)["b"]), "conf.yaml:2");
  try {
    (void)(*doc)["b"].as<int>();
    FAIL() << "a string read as an int";
  } catch (const YAML::Exception& e) {
    EXPECT_EQ(yaml_error("conf.yaml", e).rfind("conf.yaml:2: ", 0), 0u) << yaml_error("conf.yaml", e);
  }
}

TEST(YamlFile, AMissingFileSaysSoAndAnEmptyOneIsNull) {
  auto missing = load_yaml("/nonexistent/dir/conf.yaml");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("cannot read '/nonexistent/dir/conf.yaml'"), std::string::npos) << missing.error();

  const auto path = std::filesystem::temp_directory_path() / ("yard-yaml-" + std::to_string(::getpid()) + ".yaml");
  { std::ofstream(path.string()) << ""; }
  auto empty = load_yaml(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(empty) << empty.error();
  EXPECT_TRUE(empty->IsNull());
}

}  // namespace
}  // namespace yard
