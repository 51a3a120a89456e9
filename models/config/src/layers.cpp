#include "layers.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include <yaml-cpp/yaml.h>

#include "text.hpp"

namespace numagpu::config::detail {
namespace {

namespace fs = std::filesystem;

// The reserved top-level key of a file that names the files merged beneath it.
constexpr const char* kIncludeKey = "include";

// A configuration is a few kilobytes; anything this large is not one (or is a device such as /dev/zero that
// would never end), and reading on would only exhaust memory.
constexpr std::size_t kMaxFileBytes = std::size_t(16) << 20;

// Include edges (an `include` name followed) in one load, over all layers. Each file is read and expanded
// once however often it is included, so the work is bounded by this and the files' sizes; a real
// configuration has a handful.
constexpr std::size_t kMaxIncludes = 256;

struct FileText {
  bool ok = false;
  std::string text;
  std::string error;  // why not, when !ok
};

// Only regular files: a named pipe would block the open (or the read) for ever, and a device such as
// /dev/zero never ends. The file is opened without blocking, checked with fstat, then read with C stdio,
// which reliably reports *why* a read fails via errno.
FileText read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {false, "", std::strerror(errno)};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = errno;
    const bool directory = S_ISDIR(st.st_mode);
    ::close(fd);
    if (directory) return {false, "", std::strerror(EISDIR)};
    return {false, "", st.st_mode != 0 ? "not a regular file" : std::strerror(err)};
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(::fdopen(fd, "rb"), &std::fclose);
  if (!file) {
    const int err = errno;
    ::close(fd);
    return {false, "", std::strerror(err)};
  }
  FileText out;
  char buffer[65536];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    out.text.append(buffer, count);
    if (out.text.size() > kMaxFileBytes) {
      return {false, "", "larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB: not a configuration"};
    }
  }
  if (std::ferror(file.get())) return {false, "", std::strerror(errno != 0 ? errno : EIO)};
  out.ok = true;
  return out;
}

// A layer or included file being expanded; the chain of them is what an include cycle reports.
struct Frame {
  std::string display;  // as shown in errors
  fs::path identity;    // canonical path for files, empty for embedded text
};

class LayerLoader {
 public:
  RawNode load(const Layer& layer) {
    if (layer.text) return expand(parse_yaml(*layer.text, layer.name), {layer.name, {}});
    const FileText file = read_file(layer.name);
    if (!file.ok) {
      throw ConfigError({layer.name, 0, 0}, "", "cannot read configuration file (" + file.error + ")");
    }
    Frame frame{layer.name, identity_of(layer.name)};
    const fs::path identity = frame.identity;
    RawNode expanded = expand(parse_yaml(file.text, layer.name), std::move(frame));
    expanded_.emplace(identity, expanded);
    return expanded;
  }

 private:
  static fs::path identity_of(const fs::path& path) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(path, ec);
    return ec ? fs::absolute(path).lexically_normal() : canonical;
  }

  // Merges the document's includes beneath it. The document must be a map: include handling and
  // key-by-key merging both need one at the top.
  RawNode expand(RawNode document, Frame frame) {
    if (document.kind == RawNode::Kind::kNull) return make_map(document.where);  // empty file: no settings
    if (document.kind != RawNode::Kind::kMap) {
      throw ConfigError(document.where, "", "expected a map at the top level, got " + describe(document));
    }
    const RawEntry* include = document.find(kIncludeKey);
    if (include == nullptr) return document;
    const std::vector<const RawNode*> names = include_names(include->value);
    const fs::path base_dir = fs::path(frame.display).parent_path();
    stack_.push_back(std::move(frame));
    RawNode merged = make_map(document.where);
    for (const RawNode* name : names) {
      merge_into(merged, load_include(*name, base_dir));
    }
    stack_.pop_back();
    document.erase(kIncludeKey);
    merge_into(merged, std::move(document));
    return merged;
  }

  static std::vector<const RawNode*> include_names(const RawNode& value) {
    std::vector<const RawNode*> names;
    if (value.kind == RawNode::Kind::kList) {
      for (const RawNode& item : value.items) {
        names.push_back(&item);
      }
    } else {
      names.push_back(&value);
    }
    for (const RawNode* name : names) {
      if (name->kind != RawNode::Kind::kScalar || name->text.empty()) {
        throw ConfigError(name->where, kIncludeKey,
                          "expected a file name or a list of file names, got " + describe(*name));
      }
    }
    return names;
  }

  RawNode load_include(const RawNode& name, const fs::path& base_dir) {
    const fs::path path = (base_dir / name.text).lexically_normal();
    Frame frame{path.string(), identity_of(path)};
    for (const Frame& open : stack_) {
      if (!open.identity.empty() && open.identity == frame.identity) {
        throw ConfigError(name.where, kIncludeKey, "include cycle: " + cycle_chain(frame.display));
      }
    }
    if (++includes_ > kMaxIncludes) {
      throw ConfigError(name.where, kIncludeKey,
                        "more than " + std::to_string(kMaxIncludes) +
                            " includes in one configuration (nested includes repeating files?)");
    }
    // Read and expanded once: a file included again (a diamond, or a chain including each next file twice)
    // is the same tree, and its expansion cannot contain a cycle or it would have failed the first time.
    if (const auto done = expanded_.find(frame.identity); done != expanded_.end()) return done->second;
    const FileText file = read_file(frame.display);
    if (!file.ok) {
      throw ConfigError(name.where, kIncludeKey,
                        "cannot read included file " + in_quotes(frame.display) + " (" + file.error + ")");
    }
    RawNode document = parse_yaml(file.text, frame.display);
    const fs::path identity = frame.identity;
    RawNode expanded = expand(std::move(document), std::move(frame));
    expanded_.emplace(identity, expanded);
    return expanded;
  }

  std::string cycle_chain(const std::string& repeated) const {
    std::vector<std::string> chain;
    for (const Frame& open : stack_) {
      chain.push_back(open.display);
    }
    chain.push_back(repeated);
    return join(chain, " -> ");
  }

  std::vector<Frame> stack_;
  std::map<fs::path, RawNode> expanded_;  // by identity: every file read so far, its includes merged
  std::size_t includes_ = 0;              // include edges followed, over all layers
};

