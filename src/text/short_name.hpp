// SPDX-License-Identifier: Apache-2.0
// Kernel and entry names as people read them in a table: demangled C++ names of 500 and more
// characters cut to the qualified name, and names that then read alike told apart.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kerntime::text {

/// The widest short name where a table has no width to fit: a qualified kernel name with its
/// elided template arguments fits beside the columns of a report's or a comparison's table.
inline constexpr std::size_t kShortNameWidth = 72;

/// Terminal columns of `text`: its UTF-8 code points (kernel names are ASCII in practice).
std::size_t text_columns(std::string_view text);

/// `text` in at most `width` columns. A qualified name loses its middle namespaces first
/// ("at::…::kernel<…>"), then anything loses its end to "…", as nsys cuts names.
std::string fit_name(std::string_view text, std::size_t width);

/// The short form of a demangled name, at most `width` columns: the return type in front, the
/// parameter list and its qualifiers are left out, and template argument lists are elided to
/// "<…>" from the innermost outwards until the name fits (a list of one plain argument, such as
/// cutlass's `Kernel2<cutlass_80_tensorop_…>`, is kept). Inner parameter lists (a lambda's, an
/// enclosing function's) become "(…)". `(anonymous namespace)`, `operator()`, `operator<` and
/// lambdas are read as such. A name that is not a C++ signature (a C or Triton kernel, a
/// benchmark's name) keeps its text and is only cut to fit; so is a name whose brackets do not
/// pair up. Pure: the same name and width always give the same text.
std::string short_name(std::string_view name, std::size_t width = kShortNameWidth);

/// What a table's names are: symbols get short_name(), free text (an NVTX range's message)
/// is only cut to fit, since its brackets and parentheses are no C++ syntax.
enum class NameKind { symbol, text };

/// The names of one table's rows as that table shows them: short_name() of each, and distinct
/// names whose short forms are the same numbered " #1", " #2", ... in order of first appearance,
/// so no two different names read alike. Rows of the same name read the same. Memory grows
/// with the names that change only, so a table of a million plain names costs nothing extra.
class ShortNames {
 public:
  using NameAt = std::function<std::string_view(std::size_t)>;

  /// `name_at(i)` is row i's full name; the text it points to must outlive this object.
  ShortNames(std::size_t count, NameAt name_at, std::size_t width = kShortNameWidth,
             NameKind kind = NameKind::symbol);

  /// Row `row`'s name as shown; a view into this object or into the row's own name.
  std::string_view operator()(std::size_t row) const;

  /// Some row is shown other than in full.
  bool shortened() const { return !shown_.empty(); }
  /// Some rows were told apart by a number.
  bool numbered() const { return numbered_; }

 private:
  NameAt name_at_;
  std::unordered_map<std::size_t, std::string> shown_;  // rows not shown in full
  bool numbered_ = false;
};

}  // namespace kerntime::text
