#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The regression gate on a real GPU (docs/ci.md): the sample suite twice from one build, then
# from builds whose spin kernel is 10 % and 4 % slower (KERNTIME_SPIN_SLOWDOWN), each compared
# with the first run by `kerntime compare`. Every suite run measures each configuration in
# PROCESSES child processes (the runner's --processes, default 5 here as in the runner), so the
# comparison judges each entry at its own noise between processes. Run from the repository root
# on a GPU machine:
#
#   bash examples/benchmarks/regression_gate_demo.sh [output-directory]
#   PROCESSES=1 bash examples/benchmarks/regression_gate_demo.sh   # one process per side
#
# Expected: same build -> exit 0, no regressed or improved entry (unstable memory-bound entries
# may be inconclusive, naming their spread); 10 % slower spin -> exit 1 with every spin entry
# regressed at the default 5 % threshold, the 2 us spin included; 4 % slower -> exit 1 at
# --threshold 2% for the spin entries.
set -uo pipefail
out=${1:-build/gate-demo}
processes=${PROCESSES:-5}
mkdir -p "$out"

cmake --preset gpu >/dev/null && cmake --build --preset gpu --target sample_benchmarks kerntime_cli >/dev/null || exit 2
for slowdown in 1.10 1.04; do
  cmake -S . -B "build/gate-$slowdown" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=native -DKERNTIME_BUILD_TESTS=OFF \
    -DKERNTIME_SPIN_SLOWDOWN="$slowdown" >/dev/null &&
    cmake --build "build/gate-$slowdown" --target sample_benchmarks >/dev/null || exit 2
done

kerntime=build/gpu/src/cli/kerntime
run_suite() {
  "$1/examples/benchmarks/sample_benchmarks" --quiet --processes "$processes" --output "$2"
}
run_suite build/gpu "$out/base.json" || exit 2
run_suite build/gpu "$out/same-build.json" || exit 2
run_suite build/gate-1.10 "$out/spin-10pct.json" || exit 2
run_suite build/gate-1.04 "$out/spin-4pct.json" || exit 2

compare() {
  local name=$1
  shift
  echo "### $name: kerntime compare $*"
  "$kerntime" compare --color never "$@" --format md --output "$out/$name.md"
  echo "exit status $?"
  echo
}
compare same-build "$out/base.json" "$out/same-build.json"
compare spin-10pct "$out/base.json" "$out/spin-10pct.json"
compare spin-4pct "$out/base.json" "$out/spin-4pct.json" --threshold 2%
