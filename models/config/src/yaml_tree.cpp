#include "yaml_tree.hpp"

#include <cstddef>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "common/printable.hpp"
#include "text.hpp"

namespace numagpu::config::detail {
namespace {

// Deeper nesting only happens with alias loops or hostile input; a config never gets close.
constexpr int kMaxDepth = 100;
// yaml-cpp shares an aliased node instead of copying it, so a few lines of nested aliases ("a1: &a1 [*a0,
// *a0, ...]", "a2: &a2 [*a1, *a1, ...]", ...) describe billions of nodes (an "alias bomb"). The tree built
// here copies what it visits, so it counts the nodes as it goes and stops long before memory or time run
// out. The largest real configuration (4096 kernels of ~20 keys, a 64-GPU custom topology) stays far below.
constexpr std::size_t kMaxNodes = 250000;

Location to_location(const std::string& file, const YAML::Mark& mark) {
  if (mark.is_null()) return {file, 0, 0};
  return {file, mark.line + 1, mark.column + 1};  // yaml-cpp marks are 0-based
}

// A configuration is UTF-8 text (YAML's own rule); yaml-cpp passes other bytes through, and they would only
// fail later, where nothing knows the file or the key (writing the JSON of stats.json). Refused here, at the
// string or key that holds them.
void check_utf8(const std::string& text, const Location& where, const std::string& path, const char* what) {
  const std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string::npos) return;
  static constexpr char kHex[] = "0123456789abcdef";
  const unsigned char byte = static_cast<unsigned char>(text[bad]);
  throw ConfigError(where, path,
                    std::string(what) + " is not valid UTF-8 (byte 0x" + kHex[byte >> 4] + kHex[byte & 0xF] +
                        " at offset " + std::to_string(bad) + "); a configuration is UTF-8 text");
}

std::string kind_of(const YAML::Node& node) {
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  return "null";
}

class TreeBuilder {
 public:
  explicit TreeBuilder(const std::string& file) : file_(file) {}

  // `path` is the dotted key path of `node`, used to name the key in errors.
  RawNode build(const YAML::Node& node, const std::string& path, int depth) {
    const Location where = to_location(file_, node.Mark());
    if (depth > kMaxDepth) {
      throw ConfigError(where, path, "YAML nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    if (++nodes_ > kMaxNodes) {
      throw ConfigError(where, path,
                        "the document expands to more than " + std::to_string(kMaxNodes) +
                            " YAML nodes (aliases repeating aliases?); a configuration needs far fewer");
    }
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        return scalar(node, path, where);
      case YAML::NodeType::Map:
        return map(node, path, where, depth);
      case YAML::NodeType::Sequence:
        return list(node, path, where, depth);
      default:
        return null(where);
    }
  }

 private:
  static RawNode null(const Location& where) {
    RawNode out;
    out.where = where;
    return out;
  }

  RawNode scalar(const YAML::Node& node, const std::string& path, const Location& where) const {
    RawNode out;
    out.kind = RawNode::Kind::kScalar;
    out.where = where;
    out.text = node.Scalar();
    check_utf8(out.text, where, path, "the value");
    // yaml-cpp tags plain scalars "?" and quoted/block scalars "!". Other tags would need a type
    // system of their own; refusing them beats silently ignoring them.
    const std::string& tag = node.Tag();
    if (tag == "!" || tag == "tag:yaml.org,2002:str") {
      out.quoted = true;
    } else if (tag != "?") {
      throw ConfigError(where, path, "unsupported YAML tag " + in_quotes(tag));
    }
    return out;
  }

  RawNode list(const YAML::Node& node, const std::string& path, const Location& where, int depth) {
    RawNode out;
    out.kind = RawNode::Kind::kList;
    out.where = where;
    for (const auto& item : node) {
      out.items.push_back(build(item, child_path(path, std::to_string(out.items.size())), depth + 1));
    }
    return out;
  }

  RawNode map(const YAML::Node& node, const std::string& path, const Location& where, int depth) {
    RawNode out = make_map(where);
    // yaml-cpp keeps both pairs of a duplicated key when iterating, which lets us reject them.
    for (auto it = node.begin(); it != node.end(); ++it) {
      RawEntry entry = map_entry(it->first, it->second, path, depth);
      if (const RawEntry* first = out.find(entry.key)) {
        throw ConfigError(entry.key_where, child_path(path, entry.key),
                          "duplicate key " + in_quotes(entry.key) + " (first defined at line " +
                              std::to_string(first->key_where.line) + ", column " +
                              std::to_string(first->key_where.column) + ")");
      }
      out.entries.push_back(std::move(entry));
    }
    return out;
  }

