// SPDX-License-Identifier: Apache-2.0
// Number formats shared by the verdict reasons and every renderer, so a change reads the same
// in a reason, a table cell and a Markdown comment.
//
// Every function here is total: no input makes it show "inf", "nan" or a number of more than
// 12 significant digits. A change or ratio that does not fit says kTooLargeToCompare; an
// amount, rate or duration that is not finite says kOverflow; a finite one too large for 12
// digits is written with an exponent and 4 significant digits ("1.000e+290").
#pragma once

#include <string>

namespace kerntime::text {

/// Shown for a change or ratio that overflowed a double (a median of 1e300 ns against one of
/// 5e-324 ns) or that is 1e10 % or more.
inline constexpr const char* kTooLargeToCompare = "too large to compare";

/// Shown for an amount, rate or duration that is not finite (bytes over a denormal time).
inline constexpr const char* kOverflow = "overflow";

/// Whether a relative change (0.102 for 10.2%) is finite and under 1e10 %, so that it can be
/// shown as a percentage with one decimal.
bool change_fits(double fraction);

/// A ratio as a signed relative change: 1.102 -> "+10.2%", 0.95 -> "-5.0%";
/// kTooLargeToCompare when the change does not fit (change_fits()).
std::string format_change(double ratio);

/// The size of a relative change, without sign, one decimal: 0.102 -> "10.2%", -0.05 ->
/// "5.0%"; kTooLargeToCompare when it does not fit. For spreads and detectable changes.
std::string format_change_size(double fraction);

/// A fraction as a percentage without trailing zeros: 0.05 -> "5%", 0.025 -> "2.5%" (6
/// significant digits at most); kTooLargeToCompare when not finite.
std::string format_percent(double fraction);

/// A p-value: three decimals down to 0.001, scientific below ("4.2e-09"), "<1e-15" below that,
/// where double arithmetic no longer tells values apart; at most "1.000"; "undefined" when not
/// finite.
std::string format_p(double p);

/// "p = 0.003" or "p < 1e-15", for sentences; "p undefined" for NaN.
std::string p_clause(double p);

/// A number with `decimals` decimals ("{:.1f}"), for rates, sizes and clocks: 3909.04 -> "3909.0"
/// with one decimal. Past 12 significant digits an exponent with 4 ("1.000e+290"); kOverflow
/// when not finite.
std::string format_fixed(double value, int decimals);

/// format_fixed() of a value in percent, with a "%" after it: 79.5 -> "79.5%" with one decimal;
/// kOverflow when not finite. For shares of a whole (noise, % of peak).
std::string format_percent_value(double percent, int decimals);

/// A duration in `unit` for people: time units are shown with a unit chosen by magnitude
/// (1.234 ms), anything else as "<4 significant digits> <unit>"; kOverflow when not finite.
std::string format_amount(double value, const std::string& unit);

/// Whole nanoseconds for sentences, "400 ns"; past 12 digits format_duration() ("1.500e+289
/// s"), kOverflow when not finite.
std::string format_whole_ns(double nanoseconds);

/// A count or rate with an SI prefix and four significant digits, for items per second and
/// custom counters: 1234567 -> "1.235M", 2.5e9 -> "2.5G", 512 -> "512", 0.25 -> "0.25".
/// Past the largest prefix (E) an exponent ("1.000e+300"); kOverflow when not finite.
std::string format_si(double value);

/// The shortest text that reads back as the same double (812, 815.75, 1.25e+20), for CSV,
/// which is read by programs; empty, as a missing value, when not finite.
std::string format_exact(double value);

/// Nanoseconds per `unit` for the time units kerntime knows (ns, us, ms, s), else 0.
double nanoseconds_per(const std::string& unit);

}  // namespace kerntime::text
