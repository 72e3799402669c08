#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/bebop/generated/{iex,records}_bebop.rs
# from schemas/iex/iex.bop and schemas/records/records.bop with bebopc, pinned
# in scripts/pinned-tools.sh to the version of the `bebop` runtime crate pinned
# in crates/shootout/Cargo.toml (the generated code calls the runtime's
# internals, which move between versions) and fetched from npm's bebop-tools.
# Idempotent: running it twice gives the same files. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out_dir=$repo/crates/shootout/src/format/bebop/generated
require_crate_pin bebop crates/shootout/Cargo.toml "$BEBOPC_VERSION"
bebopc=$(need_bebopc)

# generate WORKLOAD STEM: schemas/WORKLOAD/STEM.bop -> format/bebop/generated/STEM_bebop.rs
generate() {
    local stem=$2
    local out=$out_dir/${stem}_bebop.rs
    run_bebopc "$bebopc" "schemas/$1/$stem.bop" "$tmp/${stem}_bebop.rs"
    write_generated "$out" "$tmp/${stem}_bebop.rs" "schemas/$1/$stem.bop" "bebopc $BEBOPC_VERSION"
    echo "bebop: wrote ${out#"$repo"/} with bebopc $BEBOPC_VERSION" >&2
}

generate iex iex
generate records records
