#!/usr/bin/env bash
# Regenerates crates/shootout/src/evolution/generated/user_generated.rs from
# schemas/evolution/user.fbs (the schema-evolution matrix's FlatBuffers
# versions), with the flatc flatbuffers.sh uses (pinned in scripts/pinned-tools.sh).
# Idempotent. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out="$repo/crates/shootout/src/evolution/generated/user_generated.rs"
flatc=$(need_flatc)

"$flatc" --rust -o "$tmp" "$repo/schemas/evolution/user.fbs"
write_generated "$out" "$tmp/user_generated.rs" schemas/evolution/user.fbs "flatc $FLATC_VERSION"
echo "evolution-flatbuffers: wrote ${out#"$repo"/} with flatc $FLATC_VERSION" >&2
