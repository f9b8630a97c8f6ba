#include "core/file_text.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace yard {
namespace {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/yard-file-text-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

TEST(FileText, ARegularFileIsReadWhole) {
  TempDir dir;
  const auto f = (dir.path / "job.sh").string();
  { std::ofstream(f) << "#!/bin/sh\necho \xff\n"; }
  auto text = read_file(f);
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(*text, "#!/bin/sh\necho \xff\n");
}

TEST(FileText, AFifoIsRefusedNamingItsTypeWithoutWaitingForAWriter) {
  TempDir dir;
  const auto fifo = (dir.path / "ff").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto text = read_file(fifo);  // would block forever in open() if it waited for a writer
  ASSERT_FALSE(text);
  EXPECT_EQ(text.kind(), ErrorKind::Invalid);
  EXPECT_EQ(text.error(), "'" + fifo + "' is a FIFO, not a file that can be read whole");
}

TEST(FileText, ADeviceIsRefusedBeforeAByteIsRead) {
  auto zero = read_file("/dev/zero");  // would grow without end
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error(), "'/dev/zero' is a character device, not a file that can be read whole");
  auto dir = read_file("/tmp");
  ASSERT_FALSE(dir);
  EXPECT_NE(dir.error().find("is a directory"), std::string::npos) << dir.error();
}

TEST(FileText, AFileOverTheLimitIsRefusedNamingItsSizeAndTheLimit) {
  TempDir dir;
  const auto f = (dir.path / "big.sh").string();
  { std::ofstream(f) << std::string(2500, 'x'); }
  auto text = read_file(f, 1000);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.kind(), ErrorKind::Invalid);
  EXPECT_EQ(text.error(), "'" + f + "' is 2.4 KiB; at most 1000 bytes can be read");
  EXPECT_TRUE(read_file(f, 2500));
}

// Written whole, with the mode asked for when created, through a descriptor closed on
// exec; a file that cannot be written is named with the system's reason.
TEST(FileText, AFileIsWrittenWholeWithItsMode) {
  TempDir dir;
  const auto f = (dir.path / "job.sh").string();
  std::string big(1 << 20, 'x');
  ASSERT_TRUE(write_whole_file(f, big, 0700));
  EXPECT_EQ(*read_file(f), big);
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_TRUE(write_whole_file(f, "short"));  // truncated
  EXPECT_EQ(*read_file(f), "short");
  auto bad = write_whole_file((dir.path / "no" / "such").string(), "x");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "cannot write " + (dir.path / "no" / "such").string() + ": No such file or directory");
}

TEST(FileText, SizesReadAsAPersonWouldSayThem) {
  EXPECT_EQ(readable_size(512), "512 bytes");
  EXPECT_EQ(readable_size(70'000'000), "66.8 MiB");
  EXPECT_EQ(readable_size(kMaxInputFileBytes), "64.0 MiB");
}

}  // namespace
}  // namespace yard
