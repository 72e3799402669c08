#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/capnp/generated/{iex,records}_capnp.rs
# from schemas/iex/iex.capnp and schemas/records/records.capnp, with the pinned
# Cap'n Proto toolchain:
#   - capnp (schema compiler) 0.9.2: Debian's `capnproto` package (scripts/pinned-tools.sh);
#   - capnpc (Rust code generator) =0.27.0, driven by scripts/regenerate/capnp-gen
#     (its Cargo.lock pins the rest), matching the `capnp` 0.27 runtime crate.
# Idempotent: running it twice gives the same file. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out_dir="$repo/crates/shootout/src/format/capnp/generated"
capnp=$(need_capnp)
capnp_gen=$(need_capnp_gen)

# generate WORKLOAD STEM: schemas/WORKLOAD/STEM.capnp -> format/capnp/generated/STEM_capnp.rs
generate() {
    local dir="$repo/schemas/$1" stem="$2"
    local out="$out_dir/${stem}_capnp.rs"
    PATH=$(dirname "$capnp"):$PATH "$capnp_gen" "$dir" "$dir/$stem.capnp" "$tmp"
    write_generated "$out" "$tmp/${stem}_capnp.rs" "schemas/$1/$stem.capnp" "capnp $CAPNP_VERSION + capnpc-rust $CAPNPC_VERSION"
    echo "capnp.sh: wrote ${out#"$repo"/}"
}

generate iex iex
generate records records
