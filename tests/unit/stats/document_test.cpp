// make_document() output and validate_document(): a valid document passes, and every kind of corruption is
// reported.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "stats/registry.hpp"

namespace numagpu::stats {
namespace {

using nlohmann::json;

// A registry with one statistic of every kind, across four sockets.
class DocumentTest : public ::testing::Test {
 protected:
  DocumentTest() {
    for (int s = 0; s < 4; ++s) {
      const std::string socket = "system.socket" + std::to_string(s);
      r_.counter(socket + ".l2.read_hits", "requests", "L2 read hits.").add(10 + s);
      r_.average(socket + ".queue", "entries", "Queue occupancy.").sample(2.0 * s);
    }
    Histogram& h = r_.histogram("system.latency", "cycles", "Load latency.", 10, 3);
    for (const uint64_t v : {0, 9, 10, 25, 1000})
      h.sample(v);
    r_.histogram("system.idle_latency", "cycles", "Latency of an idle path.", 10, 3);  // no samples
    r_.series("system.bw", "bytes", "Bytes per window.", 1000).push(64.0);
    r_.scalar("system.ipc", "", "Instructions per cycle.").set(0.75);
    r_.scalar("system.unset", "", "A figure never computed.");
    doc_ = make_document(r_, "0.1.0", json{{"sockets", 4}}, "abc123", json{{"cycles", 5000}});
  }

  // True if some problem contains `needle`; prints all problems otherwise.
  static ::testing::AssertionResult reports(const json& doc, const std::string& needle) {
    const std::vector<std::string> problems = validate_document(doc);
    for (const std::string& p : problems) {
      if (p.find(needle) != std::string::npos) return ::testing::AssertionSuccess();
    }
    auto failure = ::testing::AssertionFailure() << "no problem mentions '" << needle << "'; problems:";
    for (const std::string& p : problems)
      failure << "\n  " << p;
    return failure;
  }

