// parse_module: PTX text to a Module. The text is tokenized (ptx/lexer.hpp), the directives read into
// variables and functions, and every instruction decoded (decode.cpp) as its statement is read, with
// registers and names resolved in the nested scopes where they are declared.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "ptx/lexer.hpp"
#include "ptx/module.hpp"
#include "ptx/numeric.hpp"

namespace numagpu::ptx {

namespace {
constexpr std::uint32_t kMaxRegisters = 1u << 16;  // a function's registers, all types
}  // namespace

const Function* Module::find(const std::string& name) const {
  for (const Function& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

const std::vector<VariableInfo>& module_variables(const Module& m) {
  return m.variables;
}

const char* to_string(Type t) {
  static const char* const kNames[] = {"none", "pred", "b8",  "b16", "b32", "b64", "u8",    "u16", "u32",
                                       "u64",  "s8",   "s16", "s32", "s64", "f16", "f16x2", "f32", "f64"};
  return kNames[static_cast<unsigned>(t)];
}

namespace {

// An operand as written, before its instruction gives it a type.
struct RawOperand {
  enum class Kind : std::uint8_t {
    kNone,
    kReg,
    kNumber,
    kSpecial,
    kSymbol,
    kLabel,
    kAddress,
    kVector,
    kPair,
    kSink
  };
  Kind kind = Kind::kNone;
  bool negate = false;      // !%p
  bool negative = false;    // -number
  bool has_symbol = false;  // an address naming a symbol
  std::uint32_t reg = kNoReg, symbol = 0;
  Special special = Special::kTidX;
  std::int64_t offset = 0;
  std::string_view text;
  std::vector<RawOperand> elements;
  std::uint32_t line = 0, column = 0;
};

struct Statement {
  Token opcode;
  std::uint32_t guard = kNoReg;
  bool guard_negated = false;
  std::vector<RawOperand> operands;
};

bool is_number(std::string_view w) {
  return !w.empty() && w[0] >= '0' && w[0] <= '9';
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool parse_hex(std::string_view w, std::uint64_t& v) {
  if (w.empty() || w.size() > 16) return false;
  v = 0;
  for (char c : w) {
    const int d = hex_digit(c);
    if (d < 0) return false;
    v = v << 4 | static_cast<unsigned>(d);
  }
  return true;
}

}  // namespace

// Decimal, 0x hex, 0b binary or 0-prefixed octal, with an optional U suffix.
bool parse_integer(std::string_view w, std::uint64_t& v) {
  if (!w.empty() && (w.back() == 'U' || w.back() == 'u')) w.remove_suffix(1);
  if (w.empty() || !is_number(w)) return false;
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) return parse_hex(w.substr(2), v);
  unsigned base = 10;
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'b' || w[1] == 'B')) {
    base = 2;
    w.remove_prefix(2);
  } else if (w.size() > 1 && w[0] == '0') {
    base = 8;
    w.remove_prefix(1);
  }
  v = 0;
  for (char c : w) {
    const int d = hex_digit(c);
    if (d < 0 || static_cast<unsigned>(d) >= base) return false;
    v = v * base + static_cast<unsigned>(d);
  }
  return true;
}

// A literal as the bits of `type`: 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits), an integer, or a
// decimal float; converted to the type's format when written in another.
bool encode_literal(std::string_view w, bool negative, Type type, std::uint64_t& bits) {
  double value = 0;
  bool is_fp = false;
  if (w.size() == 10 && w[0] == '0' && (w[1] == 'f' || w[1] == 'F')) {
    std::uint64_t b = 0;
    if (!parse_hex(w.substr(2), b)) return false;
    float f;
    const auto b32 = static_cast<std::uint32_t>(b);
    std::memcpy(&f, &b32, 4);
    if (type == Type::kF32 || type == Type::kB32 || type == Type::kU32 || type == Type::kS32) {
      bits = negative ? b32 ^ 0x80000000u : b32;
      return true;
    }
    value = f;
    is_fp = true;
  } else if (w.size() == 18 && w[0] == '0' && (w[1] == 'd' || w[1] == 'D')) {
    std::uint64_t b = 0;
    if (!parse_hex(w.substr(2), b)) return false;
    if (type == Type::kF64 || type == Type::kB64 || type == Type::kU64 || type == Type::kS64) {
      bits = negative ? b ^ 0x8000000000000000ull : b;
      return true;
    }
    std::memcpy(&value, &b, 8);
    is_fp = true;
  } else {
    std::uint64_t v = 0;
    if (parse_integer(w, v)) {
      if (!is_float(type)) {
        bits = negative ? ~v + 1 : v;
        if (type_bytes(type) < 8 && type != Type::kNone)
          bits &= (std::uint64_t{1} << (8 * type_bytes(type))) - 1;
        return true;
      }
      value = static_cast<double>(v);
    } else {
      std::string s(w);
      char* end = nullptr;
      value = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size()) return false;
    }
    is_fp = true;
  }
  if (negative) value = -value;
  if (type == Type::kF64) {
    std::memcpy(&bits, &value, 8);
  } else if (type == Type::kF32) {
    const float f = static_cast<float>(value);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    bits = b;
  } else if (type == Type::kF16) {
    bits = float_to_half(static_cast<float>(value));
  } else if (is_fp && !is_float(type)) {
    // a float literal for an integer or bits type: its bits in that size
    if (type_bytes(type) == 8) {
      std::memcpy(&bits, &value, 8);
    } else {
      const float f = static_cast<float>(value);
      std::uint32_t b;
      std::memcpy(&b, &f, 4);
      bits = b;
    }
  } else {
    return false;
  }
  return true;
}

bool parse_special(std::string_view w, Special& s) {
  static const std::pair<std::string_view, Special> kSpecials[] = {{"%tid.x", Special::kTidX},
                                                                   {"%tid.y", Special::kTidY},
                                                                   {"%tid.z", Special::kTidZ},
                                                                   {"%ntid.x", Special::kNtidX},
                                                                   {"%ntid.y", Special::kNtidY},
                                                                   {"%ntid.z", Special::kNtidZ},
                                                                   {"%ctaid.x", Special::kCtaidX},
                                                                   {"%ctaid.y", Special::kCtaidY},
                                                                   {"%ctaid.z", Special::kCtaidZ},
                                                                   {"%nctaid.x", Special::kNctaidX},
                                                                   {"%nctaid.y", Special::kNctaidY},
                                                                   {"%nctaid.z", Special::kNctaidZ},
                                                                   {"%laneid", Special::kLaneid},
                                                                   {"%warpid", Special::kWarpid},
                                                                   {"%nwarpid", Special::kNwarpid},
                                                                   {"%smid", Special::kSmid},
                                                                   {"%nsmid", Special::kNsmid},
                                                                   {"%gridid", Special::kGridid},
                                                                   {"%lanemask_eq", Special::kLanemaskEq},
                                                                   {"%lanemask_le", Special::kLanemaskLe},
                                                                   {"%lanemask_lt", Special::kLanemaskLt},
                                                                   {"%lanemask_ge", Special::kLanemaskGe},
                                                                   {"%lanemask_gt", Special::kLanemaskGt},
                                                                   {"%clock", Special::kClock},
                                                                   {"%clock64", Special::kClock64},
                                                                   {"%globaltimer", Special::kGlobaltimer}};
  for (const auto& [name, sp] : kSpecials)
    if (w == name) {
      s = sp;
      return true;
    }
  return false;
}

