#include "cli/accelergy_export.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "cli/export_common.hpp"
#include "config/emit_yaml.hpp"

namespace numagpu::accelergy {

namespace {

using nlohmann::ordered_json;

// Accelergy 0.3 reads inputs of version 0.3 (and 0.2); 0.4 reads 0.3 inputs as well.
constexpr double kVersion = 0.3;

// One level of the name tree: `system` holds `socket0`, which holds `sm3`, ... An instance can be a leaf or,
// in principle, also hold others.
struct Node {
  std::string segment;
  const power::Instance* instance = nullptr;
  std::vector<std::unique_ptr<Node>> children;  // in the order of first appearance in activity.json
  std::map<std::string, Node*> by_segment;
  std::string display;         // Accelergy's name of this node among its siblings: `sm[3]` or `xbar`
  std::string array_base;      // `sm` for an array element, empty otherwise
  std::size_t array_size = 0;  // elements of that array (all siblings)
  bool array_first = false;    // the element the architecture declares the array with
};

Node* child(Node& parent, const std::string& segment) {
  auto it = parent.by_segment.find(segment);
  if (it != parent.by_segment.end()) return it->second;
  parent.children.push_back(std::make_unique<Node>());
  Node* c = parent.children.back().get();
  c->segment = segment;
  parent.by_segment[segment] = c;
  return c;
}

std::vector<std::string> split(const std::string& name) {
  std::vector<std::string> parts;
  std::string part;
  for (char ch : name) {
    if (ch == '.') {
      parts.push_back(part);
      part.clear();
    } else {
      part += ch;
    }
  }
  parts.push_back(part);
  return parts;
}

// `sm3` -> (sm, 3); `l2_3` -> (l2, 3): a trailing number, after an underscore or after a base with no digit
// of its own (`link_gpu0_switch0` is a name, not element 0 of `link_gpu0_switch`).
std::optional<std::pair<std::string, std::size_t>> numbered(const std::string& segment) {
  std::size_t digits = segment.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(segment[digits - 1])))
    --digits;
  if (digits == segment.size() || digits == 0) return std::nullopt;
  const std::string number = segment.substr(digits);
  if (number.size() > 1 && number[0] == '0') return std::nullopt;  // `sm03` is not element 3
  if (number.size() > 9) return std::nullopt;
  std::string base = segment.substr(0, digits);
  if (base.back() == '_') {
    base.pop_back();
    if (base.empty()) return std::nullopt;
  } else if (std::any_of(base.begin(), base.end(),
                         [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
    return std::nullopt;
  }
  return std::make_pair(base, static_cast<std::size_t>(std::stoul(number)));
}

// What makes two elements of an array interchangeable to Accelergy: the same kind, the same attributes and
// the same contents below them.
std::string signature(const Node& n) {
  std::string s;
  if (n.instance) s = n.instance->kind + n.instance->properties.dump();
  s += "{";
  for (const auto& c : n.children)
    s += c->segment + "=" + signature(*c) + ";";
  return s + "}";
}

// Names every child of `n` (arrays where a numbered family allows), then their children.
void name_children(Node& n) {
  std::map<std::string, std::vector<std::pair<std::size_t, Node*>>> families;
  for (const auto& c : n.children) {
    if (auto num = numbered(c->segment)) families[num->first].emplace_back(num->second, c.get());
  }
  for (const auto& c : n.children)
    c->display = c->segment;
  for (auto& [base, members] : families) {
    std::sort(members.begin(), members.end());
    bool array = !n.by_segment.count(base);  // `sm` itself beside `sm0`: keep the names
    for (std::size_t i = 0; array && i < members.size(); ++i)
      array = members[i].first == i && signature(*members[i].second) == signature(*members[0].second);
    if (!array) continue;
    for (auto& [index, member] : members) {
      member->display = base + "[" + std::to_string(index) + "]";
      member->array_base = base;
      member->array_size = members.size();
      member->array_first = index == 0;
    }
  }
  std::map<std::string, const Node*> shown;  // no two siblings may end up with one name
  for (const auto& c : n.children) {
    const std::string key = c->array_base.empty() ? c->display : c->array_base;
    auto [it, fresh] = shown.emplace(key, c.get());
    if (!fresh && (c->array_base.empty() || it->second->array_base != c->array_base))
      throw NameError("instance names: " + c->segment + " and " + it->second->segment + " both become " +
                      key);
    name_children(*c);
  }
}

struct Tree {
  Node root;                         // its one child is the architecture's root subtree
  std::vector<const Node*> leaf_of;  // per instance
};

Tree build_tree(const power::Activity& activity) {
  Tree t;
  std::vector<Node*> nodes;
  for (const power::Instance& inst : activity.instances) {
    const std::vector<std::string> parts = split(inst.name);
    if (parts.size() < 2)
      throw NameError("instance " + inst.name +
                      ": not below a root (Accelergy's architecture has one root, "
                      "e.g. system.socket0.sm0)");
    Node* n = &t.root;
    for (const std::string& part : parts) {
      if (part.empty() || part.find_first_of("[]") != std::string::npos)
        throw NameError("instance " + inst.name + ": an empty name segment or one with [ or ]");
      n = child(*n, part);
    }
    if (n->instance) throw NameError("instance " + inst.name + ": named twice");
    n->instance = &inst;
    nodes.push_back(n);
  }
  if (t.root.children.size() > 1)
    throw NameError("instances " + t.root.children[0]->segment + ".* and " + t.root.children[1]->segment +
                    ".*: more than one root (Accelergy's architecture has one)");
  if (!t.root.children.empty() && t.root.children[0]->instance)
    throw NameError("instance " + t.root.children[0]->segment + ": the root is not a component");
  name_children(t.root);
  t.leaf_of.assign(nodes.begin(), nodes.end());
  return t;
}

std::vector<std::string> names_from(const Tree& t, const power::Activity& activity) {
  // The parent chain of each leaf: walk down again by segment.
  std::vector<std::string> names;
  for (const power::Instance& inst : activity.instances) {
    const Node* n = &t.root;
    std::string name;
    for (const std::string& part : split(inst.name)) {
      n = n->by_segment.at(part);
      name += (name.empty() ? "" : ".") + n->display;
    }
    names.push_back(name);
  }
  return names;
}

std::uint64_t config_number(const power::Activity& a, const char* section, const char* key,
                            std::uint64_t fallback) {
  const auto s = a.config.find(section);
  if (s == a.config.end() || !s->is_object()) return fallback;
  const auto v = s->find(key);
  if (v == s->end() || !v->is_number_unsigned() || v->get<std::uint64_t>() == 0) return fallback;
  return v->get<std::uint64_t>();
}

unsigned log2_of(std::uint64_t v) {
  unsigned bits = 0;
  while ((std::uint64_t{1} << (bits + 1)) <= v)
    ++bits;
  return bits;
}

// The attributes an instance is declared with: its numeric properties and what its subcomponents need.
ordered_json instance_attributes(const power::Instance& inst, const power::Activity& a) {
  ordered_json attrs = ordered_json::object();
  for (const auto& [key, value] : inst.properties.items()) {
    if (value.is_number()) attrs[key] = value;
  }
  if (inst.kind == "l1" || inst.kind == "l2") {
    const std::uint64_t line =
        std::max<std::uint64_t>(1, inst.properties.value("line_bytes", std::uint64_t{128}));
    const std::uint64_t size = std::max<std::uint64_t>(line, inst.properties.value("size_bytes", line));
    const std::uint64_t ways = std::max<std::uint64_t>(1, inst.properties.value("ways", std::uint64_t{1}));
    const std::uint64_t lines = size / line;
    const std::uint64_t sets = std::max<std::uint64_t>(1, lines / ways);
    const unsigned address_bits = static_cast<unsigned>(config_number(a, "memory", "address_bits", 48));
    const unsigned offset_and_index = log2_of(line) + log2_of(sets);
    attrs["line_bits"] = line * 8;
    attrs["lines"] = lines;
    // tag plus valid and dirty bits
    attrs["tag_bits"] = (address_bits > offset_and_index ? address_bits - offset_and_index : 1) + 2;
  }
  return attrs;
}

ordered_json primitive(const char* name, const char* cls, ordered_json attributes,
                       const std::string& technology) {
  attributes["technology"] = technology;
  return ordered_json{{"name", name}, {"class", cls}, {"attributes", std::move(attributes)}};
}

// The primitive subcomponents of an instance's class, from Accelergy's primitive component library (version
// 0.3: SRAM, regfile, counter, comparator, intmac, fpmac, crossbar, wire, DRAM). Their attributes are
// numbers, not bindings to the class's attributes: Accelergy 0.4 reads a quoted binding as a string.
ordered_json class_subcomponents(const power::Instance& inst, const power::Activity& a,
                                 const std::string& tech) {
  const std::string& kind = inst.kind;
  ordered_json subs = ordered_json::array();
  if (kind == "sm") {
    const std::uint64_t registers = config_number(a, "sm", "registers", 65536);
    const std::uint64_t shared = config_number(a, "sm", "shared_bytes", 98304);
    // A row of the register file holds one register of the 32 lanes; shared memory is 32 banks of 4 bytes.
    subs.push_back(primitive(
        "register_file", "regfile",
        {{"width", 1024}, {"depth", std::max<std::uint64_t>(1, registers / 32)}, {"n_ports", 3}}, tech));
    subs.push_back(primitive(
        "shared_memory", "SRAM",
        {{"width", 1024}, {"depth", std::max<std::uint64_t>(1, shared / 128)}, {"n_banks", 32}}, tech));
    subs.push_back(primitive("scheduler", "counter", {{"width", 32}}, tech));
    subs.push_back(primitive("fp32_unit", "fpmac", {{"exponent", 8}, {"mantissa", 24}}, tech));
    subs.push_back(primitive("fp64_unit", "fpmac", {{"exponent", 11}, {"mantissa", 53}}, tech));
    subs.push_back(primitive("fp16_unit", "fpmac", {{"exponent", 5}, {"mantissa", 11}}, tech));
    subs.push_back(primitive("int_unit", "intmac", {{"datawidth", 32}}, tech));
  } else if (kind == "l1" || kind == "l2") {
    const ordered_json geometry = instance_attributes(inst, a);
    subs.push_back(primitive("data_array", "SRAM",
                             {{"width", geometry["line_bits"]}, {"depth", geometry["lines"]}}, tech));
    subs.push_back(primitive("tag_array", "SRAM",
                             {{"width", geometry["tag_bits"]}, {"depth", geometry["lines"]}}, tech));
  } else if (kind == "crossbar" || kind == "switch") {
    const std::uint64_t sockets = std::max<std::uint64_t>(1, a.sockets);
    const std::uint64_t in = kind == "crossbar" ? config_number(a, "sm", "per_socket", 1) : sockets;
    const std::uint64_t out = kind == "crossbar" ? config_number(a, "l2", "banks", 1) : sockets;
    subs.push_back(
        primitive("crossbar", "crossbar", {{"n_inputs", in}, {"n_outputs", out}, {"datawidth", 32}}, tech));
  } else if (kind == "link") {
    subs.push_back(primitive("wires", "wire", ordered_json::object(), tech));
  } else if (kind == "dram") {
    subs.push_back(primitive("dram", "DRAM", {{"type", "HBM2"}, {"width", 64}}, tech));
  } else {  // link_balancer, partition_controller
    subs.push_back(primitive("window_counter", "counter", {{"width", 32}}, tech));
    subs.push_back(primitive("comparator", "comparator", {{"datawidth", 32}}, tech));
  }
  return subs;
}

// The compound-component classes: one per kind, or more where instances of a kind need different
// subcomponents (numagpu_l2, numagpu_l2_2, ...); each instance's class.
struct Classes {
  ordered_json list = ordered_json::array();
  std::map<const power::Instance*, std::string> of;
};

std::string period_text(std::uint64_t clock_mhz) {
  std::ostringstream os;
  os << 1000.0 / static_cast<double>(std::max<std::uint64_t>(1, clock_mhz)) << "ns";
  return os.str();
}

// The architecture's entry of a node: its locals (instances below it) and subtrees (nodes with children).
ordered_json subtree(const Node& n, const Classes& classes) {
  ordered_json entry{{"name", n.array_base.empty()
                                  ? n.display
                                  : n.array_base + "[0.." + std::to_string(n.array_size - 1) + "]"}};
  ordered_json local = ordered_json::array();
  ordered_json below = ordered_json::array();
  for (const auto& c : n.children) {
    if (!c->array_base.empty() && !c->array_first) continue;  // declared once, by element 0
    const std::string name =
        c->array_base.empty() ? c->display : c->array_base + "[0.." + std::to_string(c->array_size - 1) + "]";
    if (c->instance) {
      local.push_back(ordered_json{{"name", name}, {"class", classes.of.at(c->instance)}});
    }
    if (!c->children.empty()) below.push_back(subtree(*c, classes));
  }
  if (!local.empty()) entry["local"] = local;
  if (!below.empty()) entry["subtree"] = below;
  return entry;
}

// Fills in the attributes of the locals (needs the activity for the derived ones): a second walk.
void add_attributes(ordered_json& entry, const Node& n, const power::Activity& a) {
  std::size_t l = 0, s = 0;
  for (const auto& c : n.children) {
    if (!c->array_base.empty() && !c->array_first) continue;
    if (c->instance) {
      ordered_json attrs = instance_attributes(*c->instance, a);
      if (!attrs.empty()) entry["local"][l]["attributes"] = attrs;
      ++l;
    }
    if (!c->children.empty()) add_attributes(entry["subtree"][s++], *c, a);
  }
}

Classes make_classes(const power::Activity& activity, const std::string& technology) {
  Classes c;
  std::map<std::string, std::size_t> index;  // kind + subcomponents -> position in c.list
  std::map<std::string, std::size_t> per_kind;
  std::vector<std::vector<std::string>> counters;  // per class: its instances' counter names
  std::vector<std::string> kinds;                  // per class
  for (const power::Instance& inst : activity.instances) {
    ordered_json subs = class_subcomponents(inst, activity, technology);
    const std::string key = inst.kind + subs.dump();
    auto it = index.find(key);
    if (it == index.end()) {
      const std::size_t n = ++per_kind[inst.kind];
      const std::string name = "numagpu_" + inst.kind + (n > 1 ? "_" + std::to_string(n) : "");
      ordered_json attrs{{"technology", technology}};
      const ordered_json declared = instance_attributes(inst, activity);
      for (auto& [k, v] : declared.items())
        attrs[k] = v;
      c.list.push_back(ordered_json{{"name", name}, {"attributes", attrs}, {"subcomponents", subs}});
      counters.emplace_back();
      kinds.push_back(inst.kind);
      it = index.emplace(key, c.list.size() - 1).first;
    }
    c.of[&inst] = c.list[it->second]["name"].get<std::string>();
    auto& list = counters[it->second];
    for (const std::string& name : inst.counters)
      if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
  }
  // Its actions: one per counter name of its instances, mapped by kAccelergyActions.
  for (std::size_t i = 0; i < c.list.size(); ++i) {
    const std::string& kind = kinds[i];
    ordered_json actions = ordered_json::array();
    for (const std::string& counter : counters[i]) {
      std::map<std::string, ordered_json> per_sub;  // subcomponent -> its actions
      std::vector<std::string> order;
      for (const ActionRow& row : kAccelergyActions) {
        if (kind != row.kind || counter != row.counter) continue;
        if (!per_sub.count(row.subcomponent)) order.push_back(row.subcomponent);
        per_sub[row.subcomponent].push_back(ordered_json{{"name", row.action}, {"action_share", row.share}});
      }
      if (order.empty()) {  // charges nothing: the first subcomponent idles at no cost
        order.push_back(c.list[i]["subcomponents"][0]["name"].get<std::string>());
        per_sub[order[0]].push_back(ordered_json{{"name", "idle"}, {"action_share", 0}});
      }
      ordered_json sub_actions = ordered_json::array();
      for (const std::string& s : order)
        sub_actions.push_back(ordered_json{{"name", s}, {"actions", per_sub[s]}});
      actions.push_back(ordered_json{{"name", counter}, {"subcomponents", sub_actions}});
    }
    c.list[i]["actions"] = actions;
  }
  return c;
}

}  // namespace

std::vector<std::string> flattened_names(const power::Activity& activity) {
  return names_from(build_tree(activity), activity);
}

std::string action_counts(const power::Activity& activity, std::string_view source) {
  const std::vector<std::string> names = flattened_names(activity);
  ordered_json local = ordered_json::array();
  for (std::size_t i = 0; i < activity.instances.size(); ++i) {
    const power::Instance& inst = activity.instances[i];
    ordered_json actions = ordered_json::array();
    for (std::size_t c = 0; c < inst.counters.size(); ++c)
      actions.push_back(ordered_json{{"name", inst.counters[c]}, {"counts", inst.totals[c]}});
    local.push_back(ordered_json{{"name", names[i]}, {"action_counts", actions}});
  }
  const ordered_json document = {{"action_counts", ordered_json{{"version", kVersion}, {"local", local}}}};
  return "# Accelergy action counts: " + export_provenance(activity, source) +
         ".\n# One entry per component instance, named as Accelergy flattens the architecture that\n"
         "# `numagpu export --format accelergy-arch` writes; one action per activity counter "
         "(docs/power.md).\n" +
         config::emit_yaml(document);
}

std::string architecture(const power::Activity& activity, std::string_view source, int technology_nm) {
  const Tree tree = build_tree(activity);
  if (tree.root.children.empty()) throw NameError("no instances: nothing to describe");
  const std::string technology = std::to_string(technology_nm) + "nm";

  const Classes classes = make_classes(activity, technology);
  const Node& top = *tree.root.children[0];
  ordered_json root = subtree(top, classes);
  add_attributes(root, top, activity);
  ordered_json shared{{"technology", technology}, {"latency", period_text(activity.clock_mhz)}};
  ordered_json ordered{{"name", root["name"]}, {"attributes", shared}};
  for (auto& [k, v] : root.items())
    if (k != "name") ordered[k] = v;
  root = ordered;

  const ordered_json document = {
      {"architecture", ordered_json{{"version", kVersion}, {"subtree", ordered_json::array({root})}}},
      {"compound_components", ordered_json{{"version", kVersion}, {"classes", classes.list}}}};
  return "# Accelergy architecture and compound components: " + export_provenance(activity, source) +
         ".\n# Component names match `numagpu export --format accelergy` (docs/power.md, \"Accelergy\").\n" +
         config::emit_yaml(document);
}

}  // namespace numagpu::accelergy
