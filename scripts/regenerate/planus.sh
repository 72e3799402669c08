#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/planus/generated/{iex,records}_planus.rs
# from schemas/iex/iex.fbs and schemas/records/records.fbs (the schemas the
# `flatbuffers` codec uses too), with planus-cli matching the `planus` runtime
# crate pinned in crates/shootout/Cargo.toml (the generated code checks that at
# compile time); scripts/pinned-tools.sh pins it and installs it from crates.io.
# Idempotent: running it twice gives the same file. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out_dir="$repo/crates/shootout/src/format/planus/generated"
require_crate_pin planus crates/shootout/Cargo.toml "$PLANUS_VERSION"
planus=$(need_planus)

# generate WORKLOAD STEM: schemas/WORKLOAD/STEM.fbs -> format/planus/generated/STEM_planus.rs
generate() {
    local stem="$2"
    local out="$out_dir/${stem}_planus.rs"
    # Run from the schema directory so the generated doc comments name the
    # schema file, not this checkout's absolute path.
    (cd "$repo/schemas/$1" && "$planus" rust -o "$tmp/${stem}_planus.rs" "$stem.fbs")
    write_generated "$out" "$tmp/${stem}_planus.rs" "schemas/$1/$stem.fbs" "planus-cli $PLANUS_VERSION"
    echo "planus.sh: wrote ${out#"$repo"/}"
}

generate iex iex
generate records records
