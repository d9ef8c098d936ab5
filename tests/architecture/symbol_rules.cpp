// SPDX-License-Identifier: Apache-2.0
#include "symbol_rules.hpp"

#include <cctype>
#include <regex>
#include <sstream>

namespace kerntime::architecture {
namespace {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The identifier that starts at `at` in `text`, or an empty view.
std::string_view identifier_at(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && is_identifier_char(text[end]))
    ++end;
  return text.substr(at, end - at);
}

// Whether a name that starts with "kerntime::" anywhere in `symbol` is private code.
bool names_private_code(std::string_view symbol, const SymbolRules& rules) {
  static constexpr std::string_view kPrefix = "kerntime::";
  for (std::size_t at = symbol.find(kPrefix); at != std::string_view::npos;
       at = symbol.find(kPrefix, at + 1)) {
    if (at > 0 && (is_identifier_char(symbol[at - 1]) || symbol[at - 1] == ':')) continue;
    const std::size_t first_at = at + kPrefix.size();
    const std::string first{identifier_at(symbol, first_at)};
    if (first.empty()) continue;
    if (rules.private_namespaces.count(first) > 0 || ends_with(first, "_detail")) return true;
    if (rules.public_namespaces.count(first) == 0) continue;
    if (symbol.substr(first_at + first.size(), 2) != "::") continue;
    const std::string second{identifier_at(symbol, first_at + first.size() + 2)};
    if (rules.public_identifiers.count(second) == 0) return true;
  }
  return false;
}

}  // namespace

std::set<std::string> declared_namespaces(std::string_view source) {
  static const std::regex kNamespace{R"(\bnamespace\s+([A-Za-z_][A-Za-z0-9_:]*)\s*\{)"};
  std::set<std::string> names;
  const std::string text{source};
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kNamespace);
       it != std::sregex_iterator(); ++it) {
    std::istringstream components{std::regex_replace((*it)[1].str(), std::regex{"::"}, " ")};
    for (std::string name; components >> name;) {
      if (name != "kerntime") names.insert(name);
    }
  }
  return names;
}

std::string folder_namespace(const std::string& folder) {
  return folder == "compare" ? "compare_detail" : folder;
}

std::vector<std::string> misnamed_namespaces(const std::string& folder, std::string_view source) {
  // Opened namespaces, and the closing comments clang-format writes (`}  // namespace x`).
  static const std::regex kToken{
      R"((?:^|\n)\s*namespace\s*([A-Za-z_][A-Za-z0-9_:]*)?\s*\{|\}\s*//\s*namespace)"};
  const std::string own = folder_namespace(folder);
  std::vector<std::string> misnamed;
  std::vector<std::string> open;  // "" for an anonymous namespace
  const std::string text{source};
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kToken);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[0].str().find('{') == std::string::npos) {
      if (!open.empty()) open.pop_back();
      continue;
    }
    const std::string name = (*it)[1].str();
    const bool outermost = open.empty() || (open.size() == 1 && open.front() == "kerntime");
    const bool allowed = name.empty() || name == "kerntime" || name == own ||
                         name == "kerntime::" + own ||
                         name.rfind("kerntime::" + own + "::", 0) == 0 ||
                         name == "kerntime::detail" || name == "detail";
    if (outermost && !allowed && (!open.empty() || name.rfind("kerntime", 0) == 0)) {
      misnamed.push_back(name);
    }
    open.push_back(name);
  }
  return misnamed;
}

std::set<std::string> identifiers(std::string_view source) {
  std::set<std::string> names;
  for (std::size_t at = 0; at < source.size();) {
    if (!is_identifier_char(source[at])) {
      ++at;
      continue;
    }
    const std::string_view name = identifier_at(source, at);
    names.emplace(name);
    at += name.size();
  }
  return names;
}

std::vector<std::string> private_symbols(const std::vector<std::string>& symbols,
                                         const SymbolRules& rules) {
  std::vector<std::string> found;
  for (const std::string& symbol : symbols) {
    if (names_private_code(symbol, rules)) found.push_back(symbol);
  }
  return found;
}

std::vector<std::string> parse_nm_output(std::string_view text) {
  std::vector<std::string> names;
  std::istringstream lines{std::string{text}};
  for (std::string line; std::getline(lines, line);) {
    // "<address> <type> <name>"; the name may hold spaces ("typeinfo for kerntime::Error").
    const std::size_t type = line.find(' ');
    if (type == std::string::npos) continue;
    const std::size_t name = line.find(' ', type + 1);
    if (name == std::string::npos || name + 1 >= line.size()) continue;
    names.push_back(line.substr(name + 1));
  }
  return names;
}

}  // namespace kerntime::architecture