  Registry r_;
  json doc_;
};

TEST_F(DocumentTest, TopLevelFields) {
  EXPECT_EQ(doc_["schema_version"], 2);
  EXPECT_EQ(doc_["generator"], (json{{"name", "numagpu"}, {"version", "0.1.0"}}));
  EXPECT_EQ(doc_["config_hash"], "abc123");
  EXPECT_EQ(doc_["config"], (json{{"sockets", 4}}));
  EXPECT_EQ(doc_["run"], (json{{"cycles", 5000}}));
  EXPECT_EQ(doc_["stats"], r_.tree());
  EXPECT_EQ(doc_["descriptions"], r_.descriptions());
  EXPECT_EQ(doc_["complete"], true);  // the default: the statistics cover the whole run
  EXPECT_EQ(doc_.size(), 8u);
}

TEST_F(DocumentTest, ValidDocumentPasses) {
  EXPECT_EQ(validate_document(doc_), std::vector<std::string>{});
}

TEST_F(DocumentTest, ValidAfterSerializationRoundTrip) {
  const json reread = json::parse(doc_.dump());
  EXPECT_EQ(validate_document(reread), std::vector<std::string>{});
  EXPECT_EQ(reread["stats"]["system"]["socket3"]["l2"]["read_hits"], 13);
  EXPECT_TRUE(reread["stats"]["system"]["unset"].is_null());
}

TEST_F(DocumentTest, UnknownFieldsAreTolerated) {
  doc_["future_field"] = "added in a compatible revision";
  doc_["stats"]["system"]["latency"]["p99"] = 30;
  EXPECT_EQ(validate_document(doc_), std::vector<std::string>{});
}

TEST(Document, NullConfigAndRunBecomeEmptyObjects) {
  Registry r;
  const json doc = make_document(r, "v", json(), "h", json());
  EXPECT_EQ(doc["config"], json::object());
  EXPECT_EQ(doc["run"], json::object());
  EXPECT_EQ(doc["stats"], json::object());
  EXPECT_EQ(validate_document(doc), std::vector<std::string>{});
}

TEST(Document, NonObjectConfigOrRunThrows) {
  Registry r;
  EXPECT_THROW(make_document(r, "v", json::array(), "h", json::object()), std::invalid_argument);
  EXPECT_THROW(make_document(r, "v", json::object(), "h", json(3)), std::invalid_argument);
}

TEST_F(DocumentTest, NotAnObject) {
  EXPECT_TRUE(reports(json::array(), "not a JSON object"));
}

TEST_F(DocumentTest, WrongSchemaVersion) {
  doc_["schema_version"] = 1;  // before "complete" existed
  EXPECT_TRUE(reports(doc_, "schema_version is 1, this reader understands 2"));
  doc_["schema_version"] = "1";
  EXPECT_TRUE(reports(doc_, "'schema_version' must be an integer"));
  doc_.erase("schema_version");
  EXPECT_TRUE(reports(doc_, "missing field 'schema_version'"));
}

TEST_F(DocumentTest, MissingTopLevelFields) {
  for (const char* field :
       {"generator", "config_hash", "config", "run", "complete", "stats", "descriptions"}) {
    json doc = doc_;
    doc.erase(field);
    EXPECT_TRUE(reports(doc, std::string("missing field '") + field + "'"));
  }
}

TEST_F(DocumentTest, WrongTopLevelTypes) {
  json doc = doc_;
  doc["config_hash"] = 42;
  EXPECT_TRUE(reports(doc, "'config_hash' must be a string"));
  doc = doc_;
  doc["run"] = json::array();
  EXPECT_TRUE(reports(doc, "'run' must be an object"));
  doc = doc_;
  doc["generator"].erase("version");
  EXPECT_TRUE(reports(doc, "'generator.version' must be a string"));
  doc = doc_;
  doc["complete"] = "yes";
  EXPECT_TRUE(reports(doc, "'complete' must be a boolean"));
}

TEST(Document, PartialRunIsMarkedIncomplete) {
  Registry r;
  const json doc = make_document(r, "v", json(), "h", json(), false);
  EXPECT_EQ(doc["complete"], false);
  EXPECT_EQ(validate_document(doc), std::vector<std::string>{});
}

TEST_F(DocumentTest, LeafWithoutDescription) {
  doc_["descriptions"].erase("system.socket*.l*.read_hits");
  EXPECT_TRUE(reports(doc_, "stats.system.socket0.l2.read_hits: no description"));
  EXPECT_TRUE(reports(doc_, "stats.system.socket3.l2.read_hits: no description"));
}

TEST_F(DocumentTest, ExtraUndescribedLeaf) {
  doc_["stats"]["system"]["bogus"] = 1;
  EXPECT_TRUE(reports(doc_, "stats.system.bogus: no description for generic path 'system.bogus'"));
}

TEST_F(DocumentTest, DescriptionOfNoStatistic) {
  doc_["descriptions"]["system.ghost"] = {{"kind", "counter"}, {"unit", ""}, {"desc", "Gone."}};
  EXPECT_TRUE(reports(doc_, "descriptions.system.ghost: describes no statistic"));
}

TEST_F(DocumentTest, MalformedDescription) {
  doc_["descriptions"]["system.ipc"]["kind"] = "gauge";
  EXPECT_TRUE(reports(doc_, "descriptions.system.ipc: 'kind' must be one of"));
  doc_["descriptions"]["system.bw"].erase("unit");
  EXPECT_TRUE(reports(doc_, "descriptions.system.bw: 'unit' must be a string"));
}

TEST_F(DocumentTest, WrongCounterShape) {
  doc_["stats"]["system"]["socket1"]["l2"]["read_hits"] = -1;
  EXPECT_TRUE(reports(doc_, "stats.system.socket1.l2.read_hits: counter must be a non-negative integer"));
  doc_["stats"]["system"]["socket1"]["l2"]["read_hits"] = 1.5;
  EXPECT_TRUE(reports(doc_, "counter must be a non-negative integer"));
}

TEST_F(DocumentTest, KindDoesNotFitShape) {
  doc_["descriptions"]["system.ipc"]["kind"] = "average";
  EXPECT_TRUE(reports(doc_, "stats.system.ipc: average must be an object"));
}

TEST_F(DocumentTest, WrongScalarShape) {
  doc_["stats"]["system"]["ipc"] = "fast";
  EXPECT_TRUE(reports(doc_, "stats.system.ipc: scalar must be a number or null"));
}

TEST_F(DocumentTest, WrongAverageShape) {
  json& queue = doc_["stats"]["system"]["socket2"]["queue"];
  queue.erase("mean");
  EXPECT_TRUE(reports(doc_, "stats.system.socket2.queue: missing field 'mean'"));
  queue["mean"] = "x";
  EXPECT_TRUE(reports(doc_, "'mean' must be a number or null"));
  queue["mean"] = 4.0;
  queue["count"] = 0;
  EXPECT_TRUE(reports(doc_, "'mean' must be null when count is 0"));
}

TEST_F(DocumentTest, WrongHistogramShape) {
  json& lat = doc_["stats"]["system"]["latency"];
  lat["count"] = 6;  // buckets [2,1,1] + overflow 1 make 5
  EXPECT_TRUE(reports(doc_, "stats.system.latency: 'count' is not the sum of 'buckets' and 'overflow'"));
  lat["count"] = 5;
  lat["buckets"] = 3;
  EXPECT_TRUE(reports(doc_, "'buckets' must be a non-empty array"));
  lat["buckets"] = {2, -1, 1};
  EXPECT_TRUE(reports(doc_, "'buckets' must hold non-negative integers"));
  lat["buckets"] = {2, 1, 1};
  lat["bucket_width"] = 0;
  EXPECT_TRUE(reports(doc_, "'bucket_width' must be positive"));
  lat["bucket_width"] = 10;
  lat["min"] = nullptr;
  EXPECT_TRUE(reports(doc_, "'min' must not be null when count is positive"));
  lat["min"] = 0;
  EXPECT_EQ(validate_document(doc_), std::vector<std::string>{});  // repaired, back to the original
  doc_["stats"]["system"]["idle_latency"]["max"] = 7;
  EXPECT_TRUE(reports(doc_, "stats.system.idle_latency: 'max' must be null when count is 0"));
}

TEST_F(DocumentTest, WrongSeriesShape) {
  json& bw = doc_["stats"]["system"]["bw"];
  bw["values"] = {1.0, "two"};
  EXPECT_TRUE(reports(doc_, "stats.system.bw: 'values' must hold numbers or null"));
  bw.erase("values");
  EXPECT_TRUE(reports(doc_, "stats.system.bw: missing field 'values'"));
  bw["values"] = json::array();
  bw["window_cycles"] = 0;
  EXPECT_TRUE(reports(doc_, "'window_cycles' must be positive"));
}

TEST_F(DocumentTest, EmptyGroup) {
  doc_["stats"]["system"]["socket9"] = json::object();
  EXPECT_TRUE(reports(doc_, "stats.system.socket9: empty group"));
}

}  // namespace
}  // namespace numagpu::stats
