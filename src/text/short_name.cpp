// SPDX-License-Identifier: Apache-2.0
// A hand-written scanner rather than regular expressions: names run to thousands of characters
// and nest brackets dozens deep, which backtracking patterns handle slowly or not at all.
#include "text/short_name.hpp"

#include <algorithm>
#include <utility>

namespace kerntime::text {
namespace {

constexpr std::size_t kNone = std::string_view::npos;
constexpr std::string_view kEllipsis = "\u2026";
constexpr std::string_view kAnonymous = "(anonymous namespace)";
constexpr std::size_t kMaxNesting = 256;

bool is_word(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         u >= 0x80;
}

bool is_operator_char(char c) {
  return std::string_view{"+-*/%^&|~!=<>,"}.find(c) != kNone;
}

bool starts_with(std::string_view text, std::size_t at, std::string_view prefix) {
  return text.size() >= at && text.substr(at).substr(0, prefix.size()) == prefix;
}

// The end of an operator's name starting at `at` ("operator()", "operator<<", "operator new[]"),
// whose brackets are not brackets; kNone when no operator's name starts there.
std::size_t operator_end(std::string_view s, std::size_t at) {
  constexpr std::string_view kOperator = "operator";
  if (!starts_with(s, at, kOperator) || (at > 0 && is_word(s[at - 1]))) return kNone;
  std::size_t i = at + kOperator.size();
  if (i < s.size() && is_word(s[i])) return kNone;  // an identifier such as "operators"
  if (i + 1 < s.size() && s[i] == ' ' && is_word(s[i + 1])) {
    // new, delete, or a conversion to a named type.
    ++i;
    while (i < s.size() && is_word(s[i]))
      ++i;
    return starts_with(s, i, "[]") ? i + 2 : i;
  }
  if (starts_with(s, i, "()") || starts_with(s, i, "[]")) return i + 2;
  const std::size_t first = i;
  while (i < s.size() && is_operator_char(s[i]))
    ++i;
  return i > first ? i : kNone;
}

// Each bracket's partner. A '<' opens a template argument list only right after a name; one
// that no '>' closes before its enclosing bracket ends is a less-than and stays text.
struct Brackets {
  std::vector<std::size_t> close;  ///< close[i]: the partner of the opener at i, else kNone
  std::vector<bool> in_operator;   ///< i is inside an operator's name
  bool balanced = true;
};

Brackets match_brackets(std::string_view s) {
  Brackets b;
  b.close.assign(s.size(), kNone);
  b.in_operator.assign(s.size(), false);
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < s.size();) {
    if (const std::size_t end = operator_end(s, i); end != kNone) {
      std::fill(b.in_operator.begin() + static_cast<std::ptrdiff_t>(i),
                b.in_operator.begin() + static_cast<std::ptrdiff_t>(end), true);
      i = end;
      continue;
    }
    const char c = s[i];
    if (c == '(' || c == '[' || c == '{' || (c == '<' && i > 0 && is_word(s[i - 1]))) {
      // Deeper than any real name nests: refused rather than recursed into.
      if (open.size() == kMaxNesting) {
        b.balanced = false;
        return b;
      }
      open.push_back(i);
    } else if (c == '>') {
      if (!open.empty() && s[open.back()] == '<') {
        b.close[open.back()] = i;
        open.pop_back();
      }
    } else if (c == ')' || c == ']' || c == '}') {
      const char opener = c == ')' ? '(' : c == ']' ? '[' : '{';
      while (!open.empty() && s[open.back()] == '<')
        open.pop_back();
      if (open.empty() || s[open.back()] != opener) {
        b.balanced = false;
        return b;
      }
      b.close[open.back()] = i;
      open.pop_back();
    }
    ++i;
  }
  for (const std::size_t at : open) {
    if (s[at] != '<') b.balanced = false;
  }
  return b;
}

// The opener whose partner is `closer`, scanning pairs from the start.
std::size_t opener_of(const Brackets& b, std::size_t closer) {
  for (std::size_t i = 0; i < closer; ++i) {
    if (b.close[i] == closer) return i;
  }
  return kNone;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// [begin, end) of the qualified name: without a return type in front, a parameter list and
// qualifiers behind. A name that is not a function signature is kept whole.
std::pair<std::size_t, std::size_t> name_span(std::string_view s, const Brackets& b) {
  std::size_t end = s.size();
  for (bool again = true; again;) {
    again = false;
    for (const std::string_view qualifier :
         {" const", " volatile", " &&", " &", " noexcept", " "}) {
      if (ends_with(s.substr(0, end), qualifier)) {
        end -= qualifier.size();
        again = true;
      }
    }
    if (end > 0 && s[end - 1] == ']') {  // GCC's "[clone .constprop.0]"
      const std::size_t open = opener_of(b, end - 1);
      if (open != kNone && starts_with(s, open, "[clone ")) {
        end = open;
        again = true;
      }
    }
  }
  if (end == 0 || s[end - 1] != ')') return {0, s.size()};
  const std::size_t parameters = opener_of(b, end - 1);
  if (parameters == kNone || parameters == 0 || starts_with(s, parameters, kAnonymous) ||
      !(is_word(s[parameters - 1]) || s[parameters - 1] == '>' || s[parameters - 1] == ')' ||
        b.in_operator[parameters - 1])) {
    return {0, s.size()};
  }
  // The return type ends at the last space outside brackets and operator names.
  std::size_t begin = 0;
  for (std::size_t i = 0; i < parameters;) {
    if (b.close[i] != kNone) {
      i = b.close[i] + 1;
      continue;
    }
    if (s[i] == ',') return {0, s.size()};  // not one declaration
    // "operator< <int>" writes a space between an operator and its template arguments.
    if (s[i] == ' ' && !b.in_operator[i] && !(i > 0 && b.in_operator[i - 1])) begin = i + 1;
    ++i;
  }
  if (begin >= parameters) return {0, s.size()};
  return {begin, parameters};
}

// A list of one argument without brackets ("128", "float", a cutlass kernel's traits class)
// says what it is in full; eliding it would leave nothing.
bool plain_list(std::string_view s, const Brackets& b, std::size_t open) {
  const std::size_t close = b.close[open];
  if (close == open + 1) return false;
  for (std::size_t i = open + 1; i < close; ++i) {
    if (s[i] == ',' || b.close[i] != kNone) return false;
  }
  return true;
}

// Nesting depth of template argument lists in [begin, end).
int template_depth(std::string_view s, const Brackets& b, std::size_t begin, std::size_t end) {
  int deepest = 0;
  for (std::size_t i = begin; i < end;) {
    const std::size_t close = b.close[i];
    if (close == kNone) {
      ++i;
      continue;
    }
    const int inner = template_depth(s, b, i + 1, close);
    deepest = std::max(deepest, s[i] == '<' ? inner + 1 : inner);
    i = close + 1;
  }
  return deepest;
}

// [begin, end) with template lists `level` deep or deeper elided once `level` reaches `shown`,
// and, in a signature, parameter lists (after a name, a list or another parameter list) elided
// always: free text keeps its parentheses.
void render(std::string_view s, const Brackets& b, std::size_t begin, std::size_t end, int shown,
            int level, bool signature, std::string& out) {
  for (std::size_t i = begin; i < end;) {
    const std::size_t close = b.close[i];
    if (close == kNone) {
      out += s[i++];
      continue;
    }
    const char open = s[i];
    if (open == '<') {
      if (level >= shown && !plain_list(s, b, i)) {
        out += '<';
        out += kEllipsis;
        out += '>';
      } else {
        out += '<';
        render(s, b, i + 1, close, shown, level + 1, signature, out);
        out += '>';
      }
    } else if (open == '(' && starts_with(s, i, kAnonymous) && close == i + kAnonymous.size() - 1) {
      out += kAnonymous;
    } else if (signature && open == '(' && i > 0 &&
               (is_word(s[i - 1]) || s[i - 1] == '>' || s[i - 1] == ')')) {
      out += close == i + 1 ? "()" : "(" + std::string{kEllipsis} + ")";
    } else {
      out += open;
      render(s, b, i + 1, close, shown, level, signature, out);
      out += s[close];
    }
    i = close + 1;
  }
}

// The first code points of `text` that fit `width` columns with a "…" after them.
std::string cut_end(std::string_view text, std::size_t width) {
  if (width == 0) return {};
  std::size_t columns = 0;
  std::size_t i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (columns == width - 1) break;
    ++columns;
  }
  return std::string{text.substr(0, i)} + std::string{kEllipsis};
}

// The parts of a qualified name between "::" outside brackets.
std::vector<std::string_view> qualified_parts(std::string_view s, const Brackets& b) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (b.close[i] != kNone) {
      i = b.close[i] + 1;
    } else if (starts_with(s, i, "::") && !b.in_operator[i]) {
      parts.push_back(s.substr(start, i - start));
      i += 2;
      start = i;
    } else {
      ++i;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

}  // namespace

std::size_t text_columns(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string fit_name(std::string_view text, std::size_t width) {
  if (text_columns(text) <= width) return std::string{text};
  const Brackets b = match_brackets(text);
  if (b.balanced) {
    const std::vector<std::string_view> parts = qualified_parts(text, b);
    // The outer namespaces and the name, with the namespaces nearest the name left out first.
    for (std::size_t kept = parts.size() < 3 ? 0 : parts.size() - 2; kept > 0; --kept) {
      std::string candidate;
      for (std::size_t i = 0; i < kept; ++i)
        candidate += std::string{parts[i]} + "::";
      candidate += std::string{kEllipsis} + "::" + std::string{parts.back()};
      if (text_columns(candidate) <= width) return candidate;
    }
    if (parts.size() >= 2) {
      const std::string candidate = std::string{kEllipsis} + "::" + std::string{parts.back()};
      if (text_columns(candidate) <= width) return candidate;
    }
  }
  return cut_end(text, width);
}

std::string short_name(std::string_view name, std::size_t width) {
  // Most names of a benchmark's report have no brackets: nothing to elide, no scan to make.
  if (name.find_first_of("()[]{}<>") == std::string_view::npos) return fit_name(name, width);
  const Brackets b = match_brackets(name);
  if (!b.balanced) return fit_name(name, width);
  const auto [begin, end] = name_span(name, b);
  std::string out;
  for (int shown = template_depth(name, b, begin, end); shown >= 0; --shown) {
    out.clear();
    render(name, b, begin, end, shown, 0, end < name.size(), out);
    if (text_columns(out) <= width) return out;
  }
  return fit_name(out, width);
}

ShortNames::ShortNames(std::size_t count, NameAt name_at, std::size_t width, NameKind kind)
    : name_at_(std::move(name_at)) {
  // Rows whose short form differs from the name, grouped by it; rows shown in full join the
  // group their name equals. Keys view the strings in shown_, whose nodes never move.
  struct Group {
    std::vector<std::size_t> rows;
    std::unordered_map<std::string_view, std::size_t> names;  // name -> its first row
  };
  std::unordered_map<std::string_view, Group> groups;
  for (std::size_t row = 0; row < count; ++row) {
    const std::string_view name = name_at_(row);
    if (name.find_first_of("()[]{}<>") == std::string_view::npos && text_columns(name) <= width) {
      continue;  // shown as it is, without a copy
    }
    std::string shown = kind == NameKind::symbol ? short_name(name, width) : fit_name(name, width);
    if (shown == name) continue;
    const std::string& kept = shown_.emplace(row, std::move(shown)).first->second;
    Group& group = groups[kept];
    group.rows.push_back(row);
    group.names.emplace(name, row);
  }
  if (groups.empty()) return;
  for (std::size_t row = 0; row < count; ++row) {
    if (shown_.count(row) != 0) continue;
    const std::string_view name = name_at_(row);
    const auto group = groups.find(name);
    if (group == groups.end()) continue;
    group->second.rows.push_back(row);
    group->second.names.emplace(name, row);
  }
  for (const auto& [key, group] : groups) {
    if (group.names.size() < 2) continue;
    const std::string text{key};  // views a string that the numbering below replaces
    numbered_ = true;
    std::vector<std::pair<std::size_t, std::string_view>> order;  // first row, name
    for (const auto& [name, first] : group.names)
      order.emplace_back(first, name);
    std::sort(order.begin(), order.end());
    std::unordered_map<std::string_view, std::size_t> number;
    for (std::size_t i = 0; i < order.size(); ++i)
      number.emplace(order[i].second, i + 1);
    const std::string suffix_room = " #" + std::to_string(order.size());
    const std::string base =
        fit_name(text, width > suffix_room.size() ? width - suffix_room.size() : 0);
    for (const std::size_t row : group.rows) {
      shown_[row] = base + " #" + std::to_string(number.at(name_at_(row)));
    }
  }
}

std::string_view ShortNames::operator()(std::size_t row) const {
  const auto shown = shown_.find(row);
  return shown != shown_.end() ? std::string_view{shown->second} : name_at_(row);
}

}  // namespace kerntime::text
