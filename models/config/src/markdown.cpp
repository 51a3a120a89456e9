// Schema::markdown_reference(): the configuration reference, generated from the schema so the
// documentation cannot drift from what the loader accepts.
#include <string>
#include <vector>

#include "schema_detail.hpp"
#include "text.hpp"

namespace numagpu::config {
namespace {

using detail::Entry;
using detail::Kind;

// Table cells must stay on one line and must not contain a bare column separator.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string code(const std::string& text) {
  return "`" + text + "`";
}

std::string default_text(const Entry& entry) {
  // A list's default is empty, which a list that needs items cannot use.
  if (entry.kind == Kind::kList) return entry.min_items > 0 ? "*required*" : code("[]");
  if (entry.required) return "*required*";
  switch (entry.kind) {
    case Kind::kReal:
      return code(detail::format_real(entry.fallback.get<double>()));
    case Kind::kChoice:
      return code(entry.fallback.get<std::string>());
    default:
      return code(entry.fallback.dump());  // integers, booleans, "quoted strings"
  }
}

std::string allowed_text(const Entry& entry) {
  switch (entry.kind) {
    case Kind::kInteger:
    case Kind::kReal:
      return detail::bounds_text(entry);
    case Kind::kBoolean:
      return "`true`, `false`";
    case Kind::kChoice: {
      std::vector<std::string> values;
      for (const std::string& value : entry.choices) {
        values.push_back(code(value));
      }
      return detail::join(values, ", ");
    }
    case Kind::kList:
      return detail::item_count_text(entry);
    default:
      return "";
  }
}

std::string type_text(const Entry& entry) {
  return entry.kind == Kind::kList ? "list of maps" : detail::kind_name(entry.kind);
}

class MarkdownWriter {
 public:
  // `path` is the dotted path of `schema` ("" for the top level, "workload.kernels[]" for items).
  void section(const Schema& schema, const std::string& path, const std::string& doc) {
    std::vector<const Entry*> rows;
    for (const auto& entry : detail::entries(schema)) {
      if (entry->kind != Kind::kSection) rows.push_back(entry.get());
    }
    if (!path.empty() || !rows.empty()) heading(path, doc);
    if (!rows.empty()) table(rows, path);
    for (const auto& entry : detail::entries(schema)) {
      const std::string child = detail::child_path(path, entry->key);
      if (entry->kind == Kind::kSection) section(entry->children, child, entry->doc);
      if (entry->kind == Kind::kList) section(entry->children, child + "[]", entry->doc);
    }
  }

  std::string text() const { return out_; }

 private:
  void heading(const std::string& path, const std::string& doc) {
    out_ += "\n## " + (path.empty() ? std::string("Top level") : code(path)) + "\n\n";
    if (!doc.empty()) out_ += cell(doc) + "\n\n";
  }

  void table(const std::vector<const Entry*>& rows, const std::string& path) {
    out_ += "| Key | Type | Default | Allowed | Unit | Description |\n";
    out_ += "| --- | --- | --- | --- | --- | --- |\n";
    for (const Entry* entry : rows) {
      const std::vector<std::string> cells = {code(detail::child_path(path, entry->key)),
                                              type_text(*entry),
                                              default_text(*entry),
                                              allowed_text(*entry),
                                              entry->unit,
                                              entry->doc};
      std::string line = "|";
      for (const std::string& text : cells) {
        line += " " + cell(text) + " |";
      }
      out_ += line + "\n";
    }
  }

  std::string out_ = "# Configuration reference\n";
};

}  // namespace

std::string Schema::markdown_reference() const {
  detail::check_schema(*this);
  MarkdownWriter writer;
  writer.section(*this, "", "");
  return writer.text();
}

}  // namespace numagpu::config
