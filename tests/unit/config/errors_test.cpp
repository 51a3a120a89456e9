// One test per class of user error, each asserting the complete one-line message.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "test_util.hpp"

namespace numagpu::config::testing {
namespace {

// ---- message format ----------------------------------------------------------------------------

TEST(ConfigErrorFormat, FullLocationAndKey) {
  const ConfigError error({"sys.yaml", 3, 7}, "l2.ways", "0 is out of range [1, 8]");
  EXPECT_STREQ(error.what(), "sys.yaml:3:7: l2.ways: 0 is out of range [1, 8]");
  EXPECT_EQ(error.where(), (Location{"sys.yaml", 3, 7}));
  EXPECT_EQ(error.key(), "l2.ways");
  EXPECT_EQ(error.message(), "0 is out of range [1, 8]");
}

TEST(ConfigErrorFormat, NoPositionOmitsLineAndColumn) {
  EXPECT_STREQ(ConfigError({"<default>", 0, 0}, "l2.ways", "bad").what(), "<default>: l2.ways: bad");
}

TEST(ConfigErrorFormat, EmptyKeyOmitsKey) {
  EXPECT_STREQ(ConfigError({"a.yaml", 2, 1}, "", "YAML syntax error: x").what(),
               "a.yaml:2:1: YAML syntax error: x");
}

TEST(ConfigErrorFormat, StaysOnOneLine) {
  EXPECT_STREQ(ConfigError({"a.yaml", 1, 1}, "k", "two\nlines").what(), "a.yaml:1:1: k: two\\nlines");
}

// ---- unknown keys -------------------------------------------------------------------------------

TEST(UnknownKey, SuggestsCloseSibling) {
  EXPECT_EQ(error_in("l2:\n  sise_bytes: 4096\n"),
            "a.yaml:2:3: l2.sise_bytes: unknown key 'sise_bytes' (did you mean 'size_bytes'?)");
}

TEST(UnknownKey, ListsSiblingsWhenNothingIsClose) {
  EXPECT_EQ(error_in("l2:\n  colour: red\n"),
            "a.yaml:2:3: l2.colour: unknown key 'colour' (expected one of: size_bytes, ways, organization)");
}

TEST(UnknownKey, AtTopLevel) {
  EXPECT_EQ(error_in("foo: 1\n"),
            "a.yaml:1:1: foo: unknown key 'foo' (expected one of: name, gpu, l2, workload)");
}

TEST(UnknownKey, InsideListItemUsesItemIndex) {
  EXPECT_EQ(error_in("workload:\n  kernels:\n    - name: k0\n    - name: k1\n      ctaz: 4\n"),
            "a.yaml:5:7: workload.kernels.1.ctaz: unknown key 'ctaz' (did you mean 'ctas'?)");
}

TEST(UnknownKey, IncludeIsOnlySpecialAtTheTopOfAFile) {
  EXPECT_EQ(error_in("gpu:\n  include: x.yaml\n"),
            "a.yaml:2:3: gpu.include: unknown key 'include' (expected one of: sockets, clock_ghz, coherent)");
}

// ---- wrong types --------------------------------------------------------------------------------

TEST(WrongType, IntegerGotWord) {
  EXPECT_EQ(error_in("gpu:\n  sockets: abc\n"), "a.yaml:2:12: gpu.sockets: expected an integer, got 'abc'");
}

TEST(WrongType, IntegerRejectsFraction) {
  EXPECT_EQ(error_in("gpu:\n  sockets: 1.5\n"), "a.yaml:2:12: gpu.sockets: expected an integer, got '1.5'");
}

TEST(WrongType, IntegerRejectsExponent) {
  EXPECT_EQ(error_in("l2:\n  ways: 1e3\n"), "a.yaml:2:9: l2.ways: expected an integer, got '1e3'");
}

TEST(WrongType, IntegerRejectsDigitSeparators) {
  EXPECT_EQ(error_in("l2:\n  ways: 1_6\n"), "a.yaml:2:9: l2.ways: expected an integer, got '1_6'");
}

TEST(WrongType, IntegerRejectsQuotedNumber) {
  EXPECT_EQ(error_in("gpu:\n  sockets: \"8\"\n"),
            "a.yaml:2:12: gpu.sockets: expected an integer, got a quoted string '8'");
}

TEST(WrongType, IntegerTooLarge) {
  EXPECT_EQ(error_in("l2:\n  ways: 9223372036854775808\n"),
            "a.yaml:2:9: l2.ways: '9223372036854775808' does not fit in a 64-bit integer");
}

TEST(WrongType, EmptyValueIsNullAndReportedAtTheKey) {
  EXPECT_EQ(error_in("gpu:\n  sockets:\n  coherent: true\n"),
            "a.yaml:2:3: gpu.sockets: expected an integer, got null");
}

TEST(WrongType, RealGotWord) {
  EXPECT_EQ(error_in("gpu:\n  clock_ghz: fast\n"),
            "a.yaml:2:14: gpu.clock_ghz: expected a number, got 'fast'");
}

TEST(WrongType, RealRejectsInfinity) {
  EXPECT_EQ(error_in("gpu:\n  clock_ghz: .inf\n"),
            "a.yaml:2:14: gpu.clock_ghz: expected a number, got '.inf'");
}

TEST(WrongType, RealTooLarge) {
  EXPECT_EQ(error_in("gpu:\n  clock_ghz: 1e999\n"),
            "a.yaml:2:14: gpu.clock_ghz: '1e999' is outside the range of a double");
}

TEST(WrongType, RealTooSmall) {
  EXPECT_EQ(error_in("gpu:\n  clock_ghz: 1e-999\n"),
            "a.yaml:2:14: gpu.clock_ghz: '1e-999' is outside the range of a double");
}

TEST(WrongType, Boolean) {
  EXPECT_EQ(error_in("gpu:\n  coherent: yes please\n"),
            "a.yaml:2:13: gpu.coherent: expected true or false, got 'yes please'");
}

TEST(WrongType, BooleanRejectsYaml11Words) {
  EXPECT_EQ(error_in("gpu:\n  coherent: on\n"),
            "a.yaml:2:13: gpu.coherent: expected true or false, got 'on'");
}

TEST(WrongType, StringGotMap) {
  EXPECT_EQ(error_in("name: {first: a}\n"), "a.yaml:1:7: name: expected a string, got a map");
}

TEST(WrongType, SectionGotScalar) {
  EXPECT_EQ(error_in("gpu: 4\n"), "a.yaml:1:6: gpu: expected a map, got '4'");
}

TEST(WrongType, ListGotMap) {
  EXPECT_EQ(error_in("workload:\n  kernels: {name: k0}\n"),
            "a.yaml:2:12: workload.kernels: expected a list, got a map");
}

TEST(WrongType, ListItemGotScalar) {
  EXPECT_EQ(error_in("workload:\n  kernels:\n    - k0\n"),
            "a.yaml:3:7: workload.kernels.0: expected a map, got 'k0'");
}

TEST(WrongType, TopLevelMustBeAMap) {
  EXPECT_EQ(error_in("- gpu\n- l2\n"), "a.yaml:1:1: expected a map at the top level, got a list");
}

TEST(WrongType, UnsupportedTag) {
  EXPECT_EQ(error_in("name: !path x\n"), "a.yaml:1:7: name: unsupported YAML tag '!path'");
}

// ---- bounds and choices -------------------------------------------------------------------------

TEST(OutOfRange, IntegerBelowRange) {
  EXPECT_EQ(error_in("gpu:\n  sockets: 0\n"), "a.yaml:2:12: gpu.sockets: 0 is out of range [1, 8]");
}

TEST(OutOfRange, HexValueShownInDecimal) {
  EXPECT_EQ(error_in("l2:\n  ways: 0x40\n"), "a.yaml:2:9: l2.ways: 64 is out of range [1, 32]");
}

TEST(OutOfRange, MinimumOnly) {
  EXPECT_EQ(error_in("l2:\n  size_bytes: 512\n"),
            "a.yaml:2:15: l2.size_bytes: 512 is out of range (must be >= 1024)");
}

TEST(OutOfRange, Real) {
  EXPECT_EQ(error_in("gpu:\n  clock_ghz: 3.5\n"),
            "a.yaml:2:14: gpu.clock_ghz: 3.5 is out of range [0.5, 3.0]");
}

TEST(Choice, UnknownValue) {
  EXPECT_EQ(error_in("l2:\n  organization: foo\n"),
            "a.yaml:2:17: l2.organization: expected one of memside, static, shared, numa_aware; got 'foo'");
}

TEST(Choice, IsCaseSensitive) {
  EXPECT_EQ(
      error_in("l2:\n  organization: Shared\n"),
      "a.yaml:2:17: l2.organization: expected one of memside, static, shared, numa_aware; got 'Shared'");
}

// ---- required keys and list lengths -------------------------------------------------------------

TEST(Required, MissingInWrittenSectionPointsAtTheSection) {
  EXPECT_EQ(load_error({text_layer("a.yaml", "gpu:\n  sockets: 2\nl2:\n  ways: 4\n")}),
            "a.yaml:4:3: l2.size_bytes: missing required key");
}

TEST(Required, MissingWithSectionAbsentPointsAtTheDocument) {
  EXPECT_EQ(load_error({text_layer("a.yaml", "# comment\nname: run\n")}),
            "a.yaml:2:1: l2.size_bytes: missing required key");
}

TEST(Required, MissingInListItem) {
  EXPECT_EQ(error_in("workload:\n  kernels:\n    - ctas: 2\n"),
            "a.yaml:3:7: workload.kernels.0.name: missing required key");
}

TEST(Required, NoLayersAtAll) {
  EXPECT_EQ(load_error({}), "<default>: l2.size_bytes: missing required key");
}

TEST(ListLength, TooManyItems) {
  EXPECT_EQ(error_in("workload:\n  kernels: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}]\n"),
            "a.yaml:2:12: workload.kernels: expected at most 4 items, got 5");
}

Schema bounded_list_schema() {
  Schema s;
  Schema& item = s.list("phases", "Phases").items(2, 3).element();
  item.integer("cycles", "Length").default_value(1);
  return s;
}

TEST(ListLength, TooFewItems) {
  EXPECT_EQ(load_error({text_layer("p.yaml", "phases:\n  - cycles: 5\n")}, {}, bounded_list_schema()),
            "p.yaml:2:3: phases: expected 2 to 3 items, got 1");
}

TEST(ListLength, AbsentListWithMinimumIsRequired) {
  EXPECT_EQ(load_error({text_layer("p.yaml", "{}\n")}, {}, bounded_list_schema()),
            "p.yaml:1:1: phases: missing required key");
}

// ---- YAML problems ------------------------------------------------------------------------------

TEST(YamlSyntax, ReportsParserMessageOneBased) {
  EXPECT_EQ(error_in("gpu:\n  sockets: [1, 2\n"),
            "a.yaml:3:1: YAML syntax error: end of sequence flow not found");
}

TEST(YamlSyntax, BadIndentation) {
  EXPECT_EQ(error_in("gpu: a: b\n"), "a.yaml:1:7: YAML syntax error: illegal map value");
}

TEST(YamlSyntax, DuplicateKey) {
  EXPECT_EQ(error_in("gpu:\n  sockets: 2\n  coherent: true\n  sockets: 4\n"),
            "a.yaml:4:3: gpu.sockets: duplicate key 'sockets' (first defined at line 2, column 3)");
}

TEST(YamlSyntax, DuplicateKeyInFlowMap) {
  EXPECT_EQ(error_in("gpu: {sockets: 2, sockets: 3}\n"),
            "a.yaml:1:19: gpu.sockets: duplicate key 'sockets' (first defined at line 1, column 7)");
}

TEST(YamlSyntax, SeveralDocuments) {
  EXPECT_EQ(error_in("name: a\n---\nname: b\n"), "a.yaml:3:1: expected a single YAML document, found 2");
}

TEST(File, Unreadable) {
  const TempDir dir;
  const std::string path = dir.path() + "/absent.yaml";
  EXPECT_EQ(load_error({file_layer(path)}),
            path + ": cannot read configuration file (No such file or directory)");
}

TEST(File, DirectoryIsNotAFile) {
  const TempDir dir;
  EXPECT_EQ(load_error({file_layer(dir.path())}),
            dir.path() + ": cannot read configuration file (Is a directory)");
}

TEST(File, ErrorsNameTheFile) {
  const TempDir dir;
  const std::string path = dir.write("sys.yaml", "l2:\n  size_bytes: 4096\n  ways: 0\n");
  EXPECT_EQ(load_error({file_layer(path)}), path + ":3:9: l2.ways: 0 is out of range [1, 32]");
}

TEST(File, DeviceThatNeverEndsIsRefused) {
  // /dev/zero would be read forever: only regular files are read.
  EXPECT_EQ(load_error({file_layer("/dev/zero")}),
            "/dev/zero: cannot read configuration file (not a regular file)");
  EXPECT_EQ(load_error({base_layer(), text_layer("a.yaml", "include: /dev/zero\n")}),
            "a.yaml:1:10: include: cannot read included file '/dev/zero' (not a regular file)");
}

TEST(File, LargerThan16MiBIsRefused) {
  const TempDir dir;
  const std::string big = dir.write("big.yaml", "# " + std::string((std::size_t(16) << 20) + 10, 'x') + "\n");
  EXPECT_EQ(load_error({file_layer(big)}),
            big + ": cannot read configuration file (larger than 16 MiB: not a configuration)");
}

// ---- encoding ------------------------------------------------------------------------------------

// A configuration is UTF-8: other bytes are refused where they are, not when a JSON writer meets them after
// the run ("[json.exception.type_error.316] invalid UTF-8 byte", naming no file or key).
TEST(Encoding, InvalidUtf8IsRefusedAtTheStringThatHoldsIt) {
  EXPECT_EQ(
      error_in("name: \"a\xff"
               "b\"\n"),
      "a.yaml:1:7: name: the value is not valid UTF-8 (byte 0xff at offset 1); a configuration is UTF-8 "
      "text");
  EXPECT_EQ(
      error_in("gpu:\n  so\xc3: 1\n"),
      "a.yaml:2:3: gpu: the key is not valid UTF-8 (byte 0xc3 at offset 2); a configuration is UTF-8 text");
  EXPECT_EQ(load_error({base_layer()}, {"name=\xed\xa0\x80"}),  // a UTF-16 surrogate, encoded as UTF-8
            "--set name=\\xed\\xa0\\x80: name: the value is not valid UTF-8 (byte 0xed at offset 0); a "
            "configuration is UTF-8 text");
  EXPECT_EQ(error_in("name: \"h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x99\x82\"\n"), "<no error>");
}

// Error messages reach a terminal: a control byte or a byte that is not UTF-8, from any part of the line,
// is shown as an escape.
TEST(Encoding, ControlBytesInMessagesAreEscaped) {
  EXPECT_EQ(error_in("gpu:\n  sockets: \"\x1b[2J\x07\"\n"),
            "a.yaml:2:12: gpu.sockets: expected an integer, got a quoted string '\\x1b[2J\\x07'");
  EXPECT_EQ(load_error({base_layer()}, {"gpu.sockets=\x1b"}),
            "--set gpu.sockets=\\x1b: gpu.sockets: expected an integer, got '\\x1b'");
}

// ---- hostile documents ---------------------------------------------------------------------------

// An alias bomb: each anchor is a list of ten aliases of the previous one, so a9 alone stands for 10^10
// nodes in a document of ten lines. The loader copies what it visits and must give up after 250000 nodes:
// counting depth-first, the root map and a0..a4 take 1 + 11 + 111 + 1111 + 11111 + 111111 = 123456 nodes,
// a5 itself one more, a5.0 (a copy of a4) 111111 more (234568), so the limit is crossed inside a5.1.
TEST(Hostile, AliasBombFailsFastNamingWhere) {
  std::string yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k)
      yaml += (k ? ", " : "") + prev;
    yaml += "]\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const std::string error = error_in(yaml);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(error.rfind("a.yaml:", 0), 0u) << error;
  EXPECT_NE(error.find(": a5.1."), std::string::npos) << error;
  EXPECT_NE(error.find("the document expands to more than 250000 YAML nodes"), std::string::npos) << error;
  EXPECT_LT(seconds, 10.0);  // about 0.1 s in a Release build; the unguarded loader never finished
}

// yaml-cpp 0.7's LoadAll never returns on some malformed streams (a lone comma is the smallest known: it
// adds an empty document at every turn, memory growing without bound). The loader counts the documents with a
// bound instead: the stream is rejected at once as more than one document.
TEST(Hostile, StreamOfEndlessEmptyDocumentsFailsFast) {
  const auto start = std::chrono::steady_clock::now();
  const std::string error = error_in(",\n");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(error.rfind("a.yaml:", 0), 0u) << error;
  EXPECT_NE(error.find("expected a single YAML document, found more than 64"), std::string::npos) << error;
  EXPECT_LT(seconds, 10.0);
}

TEST(Hostile, LargeButHonestDocumentStillLoads) {
  // 4000 kernels x 3 nodes (item map, name, ctas) + a few: well under the node limit.
  std::string yaml = "workload:\n  kernels:\n";
  for (int i = 0; i < 4000; ++i)
    yaml += "    - {name: k" + std::to_string(i) + ", ctas: 2}\n";
  Schema schema;
  Schema& kernel =
      schema.section("workload", "What to run").list("kernels", "Kernels").max_items(5000).element();
  kernel.string("name", "Kernel name").required();
  kernel.integer("ctas", "CTAs").default_value(1);
  EXPECT_EQ(load_error({text_layer("a.yaml", yaml)}, {}, schema), "<no error>");
}

}  // namespace
}  // namespace numagpu::config::testing
