#!/usr/bin/env bash
# Regenerates crates/shootout/src/evolution/generated/user_capnp.rs from
# schemas/evolution/user.capnp (the schema-evolution matrix's Cap'n Proto
# versions), with the toolchain capnp.sh uses (pinned in scripts/pinned-tools.sh):
# the capnp schema compiler and capnpc-rust through scripts/regenerate/capnp-gen.
# capnp-gen places cross references under format::capnp::generated; the schema
# has none (no struct refers to another), so the file is correct where it is.
# Idempotent. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out="$repo/crates/shootout/src/evolution/generated/user_capnp.rs"
capnp=$(need_capnp)
capnp_gen=$(need_capnp_gen)

dir="$repo/schemas/evolution"
PATH=$(dirname "$capnp"):$PATH "$capnp_gen" "$dir" "$dir/user.capnp" "$tmp"
if grep -q 'crate::format::capnp::generated' "$tmp/user_capnp.rs"; then
    die "the generated code refers to format::capnp::generated, which it is not in"
fi
write_generated "$out" "$tmp/user_capnp.rs" schemas/evolution/user.capnp "capnp $CAPNP_VERSION + capnpc-rust $CAPNPC_VERSION"
echo "evolution-capnp.sh: wrote ${out#"$repo"/}"
