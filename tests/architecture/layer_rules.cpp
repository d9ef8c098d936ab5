// SPDX-License-Identifier: Apache-2.0
#include "layer_rules.hpp"

#include <algorithm>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace kerntime::architecture {
namespace {

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in{text};
  std::vector<std::string> out;
  for (std::string word; in >> word;)
    out.push_back(word);
  return out;
}

[[noreturn]] void fail(int line, const std::string& what) {
  throw std::runtime_error("layers.txt line " + std::to_string(line) + ": " + what);
}

Use parse_use(const std::string& word, const Rules& rules, const std::string& layer, int line) {
  Use use;
  use.layer = word;
  const std::string suffix = "(public)";
  if (word.size() > suffix.size() &&
      word.compare(word.size() - suffix.size(), suffix.size(), suffix) == 0) {
    use.layer = word.substr(0, word.size() - suffix.size());
    use.public_only = true;
  }
  if (use.layer == "*") {
    if (!use.public_only) fail(line, "\"*\" must be \"*(public)\": no layer may use every layer");
    return use;
  }
  if (use.layer == layer) fail(line, layer + " lists itself; a layer always uses its own headers");
  if (rules.find_layer(use.layer) == nullptr)
    fail(line, layer + " uses \"" + use.layer +
                   "\", which is not a layer listed before it (layers are bottom to top, and a "
                   "layer may use only layers below it)");
  return use;
}

std::string describe_use(const Layer& layer) {
  if (layer.uses.empty()) return layer.name + " may use no other layer";
  std::string text = layer.name + " may use";
  const char* separator = " ";
  for (const Use& use : layer.uses) {
    text += separator;
    separator = ", ";
    if (use.layer == "*")
      text += "the public headers of every layer";
    else
      text += use.layer + (use.public_only ? " (public headers only)" : "");
  }
  return text;
}

}  // namespace

const Layer* Rules::find_layer(std::string_view name) const {
  for (const Layer& layer : layers)
    if (layer.name == name) return &layer;
  return nullptr;
}

std::optional<std::string> Rules::owner_of(std::string_view public_header) const {
  for (const Layer& layer : layers)
    if (contains(layer.public_headers, public_header)) return layer.name;
  return std::nullopt;
}

bool Rules::is_vocabulary(std::string_view public_header) const {
  return contains(vocabulary, public_header);
}

bool Rules::is_umbrella(std::string_view public_header) const {
  return contains(umbrella, public_header);
}

Rules parse_rules(std::string_view text) {
  Rules rules;
  std::istringstream in{std::string{text}};
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    line = line.substr(0, line.find('#'));
    const auto colon = line.find(':');
    const std::vector<std::string> head = words(line.substr(0, colon));
    if (head.empty() && colon == std::string::npos) continue;  // blank or comment
    if (colon == std::string::npos || head.empty())
      fail(line_number,
           "expected \"layer NAME: USES\", \"public LAYER: HEADERS\", "
           "\"vocabulary: HEADERS\" or \"umbrella: HEADERS\"");
    const std::vector<std::string> items = words(line.substr(colon + 1));
    const std::string& directive = head[0];
    const auto claim_header = [&](const std::string& header) {
      if (rules.owner_of(header) || rules.is_vocabulary(header) || rules.is_umbrella(header))
        fail(line_number, header + " is listed twice");
    };
    if (directive == "layer" && head.size() == 2) {
      if (rules.find_layer(head[1]) != nullptr) fail(line_number, head[1] + " is listed twice");
      Layer layer;
      layer.name = head[1];
      for (const std::string& item : items)
        layer.uses.push_back(parse_use(item, rules, layer.name, line_number));
      rules.layers.push_back(std::move(layer));
    } else if (directive == "public" && head.size() == 2) {
      auto owner = std::find_if(rules.layers.begin(), rules.layers.end(),
                                [&](const Layer& layer) { return layer.name == head[1]; });
      if (owner == rules.layers.end())
        fail(line_number, "public headers of \"" + head[1] + "\", which is not a layer");
      for (const std::string& header : items) {
        claim_header(header);
        owner->public_headers.push_back(header);
      }
    } else if ((directive == "vocabulary" || directive == "umbrella") && head.size() == 1) {
      for (const std::string& header : items) {
        claim_header(header);
        (directive == "vocabulary" ? rules.vocabulary : rules.umbrella).push_back(header);
      }
    } else {
      fail(line_number, "unknown line \"" + line + "\"");
    }
  }
  if (rules.layers.empty()) throw std::runtime_error("layers.txt lists no layer");
  return rules;
}

