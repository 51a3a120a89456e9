// PTX text as tokens: words (identifiers, directives, opcodes with their .modifiers, registers, numbers),
// one-character punctuation and strings, each with its line and column. Comments are dropped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace numagpu::ptx {

struct Token {
  enum class Kind : std::uint8_t { kWord, kPunct, kString, kEnd };
  Kind kind = Kind::kEnd;
  std::string_view text;
  std::uint32_t line = 0, column = 0;
  bool is(char c) const { return kind == Kind::kPunct && text[0] == c; }
  bool is(std::string_view w) const { return kind == Kind::kWord && text == w; }
};

// Splits `text` into tokens (the last one kEnd). Throws ParseError at a character PTX does not use or an
// unterminated comment or string.
std::vector<Token> tokenize(std::string_view text, const std::string& file);

}  // namespace numagpu::ptx
