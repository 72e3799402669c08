#!/usr/bin/env bash
# Regenerates crates/shootout/src/evolution/generated/user_buffa.rs from
# schemas/evolution/user.proto (the schema-evolution matrix's Protocol Buffers
# versions), with the generator buffa.sh uses (pinned in scripts/pinned-tools.sh).
# Idempotent. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out="$repo/crates/shootout/src/evolution/generated/user_buffa.rs"
buffa_gen=$(need_buffa_gen)

"$buffa_gen" "$repo/schemas/evolution" user.proto "$tmp"
write_generated "$out" "$tmp/shootout.evolution.rs" schemas/evolution/user.proto "protox $PROTOX_VERSION + buffa-codegen $BUFFA_VERSION"
echo "evolution-buffa.sh: wrote ${out#"$repo"/}"