// The types each arithmetic, bit or special-function instruction takes (the PTX ISA's tables, less what the
// executor does not run: f16 division, f16x2 special functions...).
bool arithmetic_type_ok(Op op, Type t) {
  const bool i16 = t == Type::kU16 || t == Type::kS16, i32 = t == Type::kU32 || t == Type::kS32,
             i64 = t == Type::kU64 || t == Type::kS64;
  const bool ints = i16 || i32 || i64, sints = t == Type::kS16 || t == Type::kS32 || t == Type::kS64;
  const bool bits = t == Type::kB16 || t == Type::kB32 || t == Type::kB64;
  const bool f = t == Type::kF32 || t == Type::kF64, half = t == Type::kF16 || t == Type::kF16x2;
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kMin:
    case Op::kMax:
      return ints || f || half;
    case Op::kMad:
      return ints || f;
    case Op::kFma:
      return f || half;
    case Op::kMul24:
    case Op::kMad24:
      return i32;
    case Op::kSad:
    case Op::kRem:
      return ints;
    case Op::kDiv:
      return ints || f;
    case Op::kAbs:
    case Op::kNeg:
      return sints || f || half;
    case Op::kCopysign:
      return f;
    case Op::kPopc:
    case Op::kClz:
    case Op::kBrev:
      return t == Type::kB32 || t == Type::kB64;
    case Op::kBfind:
    case Op::kBfe:
      return i32 || i64;
    case Op::kBfi:
      return t == Type::kB32 || t == Type::kB64;
    case Op::kPrmt:
    case Op::kLop3:
      return t == Type::kB32;
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
    case Op::kNot:
    case Op::kCnot:
      return bits || t == Type::kPred;
    case Op::kShl:
      return bits;
    case Op::kShr:
      return bits || ints;
    case Op::kSelp:
      return bits || ints || f || t == Type::kPred;
    case Op::kRcp:
    case Op::kSqrt:
    case Op::kRsqrt:
      return f;
    case Op::kSin:
    case Op::kCos:
    case Op::kLg2:
      return t == Type::kF32;
    case Op::kEx2:
    case Op::kTanh:
      return t == Type::kF32 || t == Type::kF16;
    default:
      return true;
  }
}

bool parse_type(std::string_view w, Type& t) {
  static const std::pair<std::string_view, Type> kTypes[] = {
      {"pred", Type::kPred}, {"b8", Type::kB8},   {"b16", Type::kB16},     {"b32", Type::kB32},
      {"b64", Type::kB64},   {"u8", Type::kU8},   {"u16", Type::kU16},     {"u32", Type::kU32},
      {"u64", Type::kU64},   {"s8", Type::kS8},   {"s16", Type::kS16},     {"s32", Type::kS32},
      {"s64", Type::kS64},   {"f16", Type::kF16}, {"f16x2", Type::kF16x2}, {"f32", Type::kF32},
      {"f64", Type::kF64}};
  for (const auto& [name, type] : kTypes)
    if (w == name) {
      t = type;
      return true;
    }
  return false;
}

namespace {

class Parser {
 public:
  Parser(std::string_view text, const std::string& file, Module& m)
      : file_(file), tokens_(tokenize(text, file)), m_(m) {}

  void parse() {
    while (peek().kind != Token::Kind::kEnd)
      top_level();
  }

 private:
  struct Binding {
    bool is_register = false;
    std::uint32_t index = 0;  // register index, or Function::symbols index
  };

  // ---- tokens ----
  const Token& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  [[noreturn]] void fail(const Token& at, const std::string& what) const {
    throw ParseError(file_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + what);
  }
  static std::string describe(const Token& t) {
    return t.kind == Token::Kind::kEnd ? "end of file" : "'" + std::string(t.text) + "'";
  }
  void expect(char c) {
    const Token& t = next();
    if (!t.is(c)) fail(t, std::string("expected '") + c + "', found " + describe(t));
  }
  bool accept(char c) {
    if (!peek().is(c)) return false;
    next();
    return true;
  }
  std::string_view word(const char* what) {
    const Token& t = next();
    if (t.kind != Token::Kind::kWord) fail(t, std::string("expected ") + what + ", found " + describe(t));
    return t.text;
  }
  std::uint64_t integer(const char* what) {
    const Token& t = next();
    std::uint64_t v = 0;
    if (t.kind != Token::Kind::kWord || !parse_integer(t.text, v))
      fail(t, std::string("expected ") + what + ", found " + describe(t));
    return v;
  }
  // Skips the rest of a directive that ends at its line's end (.version, .target, .file, .loc).
  void skip_line(std::uint32_t line) {
    while (peek().kind != Token::Kind::kEnd && peek().line == line)
      next();
  }
  void skip_to_semicolon() {
    while (peek().kind != Token::Kind::kEnd && !peek().is(';'))
      next();
    expect(';');
  }

  // ---- module level ----
  void top_level() {
    const Token& t = peek();
    if (t.kind != Token::Kind::kWord) fail(t, "expected a directive, found " + describe(t));
    if (t.text == ".version" || t.text == ".target" || t.text == ".address_size" || t.text == ".file") {
      const std::uint32_t line = t.line;
      if (t.text == ".address_size") {
        next();
        const Token& size = peek();
        if (integer("an address size") != 64) fail(size, "unsupported .address_size (only 64)");
        return;
      }
      skip_line(line);
      return;
    }
    if (t.text == ".section") {  // debug sections: skipped with their braces
      next();
      while (!peek().is('{') && peek().kind != Token::Kind::kEnd)
        next();
      int depth = 0;
      do {
        const Token& b = next();
        if (b.kind == Token::Kind::kEnd) fail(b, "unterminated .section");
        if (b.is('{')) ++depth;
        if (b.is('}')) --depth;
      } while (depth > 0);
      return;
    }
    if (t.text == ".pragma") {
      next();
      skip_to_semicolon();
      return;
    }
    // Linkage: whether a name is visible outside the module does not matter to one module's run.
    while (peek().is(".visible") || peek().is(".extern") || peek().is(".weak") || peek().is(".common"))
      next();
    const Token& d = peek();
    if (d.is(".entry") || d.is(".func")) {
      function(d.is(".entry"));
    } else if (d.is(".global") || d.is(".const") || d.is(".shared")) {
      module_variable();
    } else {
      fail(d, "unsupported directive " + describe(d));
    }
  }

  // `.align N .type name[dims]` after a state space; returns the element type and fills the variable.
  Type declaration(std::string& name, std::uint64_t& bytes, std::uint32_t& align, bool& unsized,
                   std::uint64_t& elements) {
    align = 0;
    Type type = Type::kNone;
    for (;;) {
      const Token& t = peek();
      if (t.is(".align")) {
        next();
        align = static_cast<std::uint32_t>(integer("an alignment"));
      } else if (t.kind == Token::Kind::kWord && t.text.size() > 1 && t.text[0] == '.' &&
                 parse_type(t.text.substr(1), type)) {
        next();
      } else if (t.is(".ptr") || t.is(".global") || t.is(".shared") || t.is(".const") || t.is(".local")) {
        next();  // .param qualifiers (.ptr .global .align N) that nvcc writes
      } else {
        break;
      }
    }
    const Token& n = peek();
    if (type == Type::kNone) fail(n, "expected a type before " + describe(n));
    name = std::string(word("a name"));
    elements = 1;
    unsized = false;
    while (accept('[')) {
      if (accept(']')) {
        unsized = true;
        elements = 0;
        continue;
      }
      elements *= integer("an array size");
      expect(']');
    }
    const unsigned size = type == Type::kPred ? 1 : type_bytes(type);
    bytes = elements * size;
    if (align == 0) align = size;
    return type;
  }

