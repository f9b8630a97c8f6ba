#include "core/text.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(Utf8, ValidAndInvalidSequences) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain ascii"));
  EXPECT_TRUE(is_valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80"));  // é € 🚀
  EXPECT_TRUE(is_valid_utf8("\xf4\x8f\xbf\xbf"));                          // U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xff"));
  EXPECT_FALSE(is_valid_utf8("caf\xe9"));             // Latin-1 é
  EXPECT_FALSE(is_valid_utf8("\xc3"));                // cut short
  EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));            // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xe0\x80\xaf"));        // overlong, 3 bytes
  EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));        // a surrogate, U+D800
  EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));    // above U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xe2\x82"));            // € without its last byte
}

TEST(Utf8, InvalidBytesAreEscapedOneByOne) {
  EXPECT_EQ(escape_invalid_utf8("caf\xe9!"), "caf\\xe9!");
  EXPECT_EQ(escape_invalid_utf8("\xff\xfe"), "\\xff\\xfe");
  // A valid character after a broken one is kept whole.
  EXPECT_EQ(escape_invalid_utf8("\xe2\x82\xc3\xa9"), "\\xe2\\x82\xc3\xa9");
  // Control characters are valid UTF-8: JSON escapes them itself.
  EXPECT_EQ(escape_invalid_utf8("a\x1b[31m"), "a\x1b[31m");
}

TEST(Utf8, TerminalEscapesControlCharacters) {
  EXPECT_EQ(escape_for_terminal("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(escape_for_terminal("a\nb\tc\x7f"), "a\\x0ab\\x09c\\x7f");
  EXPECT_EQ(escape_for_terminal("\xc2\x9b" "2J"), "\\u009b2J");  // C1 CSI
  EXPECT_EQ(escape_for_terminal("caf\xc3\xa9 \xff"), "caf\xc3\xa9 \\xff");
}

TEST(Utf8, CellsCutBetweenCharactersAndPad) {
  EXPECT_EQ(terminal_cell("abc", 5), "abc  ");
  EXPECT_EQ(terminal_cell("abcdef", 4), "abcd");
  // 16 characters of two bytes each: cut after the 4th character, not after 4 bytes.
  EXPECT_EQ(terminal_cell("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
  EXPECT_EQ(terminal_cell("\xf0\x9f\x9a\x80x", 1), "\xf0\x9f\x9a\x80");
  // An escape is never cut in its middle: it is left out whole, and the cell padded.
  EXPECT_EQ(terminal_cell("ab\x1b", 4), "ab  ");
  EXPECT_EQ(terminal_cell("ab\x1b", 6), "ab\\x1b");
  EXPECT_EQ(terminal_cell("ab\x1b" "cd", 5), "ab   ");
}

}  // namespace
}  // namespace yard
