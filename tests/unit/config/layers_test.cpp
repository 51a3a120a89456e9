// Layering: deep merge, includes and --set overrides, including where their values come from.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "test_util.hpp"

namespace numagpu::config::testing {
namespace {

// ---- deep merge ---------------------------------------------------------------------------------

TEST(Merge, MapsMergeKeyByKeyAndLaterWins) {
  const Config cfg =
      load(test_schema(),
           {text_layer("base.yaml", "gpu:\n  sockets: 2\n  coherent: false\nl2:\n  size_bytes: 4096\n"),
            text_layer("over.yaml", "gpu:\n  sockets: 8\n")},
           {});
  EXPECT_EQ(cfg.integer("gpu.sockets"), 8);
  EXPECT_FALSE(cfg.boolean("gpu.coherent"));
  EXPECT_EQ(cfg.integer("l2.size_bytes"), 4096);
  EXPECT_EQ(cfg.location("gpu.sockets"), (Location{"over.yaml", 2, 12}));
  EXPECT_EQ(cfg.location("gpu.coherent"), (Location{"base.yaml", 3, 13}));
  EXPECT_EQ(cfg.location("gpu"), (Location{"over.yaml", 2, 3}));  // the section as last written
}

TEST(Merge, ListsAreReplacedWhole) {
  const Config cfg =
      load(test_schema(),
           {base_layer(),
            text_layer("a.yaml",
                       "workload:\n  kernels:\n    - {name: a, ctas: 5}\n    - {name: b}\n    - {name: c}\n"),
            text_layer("b.yaml", "workload:\n  kernels:\n    - name: x\n")},
           {});
  ASSERT_EQ(cfg.list_size("workload.kernels"), 1u);
  EXPECT_EQ(cfg.string("workload.kernels.0.name"), "x");
  EXPECT_EQ(cfg.integer("workload.kernels.0.ctas"), 1);  // a's ctas: 5 does not leak into x
  EXPECT_EQ(cfg.location("workload.kernels"), (Location{"b.yaml", 3, 5}));
}

TEST(Merge, ScalarReplacesMapAndIsThenRejected) {
  EXPECT_EQ(load_error({base_layer(), text_layer("a.yaml", "gpu:\n  sockets: 2\n"),
                        text_layer("b.yaml", "gpu: off\n")}),
            "b.yaml:1:6: gpu: expected a map, got 'off'");
}

TEST(Merge, EmptyLayerChangesNothing) {
  const Config cfg = load(test_schema(), {base_layer(), text_layer("empty.yaml", "# nothing yet\n")}, {});
  EXPECT_EQ(cfg.integer("l2.size_bytes"), 4096);
}

// ---- includes -----------------------------------------------------------------------------------

TEST(Include, RelativeToTheIncludingFileAndOverriddenByIt) {
  const TempDir dir;
  const std::string base =
      dir.write("parts/base.yaml", "l2:\n  size_bytes: 8192\ngpu:\n  sockets: 8\n  coherent: false\n");
  const std::string main = dir.write("main.yaml", "include: parts/base.yaml\ngpu:\n  sockets: 2\n");
  const Config cfg = load(test_schema(), {file_layer(main)}, {});
  EXPECT_EQ(cfg.integer("gpu.sockets"), 2);
  EXPECT_FALSE(cfg.boolean("gpu.coherent"));
  EXPECT_EQ(cfg.integer("l2.size_bytes"), 8192);
  EXPECT_EQ(cfg.location("l2.size_bytes"), (Location{base, 2, 15}));
  EXPECT_EQ(cfg.location("gpu.sockets"), (Location{main, 3, 12}));
}

TEST(Include, NestedIncludesResolveAgainstTheirOwnDirectory) {
  const TempDir dir;
  const std::string common = dir.write("parts/common.yaml", "l2:\n  size_bytes: 2048\n  ways: 4\n");
  dir.write("parts/base.yaml", "include: common.yaml\nl2:\n  ways: 8\n");
  const std::string main = dir.write("main.yaml", "include: [parts/base.yaml]\nname: nested\n");
  const Config cfg = load(test_schema(), {file_layer(main)}, {});
  EXPECT_EQ(cfg.integer("l2.size_bytes"), 2048);
  EXPECT_EQ(cfg.integer("l2.ways"), 8);
  EXPECT_EQ(cfg.string("name"), "nested");
  EXPECT_EQ(cfg.location("l2.size_bytes"), (Location{common, 2, 15}));
}

TEST(Include, ListIsMergedInOrder) {
  const TempDir dir;
  dir.write("one.yaml", "l2:\n  size_bytes: 4096\n  ways: 2\n");
  dir.write("two.yaml", "l2:\n  ways: 3\n");
  const std::string main = dir.write("main.yaml", "include:\n  - one.yaml\n  - two.yaml\n");
  EXPECT_EQ(load(test_schema(), {file_layer(main)}, {}).integer("l2.ways"), 3);
}

TEST(Include, EmbeddedLayerResolvesAgainstTheDirectoryOfItsName) {
  const TempDir dir;
  dir.write("parts/base.yaml", "l2:\n  size_bytes: 16384\n");
  const Config cfg =
      load(test_schema(), {text_layer(dir.path() + "/virtual.yaml", "include: parts/base.yaml\n")}, {});
  EXPECT_EQ(cfg.integer("l2.size_bytes"), 16384);
}

TEST(Include, CycleIsReportedWithTheChain) {
  const TempDir dir;
  const std::string a = dir.write("a.yaml", "include: b.yaml\n");
  const std::string b = dir.write("b.yaml", "name: b\ninclude: a.yaml\n");
  EXPECT_EQ(load_error({file_layer(a)}), b + ":2:10: include: include cycle: " + a + " -> " + b + " -> " + a);
}

TEST(Include, SelfInclude) {
  const TempDir dir;
  const std::string a = dir.write("a.yaml", "include: ./a.yaml\n");
  EXPECT_EQ(load_error({file_layer(a)}), a + ":1:10: include: include cycle: " + a + " -> " + a);
}

TEST(Include, DiamondIsNotACycle) {
  const TempDir dir;
  dir.write("common.yaml", "l2:\n  size_bytes: 4096\n");
  dir.write("x.yaml", "include: common.yaml\n");
  dir.write("y.yaml", "include: common.yaml\n");
  const std::string main = dir.write("main.yaml", "include: [x.yaml, y.yaml]\n");
  EXPECT_EQ(load(test_schema(), {file_layer(main)}, {}).integer("l2.size_bytes"), 4096);
}

TEST(Include, MissingFileIsReportedAtTheIncludeValue) {
  const TempDir dir;
  const std::string a = dir.write("a.yaml", "gpu:\n  sockets: 2\ninclude: [base.yaml,  nothere.yaml]\n");
  dir.write("base.yaml", "{}\n");
  EXPECT_EQ(load_error({file_layer(a)}), a + ":3:23: include: cannot read included file '" + dir.path() +
                                             "/nothere.yaml' (No such file or directory)");
}

TEST(Include, ValueMustBeFileNames) {
  EXPECT_EQ(load_error({text_layer("a.yaml", "include: {file: x.yaml}\n")}),
            "a.yaml:1:10: include: expected a file name or a list of file names, got a map");
}

TEST(Include, ErrorsInsideAnIncludedFileNameThatFile) {
  const TempDir dir;
  const std::string bad = dir.write("bad.yaml", "l2:\n  ways: many\n");
  const std::string main = dir.write("main.yaml", "include: bad.yaml\nl2:\n  size_bytes: 4096\n");
  EXPECT_EQ(load_error({file_layer(main)}), bad + ":2:9: l2.ways: expected an integer, got 'many'");
}

// ---- bounded includes (docs/reliability.md, "Input limits") -------------------------------------------

// f0 includes f1 twice, f1 includes f2 twice, ...: expanding every edge again reads f20 2^20 times (34 s
// before each file was read once); now 21 reads and 40 edges.
TEST(IncludeBounds, FileIncludedTwiceAtEveryLevelIsReadOnce) {
  const TempDir dir;
  constexpr int kDepth = 20;
  for (int i = 0; i < kDepth; ++i) {
    const std::string next = "f" + std::to_string(i + 1) + ".yaml";
    dir.write("f" + std::to_string(i) + ".yaml", "include: [" + next + ", " + next + "]\n");
  }
  dir.write("f" + std::to_string(kDepth) + ".yaml", "l2:\n  size_bytes: 8192\n");
  const auto start = std::chrono::steady_clock::now();
  const Config cfg = load(test_schema(), {file_layer(dir.path() + "/f0.yaml")}, {});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(cfg.integer("l2.size_bytes"), 8192);
  EXPECT_LT(seconds, 5.0);  // milliseconds; 34 s when every edge was expanded again
}

TEST(IncludeBounds, MoreThan256IncludeEdgesAreRefused) {
  const TempDir dir;
  dir.write("part.yaml", "l2:\n  ways: 2\n");
  std::string names;
  for (int i = 0; i < 257; ++i)
    names += (i ? ", " : "") + std::string("part.yaml");
  const std::string main = dir.write("main.yaml", "l2:\n  size_bytes: 4096\ninclude: [" + names + "]\n");
  // The 257th name starts at column 11 + 256 * 11.
  EXPECT_EQ(load_error({file_layer(main)}),
            main + ":3:" + std::to_string(11 + 256 * 11) +
                ": include: more than 256 includes in one configuration (nested includes repeating files?)");
  const std::string ok = dir.write("ok.yaml", "l2:\n  size_bytes: 4096\ninclude: [part.yaml, part.yaml]\n");
  EXPECT_EQ(load_error({file_layer(ok)}), "<no error>");
}

// A named pipe blocks the open until a writer comes, for ever. Before the check, the writer this test opens
// (after 3 s, then every 50 ms until both loads return) released the loader, which read an empty
// configuration.
TEST(IncludeBounds, NamedPipeIsRefusedWithoutBlocking) {
  const TempDir dir;
  const std::string fifo = dir.path() + "/pipe.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::atomic<bool> done{false};
  std::thread release([&fifo, &done] {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    while (!done) {
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // ENXIO when nobody reads: fine
      if (fd >= 0) ::close(fd);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  const auto start = std::chrono::steady_clock::now();
  const std::string as_layer = load_error({base_layer(), file_layer(fifo)});
  const std::string as_include =
      load_error({base_layer(), text_layer(dir.path() + "/a.yaml", "include: pipe.yaml\n")});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  done = true;
  release.join();
  EXPECT_EQ(as_layer, fifo + ": cannot read configuration file (not a regular file)");
  EXPECT_EQ(as_include, dir.path() + "/a.yaml:1:10: include: cannot read included file '" + fifo +
                            "' (not a regular file)");
  EXPECT_LT(seconds, 2.0);
}

// ---- --set overrides ----------------------------------------------------------------------------

TEST(Override, ScalarsOfEveryType) {
  const Config cfg =
      load(test_schema(), {base_layer()},
           {"gpu.sockets=2", "gpu.clock_ghz=2.25", "gpu.coherent=false", "name=run 7", "l2.ways=0x8"});
  EXPECT_EQ(cfg.integer("gpu.sockets"), 2);
  EXPECT_DOUBLE_EQ(cfg.real("gpu.clock_ghz"), 2.25);
  EXPECT_FALSE(cfg.boolean("gpu.coherent"));
  EXPECT_EQ(cfg.string("name"), "run 7");
  EXPECT_EQ(cfg.integer("l2.ways"), 8);
}

TEST(Override, Choice) {
  const Config cfg = load(test_schema(), {base_layer()}, {"l2.organization=shared"});
  EXPECT_EQ(cfg.string("l2.organization"), "shared");
}

TEST(Override, AppliedInOrderAfterAllLayers) {
  const Config cfg = load(test_schema(), {base_layer(), text_layer("a.yaml", "l2:\n  ways: 4\n")},
                          {"l2.ways=8", "l2.ways=2"});
  EXPECT_EQ(cfg.integer("l2.ways"), 2);
  EXPECT_EQ(cfg.location("l2.ways"), (Location{"--set l2.ways=2", 0, 0}));
}

TEST(Override, ListItemField) {
  const Config cfg =
      load(test_schema(),
           {base_layer(), text_layer("w.yaml", "workload:\n  kernels:\n    - name: a\n    - name: b\n")},
           {"workload.kernels.1.ctas=8"});
  EXPECT_EQ(cfg.integer("workload.kernels.0.ctas"), 1);
  EXPECT_EQ(cfg.integer("workload.kernels.1.ctas"), 8);
  EXPECT_EQ(cfg.location("workload.kernels.1.ctas"), (Location{"--set workload.kernels.1.ctas=8", 0, 0}));
  EXPECT_EQ(cfg.location("workload.kernels.1.name"), (Location{"w.yaml", 4, 13}));
}

TEST(Override, WholeListAsFlowYaml) {
  const Config cfg =
      load(test_schema(), {base_layer()}, {"workload.kernels=[{name: k, ctas: 3}, {name: j}]"});
  ASSERT_EQ(cfg.list_size("workload.kernels"), 2u);
  EXPECT_EQ(cfg.integer("workload.kernels.0.ctas"), 3);
  EXPECT_EQ(cfg.string("workload.kernels.1.name"), "j");
}

TEST(Override, CreatesSectionsThatNoLayerWrote) {
  const Config cfg = load(test_schema(), {}, {"l2.size_bytes=2048"});
  EXPECT_EQ(cfg.integer("l2.size_bytes"), 2048);
  EXPECT_EQ(cfg.integer("l2.ways"), 16);
}

TEST(OverrideError, NoEqualsSign) {
  EXPECT_EQ(load_error({base_layer()}, {"gpu.sockets"}), "--set gpu.sockets: expected key.path=value");
}

TEST(OverrideError, EmptyKey) {
  EXPECT_EQ(load_error({base_layer()}, {"=4"}), "--set =4: empty key path; expected key.path=value");
}

TEST(OverrideError, EmptyPathComponent) {
  EXPECT_EQ(load_error({base_layer()}, {"gpu..sockets=4"}),
            "--set gpu..sockets=4: gpu..sockets: empty component in key path");
}

TEST(OverrideError, UnknownKeyGetsSuggestion) {
  EXPECT_EQ(load_error({base_layer()}, {"gpu.sokets=4"}),
            "--set gpu.sokets=4: gpu.sokets: unknown key 'sokets' (did you mean 'sockets'?)");
}

TEST(OverrideError, WrongType) {
  EXPECT_EQ(load_error({base_layer()}, {"gpu.sockets=many"}),
            "--set gpu.sockets=many: gpu.sockets: expected an integer, got 'many'");
}

TEST(OverrideError, EmptyValueIsNull) {
  EXPECT_EQ(load_error({base_layer()}, {"gpu.sockets="}),
            "--set gpu.sockets=: gpu.sockets: expected an integer, got null");
}

TEST(OverrideError, ValueSyntax) {
  EXPECT_EQ(load_error({base_layer()}, {"gpu.sockets=[1"}),
            "--set gpu.sockets=[1: gpu.sockets: YAML syntax error: end of sequence flow not found");
}

TEST(OverrideError, ListIndexOutOfRange) {
  EXPECT_EQ(load_error({base_layer(), text_layer("w.yaml", "workload:\n  kernels: [{name: a}]\n")},
                       {"workload.kernels.3.ctas=8"}),
            "--set workload.kernels.3.ctas=8: workload.kernels.3.ctas: list index 3 is out of range "
            "('workload.kernels' has 1 item)");
}

TEST(OverrideError, ListIndexIntoAbsentList) {
  EXPECT_EQ(load_error({base_layer()}, {"workload.kernels.0.ctas=8"}),
            "--set workload.kernels.0.ctas=8: workload.kernels.0.ctas: list index 0 is out of range "
            "('workload.kernels' has 0 items)");
}

TEST(OverrideError, NameInsteadOfListIndex) {
  EXPECT_EQ(load_error({base_layer(), text_layer("w.yaml", "workload:\n  kernels: [{name: a}]\n")},
                       {"workload.kernels.first.ctas=8"}),
            "--set workload.kernels.first.ctas=8: workload.kernels.first.ctas: expected a list index after "
            "'workload.kernels', got 'first'");
}

}  // namespace
}  // namespace numagpu::config::testing
