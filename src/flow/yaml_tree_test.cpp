#include "flow/yaml_tree.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(YamlTree, ReadsMapsListsScalarsAndTheirLinesAndFollowsAliases) {
  auto tree = YamlTree::parse("name: x\nlist: [a, 'b c', 3]\nempty:\nquoted: ''\nnested:\n  - k: &v 7\n  - k: *v\n",
                              "t.yaml");
  ASSERT_TRUE(tree.ok()) << tree.error();
  const YamlNode root = (*tree)->root();
  ASSERT_TRUE(root.is_map());
  EXPECT_EQ(root.size(), 5u);
  EXPECT_EQ(root["name"].str(), "x");
  EXPECT_EQ(root["list"].strings(), (std::vector<std::string>{"a", "b c", "3"}));
  EXPECT_EQ(root["list"].child(2).integer(), 3);
  EXPECT_EQ(root["list"].line(), 2);
  EXPECT_TRUE(root["empty"].is_null());
  EXPECT_TRUE(root["quoted"].is_scalar());
  EXPECT_EQ(root["quoted"].str(), "");
  EXPECT_FALSE(root["missing"]);
  EXPECT_EQ(root["nested"].child(1)["k"].integer(), 7);
  EXPECT_EQ(root["nested"].child(1).line(), 7);
  EXPECT_EQ(root.child(0).str(), "name");  // a map's keys at even places
  EXPECT_THROW((void)root["list"].text(), YamlValueError);
  EXPECT_THROW((void)root["name"].integer(), YamlValueError);
}

TEST(YamlTree, MalformedTextIsRefusedWithItsLine) {
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"a: [1, 2\nb: c\n", "t.yaml:2: malformed YAML: did not find expected"},
           {"a: *nowhere\n", "t.yaml: malformed YAML: line 1: alias *nowhere names no anchor"},
           {"a: 1\n---\nb: 2\n", "t.yaml:2: malformed YAML: a second document"},
           {"a: b: c\n", "t.yaml:1: malformed YAML: "},
       }) {
    auto tree = YamlTree::parse(text, "t.yaml");
    ASSERT_FALSE(tree.ok()) << text;
    EXPECT_EQ(tree.error().rfind(says, 0), 0u) << tree.error();
  }
  EXPECT_FALSE((*YamlTree::parse("", "t.yaml"))->root());
}

}  // namespace
}  // namespace yard