// Digits only (checked by the caller); an index too large for size_t saturates and is out of range anyway.
std::size_t parse_index(const std::string& segment) {
  std::size_t index = 0;
  const auto result = std::from_chars(segment.data(), segment.data() + segment.size(), index);
  return result.ec == std::errc() ? index : static_cast<std::size_t>(-1);
}

[[noreturn]] void malformed(const Location& where, const std::string& key, const std::string& problem) {
  throw ConfigError(where, key, problem);
}

// Parses the value part of an override as YAML so numbers, booleans and flow lists/maps work.
RawNode parse_override_value(const std::string& value, const Location& where, const std::string& key) {
  RawNode node;
  try {
    node = parse_yaml(value, where.file);
  } catch (const ConfigError& error) {
    malformed(where, key, error.message());
  }
  relocate(node, where);
  return node;
}

// Follows `segments` from `root`, creating maps for missing keys, and returns the node to set.
// Numeric segments index existing list items; lists are never extended implicitly.
RawNode& walk_to(RawNode& root, const std::vector<std::string>& segments, const Location& where,
                 const std::string& key) {
  RawNode* node = &root;
  std::string path;
  bool created = false;  // node did not exist before this override
  for (const std::string& segment : segments) {
    if (node->kind == RawNode::Kind::kList || (created && is_index(segment))) {
      const std::size_t size = node->kind == RawNode::Kind::kList ? node->items.size() : 0;
      if (!is_index(segment)) {
        malformed(where, key, "expected a list index after '" + path + "', got " + in_quotes(segment));
      }
      if (parse_index(segment) >= size) {
        malformed(
            where, key,
            "list index " + segment + " is out of range ('" + path + "' has " + count_of(size, "item") + ")");
      }
      node = &node->items[parse_index(segment)];
      created = false;
    } else {
      // Later wins: a scalar in the way is replaced by the map the override needs.
      if (node->kind != RawNode::Kind::kMap) *node = make_map(where);
      RawEntry* entry = node->find(segment);
      created = entry == nullptr;
      if (created) {
        node->entries.push_back(RawEntry{segment, where, make_map(where)});
        entry = &node->entries.back();
      }
      node = &entry->value;
    }
    path = child_path(path, segment);
  }
  return *node;
}

}  // namespace

void merge_into(RawNode& base, RawNode overlay) {
  if (base.kind != RawNode::Kind::kMap || overlay.kind != RawNode::Kind::kMap) {
    base = std::move(overlay);
    return;
  }
  base.where = overlay.where;  // the map last written is where its missing keys are reported
  for (RawEntry& entry : overlay.entries) {
    if (RawEntry* existing = base.find(entry.key)) {
      existing->key_where = entry.key_where;
      merge_into(existing->value, std::move(entry.value));
    } else {
      base.entries.push_back(std::move(entry));
    }
  }
}

RawNode load_layers(const std::vector<Layer>& layers) {
  RawNode merged = make_map({"<default>", 0, 0});
  LayerLoader loader;
  for (const Layer& layer : layers) {
    merge_into(merged, loader.load(layer));
  }
  return merged;
}

void apply_override(RawNode& root, const std::string& item) {
  const Location where{"--set " + item, 0, 0};
  const std::size_t equals = item.find('=');
  if (equals == std::string::npos) malformed(where, "", "expected key.path=value");
  const std::string key = item.substr(0, equals);
  if (key.empty()) malformed(where, "", "empty key path; expected key.path=value");
  const std::vector<std::string> segments = split_path(key);
  for (const std::string& segment : segments) {
    if (segment.empty()) malformed(where, key, "empty component in key path");
  }
  RawNode value = parse_override_value(item.substr(equals + 1), where, key);
  walk_to(root, segments, where, key) = std::move(value);
}

}  // namespace numagpu::config::detail