  RawEntry map_entry(const YAML::Node& key, const YAML::Node& value, const std::string& path, int depth) {
    RawEntry entry;
    entry.key_where = to_location(file_, key.Mark());
    if (!key.IsScalar()) throw ConfigError(entry.key_where, path, "expected a key name, got " + kind_of(key));
    entry.key = key.Scalar();
    check_utf8(entry.key, entry.key_where, path, "the key");
    entry.value = build(value, child_path(path, entry.key), depth + 1);
    // An empty value ("ways:") carries the mark of the next token, often on a later line; the key
    // is the better place to point at.
    if (entry.value.kind == RawNode::Kind::kNull &&
        (entry.value.where.line == 0 || entry.value.where.line != entry.key_where.line)) {
      entry.value.where = entry.key_where;
    }
    return entry;
  }

  const std::string& file_;
  std::size_t nodes_ = 0;  // nodes built so far, aliased ones counted at every use
};

}  // namespace

RawEntry* RawNode::find(const std::string& key) {
  for (auto& entry : entries) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

const RawEntry* RawNode::find(const std::string& key) const {
  return const_cast<RawNode*>(this)->find(key);
}

void RawNode::erase(const std::string& key) {
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->key == key) {
      entries.erase(it);
      return;
    }
  }
}

RawNode make_map(Location where) {
  RawNode node;
  node.kind = RawNode::Kind::kMap;
  node.where = std::move(where);
  return node;
}

namespace {

// Counts the documents of a YAML stream, and where the second one's content starts, stopping at `limit`.
// yaml-cpp 0.7's LoadAll (Debian 12) loops for ever on some malformed streams, adding an empty document at
// each turn until memory runs out (fixed upstream after 0.8; found by fuzz/config_fuzzer): the parser is
// therefore driven here one document at a time, with a bound, and only the first document is built.
class DocumentCounter : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override { ++documents; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { note(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { note(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    note(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    note(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    note(mark);
  }
  void OnMapEnd() override {}

  int documents = 0;
  YAML::Mark second_document_mark = YAML::Mark::null_mark();

 private:
  void note(const YAML::Mark& mark) {
    if (documents == 2 && second_document_mark.is_null()) second_document_mark = mark;
  }
};

// More documents than this are not counted exactly (a configuration has one).
constexpr int kMaxCountedDocuments = 64;

}  // namespace

RawNode parse_yaml(const std::string& text, const std::string& display_name) {
  DocumentCounter counter;
  YAML::Node first;
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    while (counter.documents <= kMaxCountedDocuments && parser.HandleNextDocument(counter)) {
    }
    if (counter.documents == 1) first = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    throw ConfigError(to_location(display_name, error.mark), "", "YAML syntax error: " + error.msg);
  }
  if (counter.documents == 0) {  // nothing but comments or whitespace
    RawNode null;
    null.where = {display_name, 0, 0};
    return null;
  }
  if (counter.documents > 1) {
    throw ConfigError(
        to_location(display_name, counter.second_document_mark), "",
        "expected a single YAML document, found " + (counter.documents > kMaxCountedDocuments
                                                         ? "more than " + std::to_string(kMaxCountedDocuments)
                                                         : std::to_string(counter.documents)));
  }
  return TreeBuilder(display_name).build(first, "", 0);
}

void relocate(RawNode& node, const Location& where) {
  node.where = where;
  for (auto& entry : node.entries) {
    entry.key_where = where;
    relocate(entry.value, where);
  }
  for (auto& item : node.items) {
    relocate(item, where);
  }
}

std::string describe(const RawNode& node) {
  switch (node.kind) {
    case RawNode::Kind::kNull:
      return "null";
    case RawNode::Kind::kMap:
      return "a map";
    case RawNode::Kind::kList:
      return "a list";
    case RawNode::Kind::kScalar:
      break;
  }
  return node.quoted ? "a quoted string " + in_quotes(node.text) : in_quotes(node.text);
}

}  // namespace numagpu::config::detail
