#include "core/json_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace yard {
namespace {

TEST(JsonText, InvalidBytesBecomeEscapesAndNothingThrows) {
  nlohmann::json j = {{"name", "caf\xe9"}, {"ok", "caf\xc3\xa9"}, {"list", {"\xff", 3}}, {"n", nullptr}};
  j["env"] = {{"K\xfe", "v"}};
  std::string out;
  ASSERT_NO_THROW(out = dump_json(j));
  auto back = nlohmann::json::parse(out);
  EXPECT_EQ(back["name"], "caf\\xe9");
  EXPECT_EQ(back["ok"], "caf\xc3\xa9");
  EXPECT_EQ(back["list"][0], "\\xff");
  EXPECT_EQ(back["list"][1], 3);
  EXPECT_EQ(back["env"]["K\\xfe"], "v");
  EXPECT_TRUE(back["n"].is_null());
  // Valid text is dumped exactly as nlohmann would, indentation included.
  nlohmann::json fine = {{"a", "\x1b[31m"}, {"b", {1, 2}}};
  EXPECT_EQ(dump_json(fine, 2), fine.dump(2));
}

}  // namespace
}  // namespace yard
