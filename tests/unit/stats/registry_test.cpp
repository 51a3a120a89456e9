// Registration rules, lookups, and the tree / descriptions / text renderings of the Registry.
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "stats/registry.hpp"

namespace numagpu::stats {
namespace {

using nlohmann::json;

TEST(Registry, RegistersAndFindsEveryKind) {
  Registry r;
  Counter& c = r.counter("sys.c", "requests", "A counter.");
  Average& a = r.average("sys.a", "cycles", "An average.");
  Histogram& h = r.histogram("sys.h", "cycles", "A histogram.", 10, 3);
  TimeSeries& s = r.series("sys.s", "bytes", "A series.", 100);
  Scalar& x = r.scalar("sys.x", "", "A scalar.");
  EXPECT_EQ(r.size(), 5u);
  EXPECT_EQ(r.find_counter("sys.c"), &c);
  EXPECT_EQ(r.find_average("sys.a"), &a);
  EXPECT_EQ(r.find_histogram("sys.h"), &h);
  EXPECT_EQ(r.find_series("sys.s"), &s);
  EXPECT_EQ(r.find_scalar("sys.x"), &x);
  EXPECT_EQ(h.bucket_width(), 10u);
  EXPECT_EQ(h.bucket_count(), 3u);
  EXPECT_EQ(s.window_cycles(), 100u);
  EXPECT_TRUE(r.contains("sys.c"));
  EXPECT_FALSE(r.contains("sys"));
}

TEST(Registry, FindOfAbsentPathOrOtherKindIsNull) {
  Registry r;
  r.counter("sys.c", "", "A counter.");
  EXPECT_EQ(r.find_counter("sys.d"), nullptr);
  EXPECT_EQ(r.find_counter("sys"), nullptr);
  EXPECT_EQ(r.find_average("sys.c"), nullptr);
  EXPECT_EQ(r.find_scalar("sys.c"), nullptr);
}

TEST(Registry, ReferencesSurviveManyLaterRegistrations) {
  Registry r;
  Counter& first = r.counter("sys.first", "", "First.");
  Histogram& hist = r.histogram("sys.hist", "", "Hist.", 2, 2);
  first.add(5);
  for (int i = 0; i < 10000; ++i) {
    r.counter("sys.many" + std::to_string(i), "", "Many.");
    r.histogram("sys.hists" + std::to_string(i), "", "Hists.", 2, 2);
  }
  first.add(2);
  hist.sample(3);
  EXPECT_EQ(r.find_counter("sys.first"), &first);
  EXPECT_EQ(r.find_counter("sys.first")->value(), 7u);
  EXPECT_EQ(r.find_histogram("sys.hist")->buckets(), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(r.size(), 20002u);
}

TEST(Registry, DuplicatePathThrows) {
  Registry r;
  r.counter("sys.c", "", "A counter.");
  EXPECT_THROW(r.counter("sys.c", "", "A counter."), std::logic_error);
  EXPECT_THROW(r.scalar("sys.c", "", "A scalar."), std::logic_error);
  EXPECT_EQ(r.size(), 1u);
}

TEST(Registry, StatCannotAlsoBeAGroup) {
  Registry r;
  r.counter("sys.l2.hits", "", "Hits.");
  EXPECT_THROW(r.counter("sys.l2", "", "L2."), std::logic_error);  // existing stat's prefix
  EXPECT_THROW(r.counter("sys", "", "Sys."), std::logic_error);
  EXPECT_THROW(r.counter("sys.l2.hits.x", "", "Below a stat."), std::logic_error);  // below an existing stat
  EXPECT_EQ(r.size(), 1u);
  // A sibling whose name merely starts with the same characters is not a prefix clash.
  EXPECT_NO_THROW(r.counter("sys.l2.hits_total", "", "Total."));
  EXPECT_NO_THROW(r.counter("sys.l2x", "", "Other."));
}

TEST(Registry, GenericStatCannotAlsoBeAGenericGroup) {
  Registry r;
  r.counter("sys.sm0.insts", "", "Instructions.");
  EXPECT_THROW(r.counter("sys.sm1", "", "SM."), std::logic_error);
  Registry q;
  q.counter("sys.link0", "", "Link.");
  EXPECT_THROW(q.counter("sys.link1.bytes", "", "Bytes."), std::logic_error);
}

TEST(Registry, MalformedPathsThrowLogicError) {
  Registry r;
  for (const char* bad : {"", "a..b", ".a", "a.", "a b", "sm*.x"}) {
    EXPECT_THROW(r.counter(bad, "", "Bad."), std::logic_error) << "'" << bad << "'";
  }
  EXPECT_EQ(r.size(), 0u);
}

TEST(Registry, InvalidHistogramOrSeriesParametersThrowAndRegisterNothing) {
  Registry r;
  EXPECT_THROW(r.histogram("sys.h", "", "H.", 0, 4), std::invalid_argument);
  EXPECT_THROW(r.histogram("sys.h", "", "H.", 4, 0), std::invalid_argument);
  EXPECT_THROW(r.series("sys.s", "", "S.", 0), std::invalid_argument);
  EXPECT_EQ(r.size(), 0u);
  EXPECT_NO_THROW(r.histogram("sys.h", "", "H.", 4, 4));
}

TEST(Registry, InstancesMustShareKindUnitAndDescription) {
  Registry r;
  r.counter("sys.socket0.hits", "requests", "Cache hits.");
  EXPECT_NO_THROW(r.counter("sys.socket1.hits", "requests", "Cache hits."));
  EXPECT_THROW(r.counter("sys.socket2.hits", "requests", "Cache misses."), std::logic_error);
  EXPECT_THROW(r.counter("sys.socket2.hits", "bytes", "Cache hits."), std::logic_error);
  EXPECT_THROW(r.scalar("sys.socket2.hits", "requests", "Cache hits."), std::logic_error);
  // The rejected registrations left no trace: the path is still free for a consistent one.
  EXPECT_FALSE(r.contains("sys.socket2.hits"));
  EXPECT_NO_THROW(r.counter("sys.socket2.hits", "requests", "Cache hits."));
  EXPECT_EQ(r.size(), 3u);
}

TEST(Registry, TreeNestsByComponentWithLeafShapes) {
  Registry r;
  r.counter("system.socket0.l2.read_hits", "requests", "Read hits.").add(3);
  r.scalar("system.ipc", "", "Instructions per cycle.").set(1.5);
  Average& occ = r.average("system.socket0.occupancy", "entries", "Queue occupancy.");
  occ.sample(1.0);
  occ.sample(2.0);
  Histogram& lat = r.histogram("system.latency", "cycles", "Load latency.", 10, 2);
  lat.sample(5);
  lat.sample(25);
  TimeSeries& bw = r.series("system.bw", "bytes", "Bytes per window.", 100);
  bw.push(4.0);
  bw.push(8.0);

  const json expected = json::parse(R"({
    "system": {
      "ipc": 1.5,
      "socket0": {
        "l2": {"read_hits": 3},
        "occupancy": {"count": 2, "sum": 3.0, "mean": 1.5, "min": 1.0, "max": 2.0}
      },
      "latency": {"bucket_width": 10, "buckets": [1, 0], "overflow": 1, "count": 2, "sum": 30,
                  "min": 5, "max": 25},
      "bw": {"window_cycles": 100, "values": [4.0, 8.0]}
    }
  })");
  EXPECT_EQ(r.tree(), expected);
  // The counter leaf is an integer, not a float that happens to be whole.
  EXPECT_TRUE(r.tree()["system"]["socket0"]["l2"]["read_hits"].is_number_unsigned());
}

TEST(Registry, EmptyStatisticsHaveNullMeanMinMax) {
  Registry r;
  r.average("s.a", "", "A.");
  r.histogram("s.h", "", "H.", 5, 2);
  r.scalar("s.x", "", "X.");
  r.series("s.t", "", "T.", 10);
  const json expected = json::parse(R"({"s": {
    "a": {"count": 0, "sum": 0.0, "mean": null, "min": null, "max": null},
    "h": {"bucket_width": 5, "buckets": [0, 0], "overflow": 0, "count": 0, "sum": 0, "min": null, "max": null},
    "x": null,
    "t": {"window_cycles": 10, "values": []}
  }})");
  EXPECT_EQ(r.tree(), expected);
}

