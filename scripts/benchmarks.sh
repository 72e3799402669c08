#!/usr/bin/env bash
# Re-runs every benchmark BENCHMARKS.md records, writing each table to
# results/ (Markdown and JSON), then the pages of docs/results/ from them
# (scripts/results-pages.sh: a page per run and study, and their index; it
# needs jq and chromium). Needs ../shared/data/iex/DEEP10.pcap.gz for the iex
# tables. Takes about an hour and a half on 2 cores (the 5M-packet memory
# check is a quarter of it). Before each table it waits for a quiet machine (the 1-minute load below
# half a core per core; `run` then checks the CPU itself and warns if busy) and
# gives up after two minutes rather than time anything beside other work; every table's
# Markdown ends with the conditions it ran under (date, load before and after,
# CPU steal) and shows the precision each row reached (the ±CI column).
# Only figures of one method go into BENCHMARKS.md: rerun the lot after any
# change to the harness.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=results
mkdir -p "$out"
# The published figures come from the `figures` profile (fat LTO, one codegen
# unit; Cargo.toml), not from `cargo run --release`: docs/results/build-profiles.md.
cargo build --profile figures --locked
shootout=target/figures/shootout

# quiet: returns once the 1-minute load is below half a core per core; fails after two minutes.
quiet() {
    local cores load
    cores=$(nproc)
    for _ in $(seq 24); do
        load=$(cut -d' ' -f1 /proc/loadavg)
        if awk -v load="$load" -v cores="$cores" 'BEGIN { exit !(load < 0.5 * cores) }'; then
            return 0
        fi
        echo "benchmarks.sh: load $load on $cores cores; waiting for a quiet machine" >&2
        sleep 5
    done
    echo "benchmarks.sh: the machine stayed busy (load $load on $cores cores); stop other work and rerun" >&2
    exit 1
}

run() { # name, then arguments for `shootout run`; wall time and peak RSS go to $out/$name.time
    local name=$1
    shift
    quiet
    echo "== $name: shootout run $* ($(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    /usr/bin/time -f "wall %e s, maxrss %M kB" -o "$out/$name.time" \
        "$shootout" run "$@" --export-markdown "$out/$name.md" --export-json "$out/$name.json" --force >/dev/null
}

run default
run deep10 --input ../shared/data/iex/DEEP10.pcap.gz --export-html "$out/deep10.html"
# The same command again, twice: compare should call no change, and the third
# run shows how far the host's speed moves between invocations.
run deep10-again --input ../shared/data/iex/DEEP10.pcap.gz
"$shootout" compare "$out/deep10.json" "$out/deep10-again.json" --markdown >"$out/compare-deep10.md"
"$shootout" compare "$out/deep10.json" "$out/deep10-again.json" --json >"$out/compare-deep10.json"
quiet
# Beyond speed: every language reading every other's bytes, schema evolution, hostile bytes.
"$shootout" interop --workload iex --input ../shared/data/iex/DEEP10.pcap.gz --lang all \
    --export-json "$out/interop-deep10.json" --force | tee "$out/interop-deep10.txt"
"$shootout" evolution --export-json "$out/evolution.json" --force | tee "$out/evolution.txt"
rm -rf "$out/robustness-reproducers"
"$shootout" robustness --input ../shared/data/iex/DEEP10.pcap.gz --reproducers "$out/robustness-reproducers" \
    --export-json "$out/robustness-deep10.json" | tee "$out/robustness-deep10.txt"
"$shootout" gen-csv --workload mixed --records 100000 --out "$out/mixed.csv" --force
run mixed --workload mixed --input "$out/mixed.csv"
for workload in strings longs user sql primitives object; do
    run "$workload" --workload "$workload"
done
run deep10-third --input ../shared/data/iex/DEEP10.pcap.gz
run lang-all --input ../shared/data/iex/DEEP10.pcap.gz --lang all
"$shootout" report "$out/lang-all.json" --export-html "$out/lang-all.html" --force
run jvm-mixed --workload mixed --input "$out/mixed.csv" --lang jvm
run jsonl-all --workload jsonl --lang all
run jsonl-proto-all --workload jsonl --schema spec/fixtures/events.proto --lang all
run csv-all --workload csv --lang all

# The four published studies, each as its document describes it (BENCHMARKS.md
# "The studies, reproduced"): printed tables to .md, everything to .json.
study() { # name, then arguments for `shootout study`
    local name=$1
    shift
    quiet
    echo "== study $name: shootout study $name $* ($(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    "$shootout" study "$name" "$@" --export-json "$out/study-$name.json" --force >"$out/study-$name.md"
}
study iex-2019 --input ../shared/data/iex/DEEP10.pcap.gz
study go-flatbuffers-json
study ignite-iep75
study scala-logs
cargo bench --bench ingest | tee "$out/ingest.txt"

# Peak memory must not grow with the input: every format on 1M- and 5M-packet
# captures, one process, one throughput round (memory does not depend on rounds).
for packets in 1000000 5000000; do
    capture="$out/generated-$packets.pcap"
    "$shootout" gen-capture --packets "$packets" --out "$capture" --force
    echo "== rss $packets packets: shootout run --input $capture --runs 1 --warmup 0 --throughput-rounds 1" >&2
    /usr/bin/time -v "$shootout" run --input "$capture" --runs 1 --warmup 0 --throughput-rounds 1 \
        --export-json "$out/rss-$packets.json" --force >/dev/null 2>"$out/rss-$packets.txt"
    grep -E "Maximum resident|Elapsed" "$out/rss-$packets.txt"
    rm -f "$capture"
done

# The same for JSON Lines: 199 MB and 2 GB of generated events (BENCHMARKS.md
# "A 2 GB JSON Lines file").
"$shootout" gen-jsonl --records 4800000 --out "$out/big.jsonl" --force
head -n 470000 "$out/big.jsonl" >"$out/small.jsonl"
for size in small big; do
    echo "== rss $size.jsonl: shootout run --workload jsonl --input $size.jsonl --runs 1 --warmup 0 --throughput-rounds 1" >&2
    /usr/bin/time -v "$shootout" run --workload jsonl --input "$out/$size.jsonl" --runs 1 --warmup 0 \
        --throughput-rounds 1 --export-json "$out/rss-$size-jsonl.json" --force >/dev/null 2>"$out/rss-$size-jsonl.txt"
    grep -E "Maximum resident|Elapsed" "$out/rss-$size-jsonl.txt"
done
rm -f "$out/big.jsonl" "$out/small.jsonl"

# Last: a table that fails stops the script before any page is written, so
# docs/results/ never mixes this run's pages with an older run's.
scripts/results-pages.sh "$out" "$shootout"
