// SPDX-License-Identifier: Apache-2.0
// Which exported symbols of a shared library belong to kerntime's private code. Pure functions
// of text, so that the tests prove on small examples that a private symbol is caught before
// the built libraries are checked with them.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kerntime::architecture {

/// What the source tree says is private and what is public.
struct SymbolRules {
  /// Namespaces under kerntime:: that src/ declares and include/kerntime/ does not ("bench",
  /// "cupti", "report", ...). Any name ending in "_detail" is private as well.
  std::set<std::string> private_namespaces;
  /// Namespaces under kerntime:: that public headers declare ("detail"): a symbol in one is
  /// public only if a public header names it.
  std::set<std::string> public_namespaces;
  /// Every identifier in include/kerntime/.
  std::set<std::string> public_identifiers;
};

/// The namespace components declared in `source` (`namespace kerntime::a::b {` gives a and b),
/// without kerntime itself. Aliases and anonymous namespaces are left out.
std::set<std::string> declared_namespaces(std::string_view source);

/// The namespace of src/<folder>'s private code: kerntime::<folder>, or kerntime::compare_detail
/// for compare/, whose name is taken by the public function kerntime::compare().
std::string folder_namespace(const std::string& folder);

/// The namespaces that `source`, a file of src/<folder>, opens at the start of a line and that
/// are not its folder's: each must be kerntime, kerntime::<folder namespace>[::...], the folder
/// namespace nested in kerntime, or kerntime::detail (the details of public headers, defined
/// beside their layer's code). Nested namespaces (indented, or inside these) are free.
std::vector<std::string> misnamed_namespaces(const std::string& folder, std::string_view source);

/// Every identifier of `source` (comments and strings included: a looser match only lets a
/// symbol pass that a public header mentions).
std::set<std::string> identifiers(std::string_view source);

/// The exported symbols of `symbols` (demangled, one a line) that name kerntime's private code:
/// kerntime::<private namespace>::..., anywhere in the symbol (a standard container of a private
/// type too), or kerntime::<public namespace>::<name> that no public header names.
std::vector<std::string> private_symbols(const std::vector<std::string>& symbols,
                                         const SymbolRules& rules);

/// The names of `nm -D --defined-only -C` output: the text after the address and the type.
std::vector<std::string> parse_nm_output(std::string_view text);

}  // namespace kerntime::architecture