TEST(Registry, EmptyRegistryTreeIsEmptyObject) {
  Registry r;
  EXPECT_EQ(r.tree(), json::object());
  EXPECT_EQ(r.descriptions(), json::object());
  EXPECT_EQ(r.text(), "");
}

TEST(Registry, DescriptionsCompactInstances) {
  Registry r;
  for (int s = 0; s < 4; ++s) {
    const std::string socket = "system.socket" + std::to_string(s);
    r.counter(socket + ".l2.read_hits", "requests", "L2 read hits.");
    for (int m = 0; m < 2; ++m) {
      r.counter(socket + ".sm" + std::to_string(m) + ".instructions", "instructions",
                "Instructions retired.");
    }
  }
  r.scalar("system.ipc", "", "Instructions per cycle.");
  EXPECT_EQ(r.size(), 13u);
  const json expected = json::parse(R"({
    "system.socket*.l*.read_hits": {"kind": "counter", "unit": "requests", "desc": "L2 read hits."},
    "system.socket*.sm*.instructions": {"kind": "counter", "unit": "instructions", "desc": "Instructions retired."},
    "system.ipc": {"kind": "scalar", "unit": "", "desc": "Instructions per cycle."}
  })");
  EXPECT_EQ(r.descriptions(), expected);
}

TEST(Registry, TextIsAlignedOneLinePerValue) {
  Registry r;
  r.counter("sys.hits", "requests", "Hits.").add(7);
  r.scalar("sys.ipc", "", "IPC.").set(1.5);
  Histogram& h = r.histogram("sys.lat", "cycles", "Latency.", 10, 2);
  h.sample(3);
  h.sample(15);
  h.sample(40);
  // Widest label is "sys.lat::overflow" (17 characters), widest value "1.5"/"58"/"40" (3): labels are padded
  // to 17 plus two spaces, values right-aligned in 3 columns, then two spaces and the comment.
  const std::string expected =
      "sys.hits             7  # Hits. (requests)\n"
      "sys.ipc            1.5  # IPC.\n"
      "sys.lat::count       3  # Latency. (cycles)\n"
      "sys.lat::sum        58  # Latency. (cycles)\n"
      "sys.lat::min         3  # Latency. (cycles)\n"
      "sys.lat::max        40  # Latency. (cycles)\n"
      "sys.lat::0-9         1  # Latency. (cycles)\n"
      "sys.lat::10-19       1  # Latency. (cycles)\n"
      "sys.lat::overflow    1  # Latency. (cycles)\n";
  EXPECT_EQ(r.text(), expected);
}

