// SPDX-License-Identifier: Apache-2.0
// How the tables and Markdown views write names: kernel names of PyTorch run to 500 and more
// characters, which no table a person reads can hold.
#pragma once

namespace kerntime {

/// How a table or Markdown view writes kernel, entry and range names. CSV, JSON, JUnit and the
/// timeline always keep the whole name.
enum class NameStyle {
  /// The qualified name without return type, parameters and the template arguments that do not
  /// fit (`at::native::vectorized_elementwise_kernel<…>`); names that then read alike are
  /// numbered " #1", " #2". A per-kernel table shows the columns that fit 120 terminal columns.
  short_form,
  full,  ///< the whole name, and every column
};

}  // namespace kerntime
