#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/upb/generated/{iex,records}_upb.rs from
# schemas/iex/iex.proto and schemas/records/records.proto with protoc's own Rust
# generator (protoc pinned in scripts/pinned-tools.sh, from Maven Central), for
# Google's `protobuf` crate on its upb kernel: `--rust_out` with
# `experimental-codegen=enabled,kernel=upb`, the options the crate's own
# protobuf-codegen passes. protoc 36.x makes code for the protobuf crate 4.36.x
# (the crate's README: Rust protobuf x.y.z needs protoc y.z), which
# require_crate_pin holds crates/shootout/Cargo.toml to.
# Idempotent. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
require_crate_pin protobuf crates/shootout/Cargo.toml "$PROTOBUF_RUST_VERSION"
protoc=$(need_protoc)
out_dir=crates/shootout/src/format/upb/generated
for stem in iex records; do
    mkdir -p "$tmp/$stem"
    "$protoc" -I "$repo/schemas/$stem" --rust_out="$tmp/$stem" \
        --rust_opt=experimental-codegen=enabled,kernel=upb "$repo/schemas/$stem/$stem.proto"
    write_generated "$repo/$out_dir/${stem}_upb.rs" "$tmp/$stem/$stem.u.pb.rs" "schemas/$stem/$stem.proto" \
        "protoc $PROTOC_VERSION (--rust_out, kernel=upb)"
    echo "upb.sh: wrote $out_dir/${stem}_upb.rs"
done
