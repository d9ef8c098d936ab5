// SPDX-License-Identifier: Apache-2.0
// The oracle shared by the libFuzzer harness (report_fuzzer.cpp) and the corpus replay
// (corpus_replay.cpp): what must hold for any bytes given to the report reader, and to the
// report and compare pipelines behind them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace kerntime::fuzz {

/// Separates the baseline's text from the candidate's in a compare input (ASCII record
/// separator, never valid inside JSON text outside a string).
inline constexpr char kSeparator = '\x1e';

/// An oracle that did not hold: a bug in kerntime, never a property of the input.
class OracleFailure : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// Runs `data` through the pipelines and checks the oracle; throws OracleFailure when it does
/// not hold. Without kSeparator the bytes are one report; with it, the bytes before the first
/// separator are the baseline and those after it the candidate of a comparison.
///   - every error is a kerntime::Error whose message is one line and names the source;
///   - NVBench sample files are read from the JSON's folder only (nvbench_sandbox.hpp): no
///     accepted report holds the samples of the secret beside that folder;
///   - an accepted report round-trips: read, write JSON, read again gives the same report on
///     every field the writer writes (the written JSON of both is identical);
///   - an accepted report (of any format parse_any_report() reads) written as Google Benchmark
///     JSON reads back with the same entries, samples, runs, timers, devices and warnings;
///   - every report format renders an accepted report, and Format::json is to_json();
///   - compare(r, r) succeeds and every comparison format renders it; so does the comparison
///     of an accepted baseline and candidate, or it fails with a kerntime::Error as above;
///   - merging the accepted reports (kerntime report a b) succeeds or fails likewise.
void check_input(const std::uint8_t* data, std::size_t size);

}  // namespace kerntime::fuzz
