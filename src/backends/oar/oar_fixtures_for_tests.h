// For the OAR unit tests: the text of an output captured from a real OAR 2.5.9
// (tests/fixtures/oar/, whose README says which command printed it).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/file_text.h"

namespace yard {

inline std::string oar_fixture(const std::string& name) {
  auto text = read_file(std::string(YARD_OAR_FIXTURES) + "/" + name);
  EXPECT_TRUE(text) << text.error();
  return text ? *text : "";
}

}  // namespace yard