  void module_variable() {
    const Token& space_tok = next();
    VariableInfo v;
    v.space = space_tok.is(".global")  ? VariableInfo::Space::kGlobal
              : space_tok.is(".const") ? VariableInfo::Space::kConst
                                       : VariableInfo::Space::kShared;
    bool unsized = false;
    std::uint64_t elements = 0;
    const Token& name_tok = peek(2);
    const Type type = declaration(v.name, v.bytes, v.align, unsized, elements);
    if (unsized && v.space != VariableInfo::Space::kShared)
      fail(name_tok, "unsupported array of unknown size outside .shared");
    if (accept('=')) {
      if (v.space == VariableInfo::Space::kShared) fail(peek(), "a .shared variable cannot be initialized");
      initializer(type, v);
    }
    expect(';');
    if (unsized) v.bytes = 0;  // extern .shared x[]: the launch's dynamic shared memory
    bind_global(v.name,
                Symbol{Symbol::Kind::kModuleVariable, static_cast<std::uint32_t>(m_.variables.size())});
    m_.variables.push_back(std::move(v));
  }

  void initializer(Type type, VariableInfo& v) {
    const unsigned size = type_bytes(type);
    auto element = [&]() {
      bool negative = accept('-');
      const Token& t = next();
      std::uint64_t bits = 0;
      if (t.kind != Token::Kind::kWord) fail(t, "expected an initial value, found " + describe(t));
      if (!encode_literal(t.text, negative, type, bits)) fail(t, "unsupported initial value " + describe(t));
      for (unsigned b = 0; b < size; ++b)
        v.initial.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
    };
    // A scalar, or braces (nested for arrays of arrays) of scalars: the elements in order.
    int depth = 0;
    do {
      while (accept('{'))
        ++depth;
      element();
      while (depth > 0 && accept('}'))
        --depth;
    } while (depth > 0 && accept(','));
    if (depth != 0) expect('}');
    if (v.initial.size() > v.bytes) fail(peek(), "too many initial values for '" + v.name + "'");
  }

  // ---- functions ----
  void function(bool is_entry) {
    const Token& kw = next();
    Function f;
    f.is_entry = is_entry;
    f.line = kw.line;
    f.column = kw.column;
    current_ = &f;
    global_cache_.clear();
    scope_marks_.clear();
    undo_.clear();
    if (!is_entry && peek().is('(')) parameter_list(f.returns, Symbol::Kind::kReturn);
    const Token& name_tok = peek();
    f.name = std::string(word("a function name"));
    if (peek().is('(')) parameter_list(f.params, Symbol::Kind::kParam);
    // Performance directives and attributes: accepted and ignored.
    while (peek().kind == Token::Kind::kWord && peek().text[0] == '.') {
      const Token& d = next();
      if (d.is(".noreturn")) continue;
      if (!(d.is(".maxntid") || d.is(".reqntid") || d.is(".minnctapersm") || d.is(".maxnreg") ||
            d.is(".maxnctapersm") || d.is(".pragma") || d.is(".explicitcluster") ||
            d.is(".reqnctapercluster") || d.is(".maxclusterrank")))
        fail(d, "unsupported directive " + describe(d));
      if (d.is(".pragma")) {
        skip_to_semicolon();
        continue;
      }
      do
        integer("a number");
      while (accept(','));
    }
    // A declaration seen before, now defined (or declared again): one Function.
    std::uint32_t index = static_cast<std::uint32_t>(m_.functions.size());
    for (std::uint32_t i = 0; i < m_.functions.size(); ++i)
      if (m_.functions[i].name == f.name) index = i;
    if (index == m_.functions.size()) {
      m_.functions.emplace_back();
      m_.functions.back().name = f.name;
      m_.functions.back().is_entry = is_entry;
      m_.functions.back().params = f.params;
      m_.functions.back().returns = f.returns;
      bind_global(f.name, Symbol{Symbol::Kind::kFunction, index});
    }
    if (accept(';')) {
      current_ = nullptr;
      return;
    }
    if (m_.functions[index].defined) fail(name_tok, "function '" + f.name + "' defined twice");
    f.defined = true;
    expect('{');
    body(f);
    resolve_labels(f);
    current_ = nullptr;
    // Undo the parameter bindings.
    while (!undo_.empty())
      unbind_last();
    m_.functions[index] = std::move(f);
  }

  void parameter_list(std::vector<ParamInfo>& out, Symbol::Kind kind) {
    expect('(');
    std::uint32_t offset = 0;
    if (!accept(')')) {
      do {
        const Token& p = peek();
        if (!p.is(".param") && !p.is(".reg")) fail(p, "expected .param, found " + describe(p));
        if (p.is(".reg")) fail(p, "unsupported .reg parameter");
        next();
        ParamInfo info;
        std::uint64_t bytes = 0, elements = 0;
        bool unsized = false;
        declaration(info.name, bytes, info.align, unsized, elements);
        if (unsized) fail(p, "unsupported parameter of unknown size");
        info.bytes = static_cast<std::uint32_t>(bytes);
        offset = (offset + info.align - 1) / info.align * info.align;
        info.offset = offset;
        offset += info.bytes;
        bind(info.name, add_symbol(Symbol{kind, static_cast<std::uint32_t>(out.size())}));
        out.push_back(std::move(info));
      } while (accept(','));
      expect(')');
    }
  }

  std::uint32_t add_symbol(Symbol s) {
    current_->symbols.push_back(s);
    return static_cast<std::uint32_t>(current_->symbols.size() - 1);
  }

  void body(Function& f) {
    scope_marks_.push_back(undo_.size());
    for (;;) {
      const Token& t = peek();
      if (t.kind == Token::Kind::kEnd) fail(t, "expected '}' closing function '" + f.name + "'");
      if (t.is('}')) {
        next();
        unbind_to(scope_marks_.back());
        scope_marks_.pop_back();
        if (scope_marks_.empty()) return;
        continue;
      }
      if (t.is('{')) {
        next();
        scope_marks_.push_back(undo_.size());
        continue;
      }
      if (t.kind == Token::Kind::kWord && t.text[0] == '.') {
        body_directive(f);
        continue;
      }
      if (t.kind == Token::Kind::kWord && peek(1).is(':')) {
        labels_[std::string(t.text)] = static_cast<std::uint32_t>(f.code.size());
        next();
        next();
        continue;
      }
      statement(f);
    }
  }

