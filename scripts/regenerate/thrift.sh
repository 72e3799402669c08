#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/thrift/generated/{iex,records}_thrift.rs
# from schemas/iex/iex.thrift and schemas/records/records.thrift, with the pinned
# Apache Thrift compiler (Debian's `thrift-compiler`, through
# scripts/pinned-tools.sh). Its Rust output must match the `thrift` runtime
# crate pinned in crates/shootout/Cargo.toml.
# Idempotent: running it twice gives the same file. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out_dir="$repo/crates/shootout/src/format/thrift/generated"
require_crate_pin thrift crates/shootout/Cargo.toml "$THRIFT_VERSION"
thrift=$(need_thrift)

# generate WORKLOAD STEM: schemas/WORKLOAD/STEM.thrift -> format/thrift/generated/STEM_thrift.rs
generate() {
    local stem="$2"
    local out="$out_dir/${stem}_thrift.rs"
    "$thrift" --gen rs -out "$tmp" "$repo/schemas/$1/$stem.thrift"
    write_generated "$out" "$tmp/$stem.rs" "schemas/$1/$stem.thrift" "thrift $THRIFT_VERSION"
    echo "thrift.sh: wrote ${out#"$repo"/}"
}

generate iex iex
generate records records
