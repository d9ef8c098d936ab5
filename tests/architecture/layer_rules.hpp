// SPDX-License-Identifier: Apache-2.0
// The layer rules of layers.txt and the check of one file's includes against them. Pure
// functions of text, so that the tests can prove on small examples that a forbidden include is
// caught, before the source tree is checked with them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kerntime::architecture {

/// One entry of a layer's "may use" list.
struct Use {
  std::string layer;         ///< a layer name, or "*" for every layer
  bool public_only = false;  ///< only its public headers, not src/<layer>/
};

struct Layer {
  std::string name;  ///< the folder of src/
  std::vector<Use> uses;
  std::vector<std::string> public_headers;  ///< file names in include/kerntime/
};

/// The whole table. Layers are bottom to top; each uses only layers before it.
struct Rules {
  std::vector<Layer> layers;
  std::vector<std::string> vocabulary;  ///< public headers of plain data, for every file
  std::vector<std::string> umbrella;    ///< public headers that may include every public one

  const Layer* find_layer(std::string_view name) const;
  /// The layer that owns a public header; empty for vocabulary, umbrella and unknown headers.
  std::optional<std::string> owner_of(std::string_view public_header) const;
  bool is_vocabulary(std::string_view public_header) const;
  bool is_umbrella(std::string_view public_header) const;
};

/// Parses layers.txt. Throws std::runtime_error naming the line for anything malformed: an
/// unknown directive, a layer used before it is listed (a cycle or an upward edge), a public
/// header of an unknown layer or listed twice.
Rules parse_rules(std::string_view text);

/// One kerntime include of a file: `#include <kerntime/x.hpp>` (public, path "x.hpp") or
/// `#include "layer/..."` (private, path "layer/...").
struct Include {
  int line = 0;
  bool is_public = false;
  std::string path;
};

/// Every kerntime include in `source`. System and third-party includes (<vector>, <fmt/...>,
/// "cupti.h") are not kerntime's and are left out.
std::vector<Include> find_includes(std::string_view source);

/// The file being checked: either a source of a layer (layer set, public_header empty) or a
/// public header (public_header set to its file name, layer set to its owner or empty).
struct CheckedFile {
  std::string path;           ///< for messages, e.g. "src/cli/info_command.cpp"
  std::string layer;          ///< the layer it belongs to
  std::string public_header;  ///< its name in include/kerntime/ when it is one
};

/// One message per include that the rules forbid, "path:line: what and why"; empty when the
/// file follows the rules.
std::vector<std::string> check_includes(const Rules& rules, const CheckedFile& file,
                                        const std::vector<Include>& includes);

}  // namespace kerntime::architecture
