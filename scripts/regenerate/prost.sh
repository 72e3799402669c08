#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/prost/generated/{iex,records}_prost.rs
# from schemas/iex/iex.proto and schemas/records/records.proto, with the pinned
# Protocol Buffers toolchain, all from crates.io:
#   - protox =0.10.0 (a pure-Rust protobuf compiler: no protoc needed),
#   - prost-build =0.14.4, matching the `prost` =0.14.4 runtime crate,
# driven by scripts/regenerate/prost-gen (its Cargo.lock pins the rest).
# Idempotent: running it twice gives the same file. The normal build never runs it.
set -euo pipefail

PROST_VERSION=0.14.4
PROTOX_VERSION=0.10.0

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
gen_crate="$repo/scripts/regenerate/prost-gen"
out_dir="$repo/crates/shootout/src/format/prost/generated"

require_crate_pin prost-build scripts/regenerate/prost-gen/Cargo.toml "$PROST_VERSION"
require_crate_pin protox scripts/regenerate/prost-gen/Cargo.toml "$PROTOX_VERSION"
require_crate_pin prost crates/shootout/Cargo.toml "$PROST_VERSION"

# Built in the tools' cache, so a fresh checkout builds only the crate itself.
target="$tools_cache/target/prost-gen"
cargo build --quiet --locked --release --manifest-path "$gen_crate/Cargo.toml" --target-dir "$target"

# generate WORKLOAD STEM PACKAGE: schemas/WORKLOAD/STEM.proto -> format/prost/generated/STEM_prost.rs
generate() {
    local stem="$2"
    local out="$out_dir/${stem}_prost.rs"
    "$target/release/prost-gen" "$repo/schemas/$1" "$stem.proto" "$tmp"
    write_generated "$out" "$tmp/$3.rs" "schemas/$1/$stem.proto" "protox $PROTOX_VERSION + prost-build $PROST_VERSION"
    echo "prost.sh: wrote ${out#"$repo"/}"
}

generate iex iex shootout.iex
generate records records shootout.records
