// SPDX-License-Identifier: Apache-2.0
// Number formats shared by the verdict reasons and every renderer, so a change reads the same
// in a reason, a table cell and a Markdown comment.
#pragma once

#include <string>

namespace kerntime::detail {

/// A ratio as a signed relative change: 1.102 -> "+10.2%", 0.95 -> "-5.0%".
std::string format_change(double ratio);

/// A fraction as a percentage without trailing zeros: 0.05 -> "5%", 0.025 -> "2.5%".
std::string format_percent(double fraction);

/// A p-value: three decimals down to 0.001, scientific below ("4.2e-09"), "<1e-15" below that,
/// where double arithmetic no longer tells values apart.
std::string format_p(double p);

/// "p = 0.003" or "p < 1e-15", for sentences.
std::string p_clause(double p);

/// A duration in `unit` for people: time units are shown with a unit chosen by magnitude
/// (1.234 ms), anything else as "<4 significant digits> <unit>".
std::string format_amount(double value, const std::string& unit);

/// A count or rate with an SI prefix and four significant digits, for items per second and
/// custom counters: 1234567 -> "1.235M", 2.5e9 -> "2.5G", 512 -> "512", 0.25 -> "0.25".
std::string format_si(double value);

/// Nanoseconds per `unit` for the time units kerntime knows (ns, us, ms, s), else 0.
double nanoseconds_per(const std::string& unit);

}  // namespace kerntime::detail
