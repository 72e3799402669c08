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
    # Warning 200: bebopc recommends that an enum's 0 be "Unknown"; Side's 0 is
    # Buy, as in the other schemas.
    (cd "$repo/schemas/$1" && "$bebopc" -i "$stem.bop" build -g "rust:$tmp/${stem}_bebop.rs" --no-warn 200) >&2 ||
        die "bebopc failed on schemas/$1/$stem.bop"
    # Two lines of bebopc 3.2.3's output are changed, no more:
    # - It binds a union's fields as `field: ref _field` in a match on `&self`,
    #   which Rust 2024 (this workspace's edition) rejects: `ref` is not allowed
    #   where the pattern already binds by reference. Dropping that `ref` is
    #   what the 2024 rules ask for and binds the same way.
    # - Where a union or message did not end at its declared length, it asserts
    #   `debug_assert!(i > len)` (it read past it) before returning CorruptFrame,
    #   but a corrupt length or an early end byte gives i < len: in a debug
    #   build the assertion turns that error into a panic. Without it, debug
    #   builds return the error as release builds do.
    sed -E -e 's/^( +[a-z0-9_]+: )ref (_[a-z0-9_]+,)$/\1\2/' -e '/^ *debug_assert!\(i > len\);$/d' \
        "$tmp/${stem}_bebop.rs" >"$tmp/${stem}_bebop.fixed.rs"
    write_generated "$out" "$tmp/${stem}_bebop.fixed.rs" "schemas/$1/$stem.bop" "bebopc $BEBOPC_VERSION"
    echo "bebop: wrote ${out#"$repo"/} with bebopc $BEBOPC_VERSION" >&2
}

generate iex iex
generate records records