  void body_directive(Function& f) {
    const Token& d = next();
    if (d.is(".loc") || d.is(".file")) {
      skip_line(d.line);
      return;
    }
    if (d.is(".pragma")) {
      skip_to_semicolon();
      return;
    }
    if (d.is(".reg")) {
      const Token& tt = next();
      Type type = Type::kNone;
      if (tt.kind != Token::Kind::kWord || tt.text.size() < 2 || !parse_type(tt.text.substr(1), type))
        fail(tt, "expected a register type, found " + describe(tt));
      const std::uint8_t bits = type == Type::kPred ? 1 : static_cast<std::uint8_t>(type_bytes(type) * 8);
      do {
        const Token& n = peek();
        std::string name(word("a register name"));
        if (accept('<')) {
          const std::uint64_t count = integer("a register count");
          expect('>');
          if (count > kMaxRegisters || current_->registers + count > kMaxRegisters)
            fail(n, "too many registers (at most " + std::to_string(kMaxRegisters) + " a function)");
          for (std::uint64_t i = 0; i < count; ++i)
            declare_register(name + std::to_string(i), bits);
        } else {
          declare_register(name, bits);
        }
      } while (accept(','));
      expect(';');
      return;
    }
    if (d.is(".local") || d.is(".shared") || d.is(".param")) {
      LocalVariable v;
      v.space = d.is(".local") ? Space::kLocal : d.is(".shared") ? Space::kShared : Space::kFrame;
      bool unsized = false;
      std::uint64_t elements = 0;
      const Token& at = peek();
      declaration(v.name, v.bytes, v.align, unsized, elements);
      if (unsized && v.space != Space::kShared) fail(at, "unsupported array of unknown size");
      v.dynamic = unsized;
      if (accept('=')) fail(peek(), "unsupported initializer in a function");
      expect(';');
      const Symbol::Kind kind = v.space == Space::kLocal    ? Symbol::Kind::kLocal
                                : v.space == Space::kShared ? Symbol::Kind::kShared
                                                            : Symbol::Kind::kFrame;
      bind(v.name, add_symbol(Symbol{kind, static_cast<std::uint32_t>(f.locals.size())}));
      f.locals.push_back(std::move(v));
      return;
    }
    fail(d, "unsupported directive " + describe(d));
  }

  void declare_register(const std::string& name, std::uint8_t bits) {
    if (current_->registers >= kMaxRegisters) fail(peek(), "too many registers");
    const std::uint32_t index = current_->registers++;
    current_->register_bits.push_back(bits);
    bind_binding(name, Binding{true, index});
  }

  void statement(Function& f) {
    Statement s;
    if (accept('@')) {
      s.guard_negated = accept('!');
      const Token& g = next();
      const Binding* b = lookup(g.text);
      if (g.kind != Token::Kind::kWord || !b || !b->is_register)
        fail(g, "expected a predicate register, found " + describe(g));
      s.guard = b->index;
    }
    const Token& op = next();
    if (op.kind != Token::Kind::kWord) fail(op, "expected an instruction, found " + describe(op));
    s.opcode = op;
    if (op.text.rfind("call", 0) == 0) {
      call_statement(f, s);
      return;
    }
    if (!peek().is(';')) {
      do
        s.operands.push_back(operand());
      while (accept(','));
    }
    expect(';');
    Instr in = decode(s);
    in.line = op.line;
    in.column = op.column;
    in.text = intern_opcode(op.text);
    f.code.push_back(in);
  }

  // call[.uni] [(ret, ...),] name [, (arg, ...)] [, prototype];
  void call_statement(Function& f, Statement& s) {
    Instr in;
    in.op = Op::kCall;
    in.line = s.opcode.line;
    in.column = s.opcode.column;
    in.text = intern_opcode(s.opcode.text);
    in.guard = s.guard;
    if (s.guard_negated) in.flags |= kGuardNeg;
    if (s.opcode.text != "call" && s.opcode.text != "call.uni")
      fail(s.opcode, "unsupported instruction '" + std::string(s.opcode.text) + "'");
    CallSite site;
    auto param_list = [&](std::vector<std::uint32_t>& out) {
      expect('(');
      if (!accept(')')) {
        do {
          const Token& p = next();
          const Binding* b = lookup(p.text);
          if (p.kind != Token::Kind::kWord || !b || b->is_register ||
              current_->symbols[b->index].kind != Symbol::Kind::kFrame)
            fail(p, "unsupported call argument " + describe(p) + " (expected a .param of the call)");
          out.push_back(b->index);
        } while (accept(','));
        expect(')');
      }
    };
    if (peek().is('(')) {
      param_list(site.returns);
      expect(',');
    }
    const Token& callee = next();
    const Binding* b = lookup(callee.text);
    if (callee.kind != Token::Kind::kWord || !b || b->is_register ||
        current_->symbols[b->index].kind != Symbol::Kind::kFunction)
      fail(callee, "unsupported call target " + describe(callee) + " (expected a function name)");
    site.callee = current_->symbols[b->index].index;
    if (accept(',')) {
      if (peek().is('(')) {
        param_list(site.arguments);
        if (accept(',')) fail(peek(), "unsupported indirect call (prototype)");
      } else {
        fail(peek(), "unsupported indirect call (prototype)");
      }
    }
    expect(';');
    in.target = static_cast<std::uint32_t>(f.calls.size());
    f.calls.push_back(std::move(site));
    f.code.push_back(in);
  }

 public:
  // ---- used by decode.cpp ----
  // An operand nests at most a few levels deep in PTX ({a, b} vectors of plain operands, !p, p|q); deeper
  // nesting is refused before it recurses, so no input can exhaust the parser's stack.
  static constexpr int kMaxOperandNesting = 4;
  RawOperand operand(int nesting = 0) {
    RawOperand r;
    const Token& t = peek();
    r.line = t.line;
    r.column = t.column;
    if (nesting > kMaxOperandNesting) fail(t, "operand nested too deeply at " + describe(t));
    if (accept('[')) {
      r.kind = RawOperand::Kind::kAddress;
      const Token& b = peek();
      if (b.kind == Token::Kind::kWord && !is_number(b.text)) {
        next();
        resolve_name(b, r);
        if (r.kind == RawOperand::Kind::kReg) {
          r.kind = RawOperand::Kind::kAddress;
        } else if (r.kind == RawOperand::Kind::kSymbol) {
          r.kind = RawOperand::Kind::kAddress;
          r.has_symbol = true;
          r.reg = kNoReg;
        } else {
          fail(b, "unsupported address " + describe(b));
        }
        if (peek().is('+') || peek().is('-')) {
          const bool minus = next().is('-');
          const bool neg2 = accept('-');
          const std::int64_t v = static_cast<std::int64_t>(integer("an offset"));
          r.offset = (minus != neg2) ? -v : v;
        }
      } else {
        const bool neg = accept('-');
        const std::int64_t v = static_cast<std::int64_t>(integer("an address"));
        r.offset = neg ? -v : v;
      }
      expect(']');
      return r;
    }
    if (accept('{')) {
      r.kind = RawOperand::Kind::kVector;
      do
        r.elements.push_back(operand(nesting + 1));
      while (accept(','));
      expect('}');
      return r;
    }
    if (accept('!')) {
      r = operand(nesting + 1);
      if (r.kind != RawOperand::Kind::kReg) fail(t, "expected a predicate after '!'");
      r.negate = true;
      return r;
    }
    const bool neg = accept('-');
    const Token& w = next();
    if (w.kind != Token::Kind::kWord) fail(w, "expected an operand, found " + describe(w));
    if (is_number(w.text)) {
      r.kind = RawOperand::Kind::kNumber;
      r.text = w.text;
      r.negative = neg;
    } else {
      if (neg) fail(w, "unsupported negated operand " + describe(w));
      resolve_name(w, r);
    }
    if (accept('|')) {  // setp's and shfl's second destination
      RawOperand pair;
      pair.kind = RawOperand::Kind::kPair;
      pair.line = r.line;
      pair.column = r.column;
      pair.elements.push_back(r);
      pair.elements.push_back(operand(nesting + 1));
      return pair;
    }
    return r;
  }

