#!/usr/bin/env bash
# Regenerates crates/shootout/src/evolution/generated/user_thrift.rs from
# schemas/evolution/user.thrift (the schema-evolution matrix's Thrift versions),
# with the Thrift compiler thrift.sh uses (pinned in scripts/pinned-tools.sh).
# Idempotent. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out="$repo/crates/shootout/src/evolution/generated/user_thrift.rs"
thrift=$(need_thrift)

"$thrift" --gen rs -out "$tmp" "$repo/schemas/evolution/user.thrift"
write_generated "$out" "$tmp/user.rs" schemas/evolution/user.thrift "thrift $THRIFT_VERSION"
echo "evolution-thrift.sh: wrote ${out#"$repo"/}"