std::vector<Include> find_includes(std::string_view source) {
  static const std::regex include_line{R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])"};
  std::vector<Include> includes;
  std::istringstream in{std::string{source}};
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    std::smatch match;
    if (!std::regex_search(line, match, include_line)) continue;
    const bool angle = match[1] == "<";
    const std::string path = match[2];
    const std::string public_prefix = "kerntime/";
    if (angle && path.rfind(public_prefix, 0) == 0) {
      includes.push_back({line_number, true, path.substr(public_prefix.size())});
    } else if (!angle && path.find('/') != std::string::npos) {
      includes.push_back({line_number, false, path});
    }
  }
  return includes;
}

std::vector<std::string> check_includes(const Rules& rules, const CheckedFile& file,
                                        const std::vector<Include>& includes) {
  std::vector<std::string> violations;
  const Layer* layer = rules.find_layer(file.layer);
  const bool umbrella = !file.public_header.empty() && rules.is_umbrella(file.public_header);
  const bool vocabulary = !file.public_header.empty() && rules.is_vocabulary(file.public_header);
  const std::string who = umbrella                      ? "the umbrella header"
                          : vocabulary                  ? "vocabulary header " + file.public_header
                          : !file.public_header.empty() ? "public header " + file.public_header +
                                                              " (layer " + file.layer + ")"
                                                        : "layer " + file.layer;
  for (const Include& include : includes) {
    const std::string where = file.path + ":" + std::to_string(include.line) + ": ";
    const std::string shown =
        include.is_public ? "<kerntime/" + include.path + ">" : "\"" + include.path + "\"";
    const auto report = [&](const std::string& why) {
      violations.push_back(where + who + " includes " + shown + ": " + why);
    };
    if (include.is_public) {
      if (rules.is_vocabulary(include.path) || umbrella) continue;
      const std::optional<std::string> owner = rules.owner_of(include.path);
      if (!owner) {
        if (rules.is_umbrella(include.path))
          report("only users include the umbrella header; include the headers you need");
        else
          report(include.path +
                 " belongs to no layer: add it to a \"public\" line of "
                 "tests/architecture/layers.txt");
        continue;
      }
      if (vocabulary) {
        report("a vocabulary header includes only vocabulary headers");
        continue;
      }
      if (layer == nullptr || *owner == layer->name) continue;
      const bool allowed = std::any_of(layer->uses.begin(), layer->uses.end(), [&](const Use& u) {
        return u.layer == "*" || u.layer == *owner;
      });
      if (!allowed)
        report(include.path + " belongs to " + *owner + ", and " + describe_use(*layer));
      continue;
    }
    const std::string target = include.path.substr(0, include.path.find('/'));
    if (!file.public_header.empty()) {
      report("a public header is installed without src/, so it may include only public headers");
      continue;
    }
    if (rules.find_layer(target) == nullptr) {
      report("\"" + target + "\" is not a layer of tests/architecture/layers.txt");
      continue;
    }
    if (layer == nullptr || target == layer->name) continue;
    const auto use = std::find_if(layer->uses.begin(), layer->uses.end(),
                                  [&](const Use& u) { return u.layer == target; });
    if (use == layer->uses.end()) {
      const bool public_use = std::any_of(layer->uses.begin(), layer->uses.end(),
                                          [](const Use& u) { return u.layer == "*"; });
      report("a private header of " + target + ", and " + describe_use(*layer) +
             (public_use ? "; use a public header of " + target + " instead" : ""));
    } else if (use->public_only) {
      report("a private header of " + target + ", and " + layer->name +
             " may use only the public headers of " + target);
    }
  }
  return violations;
}

}  // namespace kerntime::architecture