// Splits text() into whitespace-separated label and value per line, dropping alignment and comments.
std::vector<std::pair<std::string, std::string>> label_values(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string label, value;
    fields >> label >> value;
    out.emplace_back(label, value);
  }
  return out;
}

TEST(Registry, TextAverageSeriesAndEmptyValues) {
  Registry r;
  Average& a = r.average("s.avg", "entries", "Occupancy.");
  a.sample(1.0);
  a.sample(2.0);
  r.average("s.empty", "", "Nothing.");
  TimeSeries& bw = r.series("s.bw", "bytes", "Bandwidth.", 100);
  bw.push(4.0);
  bw.push(8.5);
  r.scalar("s.unset", "", "Never set.");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"s.avg::count", "2"}, {"s.avg::sum", "3"},      {"s.avg::mean", "1.5"},   {"s.avg::min", "1"},
      {"s.avg::max", "2"},   {"s.bw::0-99", "4"},      {"s.bw::100-199", "8.5"}, {"s.empty::count", "0"},
      {"s.empty::sum", "0"}, {"s.empty::mean", "nan"}, {"s.empty::min", "nan"},  {"s.empty::max", "nan"},
      {"s.unset", "nan"},
  };
  EXPECT_EQ(label_values(r.text()), expected);
}

TEST(Registry, TextListsInstancesInNaturalOrder) {
  Registry r;
  for (const int sm : {10, 2, 1})
    r.counter("s.sm" + std::to_string(sm) + ".insts", "", "Insts.");
  const auto lines = label_values(r.text());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].first, "s.sm1.insts");
  EXPECT_EQ(lines[1].first, "s.sm2.insts");
  EXPECT_EQ(lines[2].first, "s.sm10.insts");
}

TEST(Registry, TextCommentWithoutDescription) {
  Registry r;
  r.counter("a", "bytes", "").add(1);
  r.counter("b", "", "").add(2);
  EXPECT_EQ(r.text(), "a  1  # (bytes)\nb  2\n");
}

}  // namespace
}  // namespace numagpu::stats
