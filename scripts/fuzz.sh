#!/usr/bin/env bash
# Coverage-guided fuzzing of shootout's own parsers with libFuzzer, on the
# stable toolchain.
#
#   scripts/fuzz.sh build            build both targets
#   scripts/fuzz.sh run [SECONDS]    fuzz each target for SECONDS (default 600),
#                                    one after the other, and print a summary
#   scripts/fuzz.sh run SECONDS capture|csv    one target only
#
# The instrumented release build of shootout takes half an hour on a busy
# 2-core machine; it is redone only when the sources change. Two targets can
# run side by side: `scripts/fuzz.sh run 600 capture & scripts/fuzz.sh run 600 csv`.
#
# Targets (fuzz/fuzz_targets/): `capture`, the whole capture reader from bytes
# (gzip or not, pcap or pcapng, Ethernet/IPv4/UDP, IEX-TP, every message type,
# through to benchmark records and the reference aggregate, as
# `shootout run --input FILE` reads a file); `csv`, the CSV reader of the
# tabular workloads (mixed, strings, longs). Both panic when an error breaks
# the promise (one line naming the file and a byte offset or line), so such an
# error counts as a crash like any panic.
#
# Why no cargo-fuzz and no nightly: cargo-fuzz only adds the compiler flags
# below and a nightly-only sanitizer (-Zsanitizer=address, not needed for code
# that is safe Rust). The coverage instrumentation libFuzzer needs
# (LLVM's SanitizerCoverage pass, via -Cpasses and -Cllvm-args) is stable
# rustc, and libfuzzer-sys builds libFuzzer itself with the system C++
# compiler. So this needs only cargo, rustc and g++ (or clang++): nothing to
# install, no RUSTC_BOOTSTRAP.
#
# The fuzz crate is outside the workspace and builds in fuzz/target: its
# instrumented artifacts would otherwise replace the normal ones.
#
# Seeds: fuzz/seeds/<target> (committed, small generated captures and CSVs).
# Inputs libFuzzer finds are kept in fuzz/corpus/<target> (not committed);
# crashes and hangs land in fuzz/artifacts/<target>: each one becomes a
# regression test in crates/shootout/tests/it/fuzz_parsers.rs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fuzz="$root/fuzz"
targets=(capture csv)

rustflags=(
    -Cpasses=sancov-module
    -Cllvm-args=-sanitizer-coverage-level=4
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters
    -Cllvm-args=-sanitizer-coverage-pc-table
    -Cllvm-args=-sanitizer-coverage-trace-compares
    --cfg fuzzing
)

# With an explicit --target, RUSTFLAGS reach only the fuzzed code, not build
# scripts and proc macros, which would not link against libFuzzer.
host=$(rustc -vV | sed -n 's/^host: //p')
bin="$fuzz/target/$host/release"

build() {
    (cd "$fuzz" && RUSTFLAGS="${rustflags[*]}" cargo build --release --locked --bins --target "$host")
}

run_target() {
    local target=$1 seconds=$2
    local corpus="$fuzz/corpus/$target" artifacts="$fuzz/artifacts/$target"
    local log="$fuzz/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    # -timeout: an input taking over 10 s is a hang; -rss_limit_mb: more
    # than 2 GiB for one input is a finding too. Fixed seed: reproducible.
    local status=0
    "$bin/$target" "$corpus" "$fuzz/seeds/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -seed=1 -print_final_stats=1 -artifact_prefix="$artifacts/" \
        >"$log" 2>&1 || status=$?
    local stats
    stats=$(grep -E '^(#[0-9]+.*(DONE|pulse|NEW|REDUCE))' "$log" | tail -1 || true)
    local runs found
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    found=$(find "$artifacts" -type f | wc -l)
    echo "$target: ${seconds}s, ${runs:-?} executions, exit $status, $found artifact(s) in ${artifacts#"$root"/}"
    echo "  last status: $stats"
    if [[ $found -gt 0 || $status -ne 0 ]]; then
        grep -E 'panicked|ERROR: libFuzzer|SUMMARY' "$log" | head -5 | sed 's/^/  /'
        return 1
    fi
}

case "${1:-}" in
    build) build ;;
    run)
        seconds=${2:-600}
        chosen=("${targets[@]}")
        [[ -n ${3:-} ]] && chosen=("$3")
        build
        failed=0
        for target in "${chosen[@]}"; do
            run_target "$target" "$seconds" || failed=1
        done
        exit $failed
        ;;
    *)
        sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
