// SPDX-License-Identifier: Apache-2.0
// The one JSON string policy of every JSON kerntime writes (reports, comparisons, trace tables,
// Chrome traces): strings are escaped as nlohmann::json escapes them, and bytes that are not
// UTF-8 become U+FFFD, so a kernel name with stray bytes never makes invalid JSON or an error.
#pragma once

#include <string>
#include <string_view>

namespace kerntime::io {

/// `text` with every ill-formed UTF-8 sequence (each maximal subpart, as Unicode recommends)
/// replaced by U+FFFD; valid text is returned unchanged.
std::string valid_utf8(std::string_view text);

/// Appends `text` as a quoted JSON string: `"` `\` and control characters escaped (\b \f \n \r
/// \t, others as \u00xx), other characters as UTF-8, ill-formed UTF-8 replaced by U+FFFD.
void append_json_string(std::string& out, std::string_view text);

/// `text` as a quoted JSON string (see append_json_string).
std::string json_string(std::string_view text);

/// `text`, a JSON value pretty-printed at the top level with an indent of 2, as it reads nested
/// `levels` deep in a document of that layout. Lets a large document be written value by value
/// (each entry of a report or a comparison) in the bytes one dump of the whole would give: JSON
/// strings hold no raw line breaks, so every line break in `text` is one of the layout's.
std::string nested_json(std::string_view text, int levels);

/// Serializes a nlohmann::json (or ordered_json) document under the policy: `indent` as in
/// dump() (-1: one line), non-ASCII kept as UTF-8, ill-formed UTF-8 replaced by U+FFFD instead
/// of thrown as nlohmann::json::type_error. A template so that this layer needs no nlohmann.
template <class Json>
std::string dump_json(const Json& json, int indent = -1) {
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace kerntime::io
