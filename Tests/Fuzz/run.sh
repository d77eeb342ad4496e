#!/usr/bin/env bash
# Runs fuzz targets: bash Tests/Fuzz/run.sh SECONDS [TARGET...]   (targets: messages engine lsp)
# Builds them first (Tests/Fuzz/build.sh). Each keeps a growing corpus in .build/fuzz/corpus/
# TARGET, started from the seeds in Tests/Fuzz/seeds/TARGET, with the words of Tests/Fuzz/TARGET.dict
# (where there is one) for libFuzzer to splice in. A crash stops its target, leaves
# the input as .build/fuzz/crash-TARGET-*, and makes this script exit 1. The last status line
# of each run (execs, cov, ft) is printed. A crash found becomes a seed and a regression test.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(messages engine lsp)
# FUZZ_NO_BUILD=1 reuses the built targets (for runs in parallel, which must not rebuild them
# under each other).
if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  bash Tests/Fuzz/build.sh >/dev/null || { echo "fuzz: build failed" >&2; exit 1; }
fi
status=0
for target in "${targets[@]}"; do
  corpus=.build/fuzz/corpus/$target
  mkdir -p "$corpus"
  log=.build/fuzz/$target.log
  dictionary=()
  [ -f "Tests/Fuzz/$target.dict" ] && dictionary=(-dict="Tests/Fuzz/$target.dict")
  # The Swift runtime's backtracer would run inside ASan's report; libFuzzer prints the stack.
  SWIFT_BACKTRACE=enable=no .build/fuzz/fuzz-$target "$corpus" "Tests/Fuzz/seeds/$target" \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix=".build/fuzz/crash-$target-" -print_final_stats=1 ${dictionary[@]+"${dictionary[@]}"} >"$log" 2>&1
  result=$?
  summary=$(grep -E '^#[0-9]+' "$log" | tail -1)
  execs=$(grep -E 'stat::number_of_executed_units' "$log" | awk '{print $2}')
  if [ $result -eq 0 ]; then
    echo "fuzz $target: ${seconds}s, no crash — $summary (executions: ${execs:-?})"
  else
    status=1
    echo "fuzz $target: FAILED after $summary — see $log and .build/fuzz/crash-$target-*" >&2
    grep -E 'ERROR|Fatal error|runtime failure|#[0-9]+ 0x' "$log" | head -12 >&2
  fi
done
exit $status
