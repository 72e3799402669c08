#!/usr/bin/env bash
# Re-runs every benchmark BENCHMARKS.md records, writing each table to
# results/ (Markdown and JSON). Needs ../shared/data/iex/DEEP10.pcap.gz for the
# iex table. Takes a few minutes on 2 cores; run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=results
mkdir -p "$out"
cargo build --release --locked
shootout=target/release/shootout
run() { # name, then arguments for `shootout run`
    local name=$1
    shift
    echo "== $name: shootout run $*" >&2
    "$shootout" run "$@" --export-markdown "$out/$name.md" --export-json "$out/$name.json" --force >/dev/null
}

run deep10 --input ../shared/data/iex/DEEP10.pcap.gz
"$shootout" gen-csv --workload mixed --records 100000 --out "$out/mixed.csv" --force
run mixed --workload mixed --input "$out/mixed.csv"
for workload in strings longs user sql primitives object; do
    run "$workload" --workload "$workload"
done
cargo bench --bench ingest | tee "$out/ingest.txt"
