// SPDX-License-Identifier: Apache-2.0
// The folder the oracle reads NVBench sample files from, so that the corpus and the fuzzer
// exercise the lookup of `--jsonbin` files (docs/hardening.md, issue 25) and not only the JSON.
// Made once per process in the temporary directory and removed at exit:
//   SANDBOX/secret.bin                        the secret: two samples no input may read
//   SANDBOX/outside/0.bin                     the secret again, in a folder beside the JSON's
//   SANDBOX/json/                             the JSON's folder (ReportReadOptions)
//     nvbench_jsonbin.json-bin/0.bin, 1.bin   5 and 4 samples (the seed nvbench_jsonbin.json)
//     inside.bin   -> nvbench_jsonbin.json-bin/0.bin
//     secret.bin   -> ../secret.bin
//     out          -> ../outside
//     absolute.bin -> SANDBOX/secret.bin
//     dangling.bin -> ../no-such-file
//     zero         -> /dev/zero
//     fifo.bin     a FIFO
#pragma once

#include <string>

#include <kerntime/report.hpp>

namespace kerntime::fuzz {

/// The JSON's folder of the sandbox (made on the first call).
const std::string& nvbench_sample_folder();

/// Whether `report` holds the secret's samples (the two of them, in order, in one entry): a
/// sample file outside the JSON's folder was read.
bool holds_the_secret(const Report& report);

}  // namespace kerntime::fuzz