  void resolve_name(const Token& w, RawOperand& r) {
    r.text = w.text;
    if (w.text == "_") {
      r.kind = RawOperand::Kind::kSink;
      return;
    }
    if (const Binding* b = lookup(w.text)) {
      if (b->is_register) {
        r.kind = RawOperand::Kind::kReg;
        r.reg = b->index;
      } else {
        r.kind = RawOperand::Kind::kSymbol;
        r.symbol = b->index;
      }
      return;
    }
    Special sp;
    if (parse_special(w.text, sp)) {
      r.kind = RawOperand::Kind::kSpecial;
      r.special = sp;
      return;
    }
    if (w.text[0] == '%') fail(w, "unknown register " + describe(w));
    r.kind = RawOperand::Kind::kLabel;  // a branch target, resolved at the function's end
  }

  [[noreturn]] void fail_at(std::uint32_t line, std::uint32_t column, const std::string& what) const {
    throw ParseError(file_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what);
  }
  const Function& current() const { return *current_; }
  const Module& module() const { return m_; }
  void add_label_fixup(std::string_view label, std::uint32_t line, std::uint32_t column) {
    fixups_.push_back({std::string(label), static_cast<std::uint32_t>(current_->code.size()), line, column});
  }

  // ---- instructions ----
  // The modifiers of an opcode, sorted into what most instructions share; the rest stay in `rest` for the
  // instruction to take or refuse.
  struct Mods {
    std::vector<Type> types;
    Round round = Round::kDefault;
    bool ftz = false, sat = false, approx = false, full = false, uni = false, to = false, nan = false;
    bool space_set = false;
    Space space = Space::kGeneric;
    std::uint8_t vec = 1;
    std::vector<std::string_view> rest;
  };

  static Mods classify(const std::vector<std::string_view>& parts) {
    static const std::string_view kIgnored[] = {
        "ca",      "cg",      "cs",      "lu",   "cv",  "wb",  "wt",  "nc",      "volatile", "relaxed",
        "acquire", "release", "acq_rel", "weak", "sys", "gpu", "cta", "aligned", "sync",     "noftz"};
    Mods m;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::string_view p = parts[i];
      Type t;
      if (parse_type(p, t)) {
        m.types.push_back(t);
      } else if (p == "rn" || p == "rz" || p == "rm" || p == "rp" || p == "rni" || p == "rzi" || p == "rmi" ||
                 p == "rpi") {
        static const std::string_view kRounds[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
        for (unsigned r = 1; r < 9; ++r)
          if (p == kRounds[r]) m.round = static_cast<Round>(r);
      } else if (p == "ftz") {
        m.ftz = true;
      } else if (p == "sat") {
        m.sat = true;
      } else if (p == "approx") {
        m.approx = true;
      } else if (p == "full") {
        m.full = true;
      } else if (p == "uni") {
        m.uni = true;
      } else if (p == "to") {
        m.to = true;
      } else if (p == "NaN") {
        m.nan = true;
      } else if (p == "global" || p == "shared" || p == "local" || p == "const" || p == "param") {
        m.space_set = true;
        m.space = p == "global"   ? Space::kGlobal
                  : p == "shared" ? Space::kShared
                  : p == "local"  ? Space::kLocal
                  : p == "const"  ? Space::kConst
                                  : Space::kParam;
      } else if (p == "v2" || p == "v4") {
        m.vec = p == "v2" ? 2 : 4;
      } else if (std::find(std::begin(kIgnored), std::end(kIgnored), p) != std::end(kIgnored) ||
                 p.rfind("L1::", 0) == 0 || p.rfind("L2::", 0) == 0) {
        // cache operators, memory-consistency qualifiers and scopes: no effect on a functional, in-order run
      } else {
        m.rest.push_back(p);
      }
    }
    // shared::cta is the CTA's shared memory; shared::cluster is not supported (rest refuses it).
    for (auto it = m.rest.begin(); it != m.rest.end();) {
      if (*it == "shared::cta") {
        m.space_set = true;
        m.space = Space::kShared;
        it = m.rest.erase(it);
      } else {
        ++it;
      }
    }
    return m;
  }

