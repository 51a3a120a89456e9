#include "ptx/lexer.hpp"

#include "ptx/execute.hpp"

namespace numagpu::ptx {

namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '%' || c == '.';
}

}  // namespace

std::vector<Token> tokenize(std::string_view text, const std::string& file) {
  std::vector<Token> out;
  out.reserve(text.size() / 4);
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  auto fail = [&](std::size_t at, const std::string& what) {
    throw ParseError(file + ":" + std::to_string(line) + ":" + std::to_string(at - line_start + 1) + ": " +
                     what);
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n')
        ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const std::size_t start = i;
      i += 2;
      while (i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/')) {
        if (text[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
        ++i;
      }
      if (i + 1 >= text.size()) fail(start, "unterminated comment");
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    t.column = static_cast<std::uint32_t>(i - line_start + 1);
    if (is_word_char(c)) {
      const std::size_t start = i;
      while (i < text.size() && is_word_char(text[i]))
        ++i;
      t.kind = Token::Kind::kWord;
      t.text = text.substr(start, i - start);
    } else if (c == '"') {
      const std::size_t start = i++;
      while (i < text.size() && text[i] != '"' && text[i] != '\n')
        i += text[i] == '\\' ? 2 : 1;
      if (i >= text.size() || text[i] != '"') fail(start, "unterminated string");
      ++i;
      t.kind = Token::Kind::kString;
      t.text = text.substr(start, i - start);
    } else if (std::string_view("{}[]()<>,;:+-=@!|").find(c) != std::string_view::npos) {
      t.kind = Token::Kind::kPunct;
      t.text = text.substr(i++, 1);
    } else {
      fail(i, std::string("unexpected character '") + c + "'");
    }
    out.push_back(t);
  }
  Token end;
  end.line = line;
  end.column = static_cast<std::uint32_t>(i - line_start + 1);
  out.push_back(end);
  return out;
}

}  // namespace numagpu::ptx
