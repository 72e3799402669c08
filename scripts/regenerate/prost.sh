#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/prost/generated/{iex,records}_prost.rs
# from schemas/iex/iex.proto and schemas/records/records.proto, with the pinned
# Protocol Buffers toolchain, all from crates.io (scripts/pinned-tools.sh's
# need_prost_gen):
#   - protox (a pure-Rust protobuf compiler: no protoc needed),
#   - prost-build, matching the `prost` runtime crate,
# driven by scripts/regenerate/prost-gen (its Cargo.lock pins the rest).
# Idempotent: running it twice gives the same file. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out_dir="$repo/crates/shootout/src/format/prost/generated"
prost_gen=$(need_prost_gen)

# generate WORKLOAD STEM PACKAGE: schemas/WORKLOAD/STEM.proto -> format/prost/generated/STEM_prost.rs
generate() {
    local stem="$2"
    local out="$out_dir/${stem}_prost.rs"
    "$prost_gen" "$repo/schemas/$1" "$stem.proto" "$tmp"
    write_generated "$out" "$tmp/$3.rs" "schemas/$1/$stem.proto" "protox $PROTOX_VERSION + prost-build $PROST_VERSION"
    echo "prost.sh: wrote ${out#"$repo"/}"
}

generate iex iex shootout.iex
generate records records shootout.records