  Instr decode(const Statement& s) {
    Instr in;
    in.guard = s.guard;
    if (s.guard_negated) in.flags |= kGuardNeg;
    const std::string_view text = s.opcode.text;
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
      const std::size_t dot = text.find('.', start);
      parts.push_back(
          text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    const std::string_view mn = parts[0];
    Mods md = classify(parts);
    const auto& ops = s.operands;
    auto unsupported = [&](const std::string& why = "") -> void {
      fail(s.opcode,
           "unsupported instruction '" + std::string(text) + "'" + (why.empty() ? "" : " (" + why + ")"));
    };
    auto take = [&](std::string_view word) {
      auto it = std::find(md.rest.begin(), md.rest.end(), word);
      if (it == md.rest.end()) return false;
      md.rest.erase(it);
      return true;
    };
    auto take_one_of = [&](std::initializer_list<std::string_view> words, int& which) {
      int i = 0;
      for (std::string_view w : words) {
        if (take(w)) {
          which = i;
          return true;
        }
        ++i;
      }
      return false;
    };
    auto need = [&](std::size_t n) {
      if (ops.size() != n)
        fail(s.opcode, "'" + std::string(text) + "' takes " + std::to_string(n) + " operands, found " +
                           std::to_string(ops.size()));
    };
    auto one_type = [&]() {
      if (md.types.size() != 1) unsupported("expected one type");
      return md.types[0];
    };
    auto dreg = [&](const RawOperand& r) -> std::uint32_t {
      if (r.kind == RawOperand::Kind::kSink) return kNoReg;
      if (r.kind != RawOperand::Kind::kReg || r.negate)
        fail_at(r.line, r.column, "expected a destination register, found '" + std::string(r.text) + "'");
      return r.reg;
    };
    auto src = [&](const RawOperand& r, Type t) {
      Operand o;
      switch (r.kind) {
        case RawOperand::Kind::kReg:
          o.kind = Operand::Kind::kReg;
          o.reg = r.reg;
          o.negate = r.negate;
          break;
        case RawOperand::Kind::kNumber: {
          std::uint64_t bits = 0;
          if (!encode_literal(r.text, r.negative, t, bits))
            fail_at(r.line, r.column,
                    "unsupported immediate '" + std::string(r.text) + "' for ." + to_string(t));
          o.kind = Operand::Kind::kImm;
          o.imm = static_cast<std::int64_t>(bits);
          break;
        }
        case RawOperand::Kind::kSpecial:
          o.kind = Operand::Kind::kSpecial;
          o.sym = static_cast<std::uint32_t>(r.special);
          break;
        case RawOperand::Kind::kSymbol:
          o.kind = Operand::Kind::kSymbol;
          o.sym = r.symbol;
          if (current_->symbols[r.symbol].kind == Symbol::Kind::kFunction)
            fail_at(r.line, r.column, "unsupported function address '" + std::string(r.text) + "'");
          break;
        default:
          fail_at(r.line, r.column, "unexpected operand '" + std::string(r.text) + "'");
      }
      return o;
    };
    auto address = [&](const RawOperand& r) {
      if (r.kind != RawOperand::Kind::kAddress) fail_at(r.line, r.column, "expected an address [..]");
      Operand o;
      o.kind = r.has_symbol      ? Operand::Kind::kSymbol
               : r.reg != kNoReg ? Operand::Kind::kReg
                                 : Operand::Kind::kImm;
      o.reg = r.reg;
      o.sym = r.symbol;
      o.imm = r.offset;
      return o;
    };
    auto finish = [&]() {
      if (!md.rest.empty()) unsupported();
    };
    auto sources = [&](std::size_t first, Type t) {
      for (std::size_t i = first; i < ops.size(); ++i)
        in.src[i - first] = src(ops[i], t);
      in.nsrc = static_cast<std::uint8_t>(ops.size() - first);
    };
    auto dst_src = [&](std::size_t n, Type t) {
      need(n);
      in.dst[0] = dreg(ops[0]);
      in.ndst = 1;
      sources(1, t);
    };
    auto float_mods_ok = [&](Type t) {
      if (!is_float(t) && (md.ftz || md.round != Round::kDefault || md.approx)) unsupported();
    };
    in.mode = 0;

    using K = Op;
    struct Simple {
      std::string_view name;
      Op op;
      std::size_t operands;
    };
    static const Simple kArith[] = {
        {"add", K::kAdd, 3},     {"sub", K::kSub, 3},           {"min", K::kMin, 3},
        {"max", K::kMax, 3},     {"abs", K::kAbs, 2},           {"neg", K::kNeg, 2},
        {"rem", K::kRem, 3},     {"copysign", K::kCopysign, 3}, {"popc", K::kPopc, 2},
        {"clz", K::kClz, 2},     {"brev", K::kBrev, 2},         {"bfe", K::kBfe, 4},
        {"bfi", K::kBfi, 5},     {"and", K::kAnd, 3},           {"or", K::kOr, 3},
        {"xor", K::kXor, 3},     {"not", K::kNot, 2},           {"cnot", K::kCnot, 2},
        {"shl", K::kShl, 3},     {"shr", K::kShr, 3},           {"lop3", K::kLop3, 5},
        {"selp", K::kSelp, 4},   {"sad", K::kSad, 4},           {"fma", K::kFma, 4},
        {"div", K::kDiv, 3},     {"rcp", K::kRcp, 2},           {"sqrt", K::kSqrt, 2},
        {"rsqrt", K::kRsqrt, 2}, {"sin", K::kSin, 2},           {"cos", K::kCos, 2},
        {"lg2", K::kLg2, 2},     {"ex2", K::kEx2, 2},           {"tanh", K::kTanh, 2},
        {"bfind", K::kBfind, 2}, {"prmt", K::kPrmt, 4},         {"mul", K::kMul, 3},
        {"mad", K::kMad, 4},     {"mul24", K::kMul24, 3},       {"mad24", K::kMad24, 4},
        {"addc", K::kAdd, 3},    {"subc", K::kSub, 3},          {"madc", K::kMad, 4}};
    for (const Simple& a : kArith) {
      if (mn != a.name) continue;
      in.op = a.op;
      const Type t = one_type();
      in.type = t;
      if (!arithmetic_type_ok(a.op, t)) unsupported("type ." + std::string(to_string(t)));
      float_mods_ok(t);
      if (md.ftz) in.flags |= kFtz;
      if (md.sat) in.flags |= kSat;
      if (md.approx) in.flags |= kApprox;
      if (md.full) in.flags |= kFull;
      if (md.nan) in.flags |= kNaN;
      in.mode = static_cast<std::uint8_t>(md.round);
      int which = 0;
      if (a.op == K::kMul || a.op == K::kMad || a.op == K::kMul24 || a.op == K::kMad24) {
        if (!is_float(t)) {
          if (!take_one_of({"lo", "hi", "wide"}, which)) unsupported("expected .lo, .hi or .wide");
          in.mode = static_cast<std::uint8_t>(which);
          if ((a.op == K::kMul24 || a.op == K::kMad24) && which == 2) unsupported();
          if (md.sat && !(a.op == K::kMad && which == 1 && t == Type::kS32)) unsupported();
        } else if (a.op == K::kMul24 || a.op == K::kMad24) {
          unsupported();
        } else if (a.op == K::kMad && md.round == Round::kDefault && t == Type::kF64) {
          unsupported("mad.f64 needs a rounding");
        }
      }
      if (a.op == K::kBfind && take("shiftamt")) in.mode = 1;
      if (a.op == K::kPrmt) {  // modes f4e b4e rc8 ecl ecr rc16: in.mode 1..6 (0: the default selector)
        int mode = 0;
        if (take_one_of({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}, mode))
          in.mode = static_cast<std::uint8_t>(mode + 1);
      }
      if ((a.op == K::kAdd || a.op == K::kSub) && !is_float(t) && md.sat && t != Type::kS32) unsupported();
      // Carry chains (add.cc, addc, sub.cc, subc, mad.lo.cc, madc.hi ...) on 32- and 64-bit integers.
      if (take("cc")) in.flags |= kCarryOut;
      if (mn == "addc" || mn == "subc" || mn == "madc") in.flags |= kCarryIn;
      if ((in.flags & (kCarryIn | kCarryOut)) &&
          (is_float(t) || type_bytes(t) < 4 || md.sat || (a.op == K::kMad && which == 2)))
        unsupported("carry");
      if ((a.op == K::kRcp || a.op == K::kSqrt || a.op == K::kDiv) && is_float(t) && !md.approx && !md.full &&
          md.round == Round::kDefault)
        unsupported("expected .approx or a rounding");
      if ((a.op == K::kRsqrt || a.op == K::kSin || a.op == K::kCos || a.op == K::kLg2 || a.op == K::kEx2 ||
           a.op == K::kTanh) &&
          !md.approx && t != Type::kF64)
        unsupported("expected .approx");
      if (a.op == K::kFma && md.round == Round::kDefault) unsupported("fma needs a rounding");
      finish();
      // Source types: shifts' amounts and bfe/bfi positions are .u32; selp's predicate; mul.wide's inputs
      // are half the destination's width.
      dst_src(a.operands, t);
      if (a.op == K::kShl || a.op == K::kShr) in.src[1] = src(ops[2], Type::kU32);
      if (a.op == K::kBfe) {
        in.src[1] = src(ops[2], Type::kU32);
        in.src[2] = src(ops[3], Type::kU32);
      }
      if (a.op == K::kBfi) {
        in.src[2] = src(ops[3], Type::kU32);
        in.src[3] = src(ops[4], Type::kU32);
      }
      if (a.op == K::kSelp) in.src[2] = src(ops[3], Type::kPred);
      if (a.op == K::kLop3) in.src[3] = src(ops[4], Type::kU32);
      if ((a.op == K::kMul || a.op == K::kMad) && !is_float(t) && which == 2) {
        const Type half = t == Type::kS16   ? Type::kS32
                          : t == Type::kU16 ? Type::kU32
                          : t == Type::kS32 ? Type::kS64
                          : t == Type::kU32 ? Type::kU64
                                            : Type::kNone;
        if (half == Type::kNone) unsupported();
        in.type2 = t;  // the inputs' type
        in.type = half;
        for (unsigned i = 0; i < 2; ++i)
          in.src[i] = src(ops[i + 1], t);
        if (a.op == K::kMad) in.src[2] = src(ops[3], half);
      }
      if (a.op == K::kBfind || a.op == K::kPopc || a.op == K::kClz) {
        in.type2 = t;  // the source's; the destination is .u32
      }
      return in;
    }
    if (mn == "testp") {
      in.op = K::kTestp;
      int which = 0;
      if (!take_one_of({"finite", "infinite", "number", "notanumber", "normal", "subnormal"}, which))
        unsupported();
      in.mode = static_cast<std::uint8_t>(which);
      in.type = one_type();
      finish();
      dst_src(2, in.type);
      return in;
    }
    if (mn == "shf") {
      in.op = K::kShf;
      int dir = 0, clamp = 0;
      if (!take_one_of({"l", "r"}, dir) || !take_one_of({"wrap", "clamp"}, clamp)) unsupported();
      if (dir == 1) in.flags |= kShfRight;
      if (clamp == 1) in.flags |= kShfClamp;
      in.type = one_type();
      finish();
      dst_src(4, Type::kB32);
      in.src[2] = src(ops[3], Type::kU32);
      return in;
    }
    static const std::string_view kCmps[] = {"eq", "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                             "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
    auto take_cmp = [&]() {
      for (unsigned c = 0; c < 18; ++c)
        if (take(kCmps[c])) {
          in.mode = static_cast<std::uint8_t>(c);
          return;
        }
      unsupported("expected a comparison");
    };
    auto take_bool = [&]() {
      int which = 0;
      if (take_one_of({"and", "or", "xor"}, which)) in.bool_op = static_cast<std::uint8_t>(which + 1);
    };
    if (mn == "setp") {
      in.op = K::kSetp;
      take_cmp();
      take_bool();
      in.type2 = one_type();
      in.type = Type::kPred;
      if (in.type2 == Type::kF16x2 || in.type2 == Type::kPred || type_bytes(in.type2) == 1)
        unsupported("type ." + std::string(to_string(in.type2)));
      if (md.ftz) in.flags |= kFtz;
      finish();
      if (ops.size() != (in.bool_op ? 4u : 3u)) need(in.bool_op ? 4 : 3);
      if (ops[0].kind == RawOperand::Kind::kPair) {
        in.dst[0] = dreg(ops[0].elements[0]);
        in.dst[1] = dreg(ops[0].elements[1]);
        in.ndst = 2;
      } else {
        in.dst[0] = dreg(ops[0]);
        in.ndst = 1;
      }
      in.src[0] = src(ops[1], in.type2);
      in.src[1] = src(ops[2], in.type2);
      in.nsrc = 2;
      if (in.bool_op) {
        in.src[2] = src(ops[3], Type::kPred);
        in.nsrc = 3;
      }
      return in;
    }
    if (mn == "set") {
      in.op = K::kSet;
      take_cmp();
      take_bool();
      if (md.types.size() != 2) unsupported();
      in.type = md.types[0];
      in.type2 = md.types[1];
      if (md.ftz) in.flags |= kFtz;
      finish();
      need(in.bool_op ? 4 : 3);
      in.dst[0] = dreg(ops[0]);
      in.ndst = 1;
      in.src[0] = src(ops[1], in.type2);
      in.src[1] = src(ops[2], in.type2);
      in.nsrc = 2;
      if (in.bool_op) {
        in.src[2] = src(ops[3], Type::kPred);
        in.nsrc = 3;
      }
      return in;
    }
    if (mn == "slct") {
      in.op = K::kSlct;
      if (md.types.size() != 2) unsupported();
      in.type = md.types[0];
      in.type2 = md.types[1];
      if (md.ftz) in.flags |= kFtz;
      finish();
      need(4);
      in.dst[0] = dreg(ops[0]);
      in.ndst = 1;
      in.src[0] = src(ops[1], in.type);
      in.src[1] = src(ops[2], in.type);
      in.src[2] = src(ops[3], in.type2);
      in.nsrc = 3;
      return in;
    }
    if (mn == "cvt") {
      in.op = K::kCvt;
      if (md.types.size() != 2) unsupported("expected two types");
      in.type = md.types[0];
      in.type2 = md.types[1];
      in.mode = static_cast<std::uint8_t>(md.round);
      if (md.ftz) in.flags |= kFtz;
      if (md.sat) in.flags |= kSat;
      if (in.type == Type::kF16x2 || in.type2 == Type::kF16x2) unsupported();
      finish();
      dst_src(2, in.type2);
      return in;
    }
    if (mn == "cvta") {
      in.op = K::kCvta;
      if (!md.space_set || md.space == Space::kParam) unsupported();
      in.space = md.space;
      if (md.to) in.flags |= kToSpace;
      in.type = one_type();
      finish();
      dst_src(2, in.type);
      return in;
    }
    if (mn == "mov") {
      in.type = one_type();
      finish();
      need(2);
      if (ops[0].kind == RawOperand::Kind::kVector) {  // mov.b64 {a, b}, x: unpack
        in.op = K::kUnpack;
        if (ops[0].elements.size() > 4) unsupported();
        for (std::size_t i = 0; i < ops[0].elements.size(); ++i)
          in.dst[i] = dreg(ops[0].elements[i]);
        in.ndst = static_cast<std::uint8_t>(ops[0].elements.size());
        in.src[0] = src(ops[1], in.type);
        in.nsrc = 1;
        return in;
      }
      in.dst[0] = dreg(ops[0]);
      in.ndst = 1;
      if (ops[1].kind == RawOperand::Kind::kVector) {  // mov.b64 x, {a, b}: pack
        in.op = K::kPack;
        if (ops[1].elements.size() > 4) unsupported();
        const unsigned part = type_bytes(in.type) / static_cast<unsigned>(ops[1].elements.size());
        const Type pt = part == 1 ? Type::kB8 : part == 2 ? Type::kB16 : part == 4 ? Type::kB32 : Type::kB64;
        for (std::size_t i = 0; i < ops[1].elements.size(); ++i)
          in.src[i] = src(ops[1].elements[i], pt);
        in.nsrc = static_cast<std::uint8_t>(ops[1].elements.size());
        return in;
      }
      in.op = K::kMov;
      in.src[0] = src(ops[1], in.type);
      in.nsrc = 1;
      if (in.src[0].kind == Operand::Kind::kSpecial) {
        const auto sp = static_cast<Special>(in.src[0].sym);
        if (sp == Special::kClock || sp == Special::kClock64 || sp == Special::kGlobaltimer)
          in.op = K::kMovClock;
      }
      return in;
    }
    if (mn == "ld" || mn == "ldu" || mn == "st") {
      const bool store = mn == "st";
      in.op = store ? K::kSt : K::kLd;
      in.space = md.space;
      in.vec = md.vec;
      in.type = one_type();
      if (in.type == Type::kPred || in.type == Type::kF16x2) unsupported();
      finish();
      need(2);
      const RawOperand& data = store ? ops[1] : ops[0];
      in.addr = address(store ? ops[0] : ops[1]);
      std::vector<const RawOperand*> elems;
      if (data.kind == RawOperand::Kind::kVector) {
        for (const RawOperand& e : data.elements)
          elems.push_back(&e);
      } else {
        elems.push_back(&data);
      }
      if (elems.size() != in.vec)
        fail_at(data.line, data.column,
                "expected " + std::to_string(in.vec) + " values for ." +
                    (in.vec == 1 ? std::string("scalar") : "v" + std::to_string(in.vec)));
      for (std::size_t i = 0; i < elems.size(); ++i) {
        if (store)
          in.src[i] = src(*elems[i], in.type);
        else
          in.dst[i] = dreg(*elems[i]);
      }
      (store ? in.nsrc : in.ndst) = in.vec;
      return in;
    }
    if (mn == "atom" || mn == "red") {
      in.op = mn == "atom" ? K::kAtom : K::kRed;
      in.space = md.space;
      if (md.space_set && md.space != Space::kGlobal && md.space != Space::kShared) unsupported();
      int which = 0;
      if (!take_one_of({"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"}, which))
        unsupported("expected an operation");
      in.mode = static_cast<std::uint8_t>(which);
      in.type = one_type();
      const Type t = in.type;
      const bool ok = t == Type::kU32 || t == Type::kS32 || t == Type::kU64 || t == Type::kS64 ||
                      t == Type::kB32 || t == Type::kB64 || t == Type::kF32 || t == Type::kF64;
      if (!ok || md.vec != 1) unsupported();
      finish();
      // atom's destination, then the address and one value (two for cas); red has no destination.
      const std::size_t first = in.op == K::kAtom ? 1 : 0;
      const std::size_t values = static_cast<AtomOp>(in.mode) == AtomOp::kCas ? 2 : 1;
      need(first + 1 + values);
      if (in.op == K::kAtom) {
        in.dst[0] = dreg(ops[0]);
        in.ndst = 1;
      }
      in.addr = address(ops[first]);
      for (std::size_t i = 0; i < values; ++i)
        in.src[i] = src(ops[first + 1 + i], t);
      in.nsrc = static_cast<std::uint8_t>(values);
      return in;
    }
    if (mn == "bar" || mn == "barrier") {
      if (parts.size() >= 2 && parts[1] == "warp") {
        in.op = K::kWarpSync;
        md.rest.erase(std::find(md.rest.begin(), md.rest.end(), "warp"));
        finish();
        need(1);
        in.src[0] = src(ops[0], Type::kB32);
        in.nsrc = 1;
        return in;
      }
      in.op = K::kBar;
      if (std::find(parts.begin(), parts.end(), "sync") == parts.end() && !(mn == "bar" && parts.size() == 1))
        unsupported();
      finish();
      if (ops.size() != 1) unsupported("barrier with a thread count");
      if (ops[0].kind != RawOperand::Kind::kNumber || ops[0].text != "0") unsupported("barrier other than 0");
      return in;
    }
    if (mn == "membar" || mn == "fence") {
      in.op = K::kMembar;
      take("gl");
      take("sc");
      take("proxy");
      finish();
      need(0);
      return in;
    }
    if (mn == "shfl") {
      in.op = K::kShfl;
      if (std::find(parts.begin(), parts.end(), "sync") == parts.end()) unsupported("shfl without .sync");
      int which = 0;
      if (!take_one_of({"up", "down", "bfly", "idx"}, which)) unsupported();
      in.mode = static_cast<std::uint8_t>(which);
      in.type = one_type();
      finish();
      need(5);
      if (ops[0].kind == RawOperand::Kind::kPair) {
        in.dst[0] = dreg(ops[0].elements[0]);
        in.dst[1] = dreg(ops[0].elements[1]);
        in.ndst = 2;
      } else {
        in.dst[0] = dreg(ops[0]);
        in.ndst = 1;
      }
      in.src[0] = src(ops[1], Type::kB32);
      in.src[1] = src(ops[2], Type::kU32);
      in.src[2] = src(ops[3], Type::kU32);
      in.src[3] = src(ops[4], Type::kB32);
      in.nsrc = 4;
      return in;
    }
    if (mn == "vote") {
      in.op = K::kVote;
      if (std::find(parts.begin(), parts.end(), "sync") == parts.end()) unsupported("vote without .sync");
      int which = 0;
      if (!take_one_of({"all", "any", "uni", "ballot"}, which)) unsupported();
      in.mode = static_cast<std::uint8_t>(which);
      in.type = one_type();
      finish();
      need(3);
      in.dst[0] = dreg(ops[0]);
      in.ndst = 1;
      in.src[0] = src(ops[1], Type::kPred);
      in.src[1] = src(ops[2], Type::kB32);
      in.nsrc = 2;
      return in;
    }
    if (mn == "activemask") {
      in.op = K::kActivemask;
      in.type = one_type();
      finish();
      need(1);
      in.dst[0] = dreg(ops[0]);
      in.ndst = 1;
      return in;
    }
    if (mn == "bra") {
      in.op = K::kBra;
      if (md.uni) in.flags |= kUni;
      finish();
      if (!md.types.empty()) unsupported();
      need(1);
      if (ops[0].kind != RawOperand::Kind::kLabel)
        fail_at(ops[0].line, ops[0].column, "unsupported branch target '" + std::string(ops[0].text) + "'");
      add_label_fixup(ops[0].text, ops[0].line, ops[0].column);
      return in;
    }
    if (mn == "ret" || mn == "exit" || mn == "trap") {
      in.op = mn == "ret" ? K::kRet : mn == "exit" ? K::kExit : K::kTrap;
      finish();
      if (!md.types.empty()) unsupported();
      need(0);
      return in;
    }
    if (mn == "nop" || mn == "pmevent") {
      finish();
      return in;
    }
    unsupported();
    return in;
  }

 private:
  std::uint32_t intern_opcode(std::string_view text) {
    auto it = opcode_index_.find(std::string(text));
    if (it != opcode_index_.end()) return it->second;
    m_.opcodes.emplace_back(text);
    const auto i = static_cast<std::uint32_t>(m_.opcodes.size() - 1);
    opcode_index_.emplace(std::string(text), i);
    return i;
  }

  void resolve_labels(Function& f) {
    for (const Fixup& x : fixups_) {
      auto it = labels_.find(x.label);
      if (it == labels_.end()) fail_at(x.line, x.column, "unknown label '" + x.label + "'");
      f.code[x.instr].target = it->second;
    }
    fixups_.clear();
    labels_.clear();
  }

  // ---- scopes ----
  const Binding* lookup(std::string_view name) const {
    auto it = names_.find(std::string(name));
    if (it != names_.end()) return &it->second;
    auto g = globals_.find(std::string(name));
    if (g != globals_.end() && current_) {
      // A module-level name used in a function: a symbol of that function (made on first use).
      auto& cache = const_cast<Parser*>(this)->global_cache_;
      auto c = cache.find(std::string(name));
      if (c != cache.end()) return &c->second;
      const std::uint32_t s = const_cast<Parser*>(this)->add_symbol(g->second);
      return &cache.emplace(std::string(name), Binding{false, s}).first->second;
    }
    return nullptr;
  }
  void bind(const std::string& name, std::uint32_t symbol) { bind_binding(name, Binding{false, symbol}); }
  void bind_binding(const std::string& name, Binding b) {
    auto it = names_.find(name);
    undo_.push_back({name, it == names_.end() ? OptBinding{false, Binding{}} : OptBinding{true, it->second}});
    names_[name] = b;
  }
  void bind_global(const std::string& name, Symbol s) { globals_[name] = s; }
  struct OptBinding {
    bool present;
    Binding value;
  };
  void unbind_last() {
    auto& u = undo_.back();
    if (u.second.present)
      names_[u.first] = u.second.value;
    else
      names_.erase(u.first);
    undo_.pop_back();
  }
  void unbind_to(std::size_t mark) {
    while (undo_.size() > mark)
      unbind_last();
  }

  struct Fixup {
    std::string label;
    std::uint32_t instr, line, column;
  };

  std::string file_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  Module& m_;
  Function* current_ = nullptr;
  std::unordered_map<std::string, Binding> names_;
  std::unordered_map<std::string, Symbol> globals_;
  std::unordered_map<std::string, Binding> global_cache_;
  std::vector<std::pair<std::string, OptBinding>> undo_;
  std::vector<std::size_t> scope_marks_;
  std::unordered_map<std::string, std::uint32_t> labels_;
  std::vector<Fixup> fixups_;
  std::unordered_map<std::string, std::uint32_t> opcode_index_;
};

}  // namespace

}  // namespace numagpu::ptx

namespace numagpu::ptx {

std::shared_ptr<const Module> parse_module(std::string_view text, const std::string& file) {
  auto m = std::make_shared<Module>();
  m->file = file;
  Parser(text, file, *m).parse();
  return m;
}

}  // namespace numagpu::ptx
