// Plain, gzip and xz input told apart by content and name; line splitting across buffer refills.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"
#include "trace/input_stream.hpp"
#include "trace/line_reader.hpp"
#include "trace/trace.hpp"

namespace numagpu::trace {
namespace {

using testing::error_of;
using testing::TempDir;

std::string read_everything(const std::string& path, Warnings* warnings = nullptr) {
  auto in = InputStream::open(path, warnings);
  std::string out;
  char buf[7];  // tiny on purpose: many refills
  for (size_t n; (n = in->read(buf, sizeof(buf))) > 0;)
    out.append(buf, n);
  EXPECT_EQ(in->position(), out.size());
  return out;
}

std::vector<std::string> lines_of(const std::string& path, size_t buffer = 64) {
  LineReader reader(InputStream::open(path), buffer);
  std::vector<std::string> lines;
  std::string_view line;
  while (reader.next(line)) {
    lines.emplace_back(line);
    EXPECT_EQ(reader.line_number(), lines.size());
  }
  return lines;
}

// 200 KiB of numbered lines: larger than one compressed chunk once decompressed.
std::string sample_text() {
  std::string s;
  for (int i = 0; s.size() < 200 * 1024; ++i)
    s += "line " + std::to_string(i) + " 0123456789abcdef\n";
  return s;
}

TEST(Compression, MagicBytesAndExtensions) {
  const unsigned char xz[] = {0xfd, '7', 'z', 'X', 'Z', 0x00, 1};
  const unsigned char gz[] = {0x1f, 0x8b, 8};
  const unsigned char text[] = {'-', 'k'};
  EXPECT_EQ(compression_from_magic(xz, sizeof(xz)), Compression::kXz);
  EXPECT_EQ(compression_from_magic(xz, 5), Compression::kNone);  // too short to tell
  EXPECT_EQ(compression_from_magic(gz, sizeof(gz)), Compression::kGzip);
  EXPECT_EQ(compression_from_magic(text, sizeof(text)), Compression::kNone);
  EXPECT_EQ(compression_from_extension("a/kernel-1.traceg.xz"), Compression::kXz);
  EXPECT_EQ(compression_from_extension("kernel-1.traceg.gz"), Compression::kGzip);
  EXPECT_EQ(compression_from_extension("kernel-1.traceg"), Compression::kNone);
  EXPECT_EQ(compression_from_extension("xz"), Compression::kNone);
}

TEST(InputStream, DecompressesToTheSameBytes) {
  const std::string text = sample_text();
  TempDir dir;
  EXPECT_EQ(read_everything(dir.write("t.traceg", text)), text);
  EXPECT_EQ(read_everything(dir.write("t.traceg.gz", testing::gzip_bytes(text))), text);
  EXPECT_EQ(read_everything(dir.write("t.traceg.xz", testing::xz_bytes(text))), text);
  EXPECT_EQ(InputStream::open(dir.path("t.traceg.xz"))->compression(), Compression::kXz);
  EXPECT_EQ(InputStream::open(dir.path("t.traceg.gz"))->compression(), Compression::kGzip);
  EXPECT_EQ(InputStream::open(dir.path("t.traceg"))->compression(), Compression::kNone);
}

TEST(InputStream, ConcatenatedStreamsDecodeWhole) {
  // What `cat a.gz b.gz` and `cat a.xz b.xz` produce; gunzip and xz -d decode both parts.
  TempDir dir;
  EXPECT_EQ(
      read_everything(dir.write("c.gz", testing::gzip_bytes("first\n") + testing::gzip_bytes("second\n"))),
      "first\nsecond\n");
  EXPECT_EQ(read_everything(dir.write("c.xz", testing::xz_bytes("first\n") + testing::xz_bytes("second\n"))),
            "first\nsecond\n");
}

TEST(InputStream, EmptyFiles) {
  TempDir dir;
  EXPECT_EQ(read_everything(dir.write("empty.traceg", "")), "");
  EXPECT_EQ(read_everything(dir.write("empty.xz", testing::xz_bytes(""))), "");
  EXPECT_EQ(read_everything(dir.write("empty.gz", testing::gzip_bytes(""))), "");
}

TEST(InputStream, TruncatedCompressedStreamsAreErrors) {
  const std::string text = sample_text();
  TempDir dir;
  const std::string xz = testing::xz_bytes(text);
  const std::string gz = testing::gzip_bytes(text);
  for (const size_t cut : {size_t{7}, xz.size() / 2, xz.size() - 1}) {
    const std::string path = dir.write("cut.xz", xz.substr(0, cut));
    EXPECT_EQ(error_of([&] { read_everything(path); }),
              path + ": truncated xz stream: the compressed data ends before its end marker")
        << "cut at " << cut;
  }
  for (const size_t cut : {size_t{3}, gz.size() / 2, gz.size() - 1}) {
    const std::string path = dir.write("cut.gz", gz.substr(0, cut));
    EXPECT_EQ(error_of([&] { read_everything(path); }),
              path + ": truncated gzip stream: the compressed data ends before its end marker")
        << "cut at " << cut;
  }
}

TEST(InputStream, CorruptCompressedDataIsAnError) {
  TempDir dir;
  std::string xz = testing::xz_bytes(sample_text());
  xz[xz.size() / 2] = static_cast<char>(xz[xz.size() / 2] ^ 0x55);
  const std::string path = dir.write("bad.xz", xz);
  EXPECT_EQ(error_of([&] { read_everything(path); }), path + ": corrupt xz data");
  std::string gz = testing::gzip_bytes(sample_text());
  gz[gz.size() - 6] = static_cast<char>(gz[gz.size() - 6] ^ 0x55);  // inside the CRC-32 trailer
  const std::string gz_path = dir.write("bad.gz", gz);
  EXPECT_EQ(error_of([&] { read_everything(gz_path); }),
            gz_path + ": corrupt gzip data (incorrect data check)");
}

TEST(InputStream, NameAndContentMustAgree) {
  TempDir dir;
  const std::string xz_name = dir.write("plain.traceg.xz", "-kernel name = k\n");
  EXPECT_EQ(
      error_of([&] { InputStream::open(xz_name); }),
      xz_name +
          ": the name ends in .xz but the content is not xz data (expected magic bytes FD 37 7A 58 5A 00)");
  const std::string gz_name = dir.write("xz-inside.gz", testing::xz_bytes("x"));
  EXPECT_EQ(error_of([&] { InputStream::open(gz_name); }),
            gz_name + ": the name ends in .gz but the content is not gzip data (expected magic bytes 1F 8B)");
  Warnings warnings;
  EXPECT_EQ(read_everything(dir.write("packed.traceg", testing::gzip_bytes("x\n")), &warnings), "x\n");
  ASSERT_EQ(warnings.messages().size(), 1u);
  EXPECT_EQ(warnings.messages()[0], dir.path("packed.traceg") +
                                        ": the content is gzip-compressed but the name does not say so; "
                                        "decompressing by content");
}

TEST(InputStream, MissingFileAndDirectory) {
  TempDir dir;
  EXPECT_EQ(error_of([&] { InputStream::open(dir.path("absent.traceg")); }),
            dir.path("absent.traceg") + ": cannot open (No such file or directory)");
  EXPECT_EQ(error_of([&] { read_everything(dir.path("")); }),
            dir.path("") + ": cannot read (Is a directory)");
}

TEST(LineReader, SplitsLinesAcrossRefillsAndGrowsForLongLines) {
  std::string text = sample_text();
  const std::string long_line(5000, 'x');  // far beyond the 64-byte initial buffer
  text += long_line + "\n";
  TempDir dir;
  const std::vector<std::string> lines = lines_of(dir.write("t.xz", testing::xz_bytes(text)));
  ASSERT_GT(lines.size(), 1000u);
  EXPECT_EQ(lines[0], "line 0 0123456789abcdef");
  EXPECT_EQ(lines[1000], "line 1000 0123456789abcdef");
  EXPECT_EQ(lines.back(), long_line);
}

TEST(LineReader, LineEndings) {
  TempDir dir;
  EXPECT_EQ(lines_of(dir.write("a", "a\r\nb\n\nc")), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(lines_of(dir.write("b", "a\n")), (std::vector<std::string>{"a"}));
  EXPECT_EQ(lines_of(dir.write("c", "\n")), (std::vector<std::string>{""}));
  EXPECT_EQ(lines_of(dir.write("d", "last\r")), (std::vector<std::string>{"last"}));
  EXPECT_TRUE(lines_of(dir.write("e", "")).empty());
}

}  // namespace
}  // namespace numagpu::trace
