#!/usr/bin/env bash
# Regenerates crates/shootout/src/evolution/generated/user_bebop.rs from
# schemas/evolution/user.bop (the schema-evolution matrix's Bebop versions),
# with the bebopc bebop.sh uses (pinned in scripts/pinned-tools.sh).
# Idempotent. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out="$repo/crates/shootout/src/evolution/generated/user_bebop.rs"
require_crate_pin bebop crates/shootout/Cargo.toml "$BEBOPC_VERSION"
bebopc=$(need_bebopc)

run_bebopc "$bebopc" schemas/evolution/user.bop "$tmp/user_bebop.rs"
write_generated "$out" "$tmp/user_bebop.rs" schemas/evolution/user.bop "bebopc $BEBOPC_VERSION"
echo "evolution-bebop: wrote ${out#"$repo"/} with bebopc $BEBOPC_VERSION" >&2
