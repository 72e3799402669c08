#!/usr/bin/env bash
# Regenerates the Go runner's FlatBuffers code (runners/go/generated/flatbuffers/)
# from schemas/records/records.fbs and schemas/iex/iex.fbs. runners/go/go.mod pins
# github.com/google/flatbuffers v25.12.19+incompatible, so flatc must be 25.12.19
# (pinned, and installed when missing, by scripts/pinned-tools.sh).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
schemas=$repo/schemas
out=$repo/runners/go/generated/flatbuffers
require_go_pin github.com/google/flatbuffers "v$FLATC_VERSION+incompatible"
flatc=$(need_flatc)

"$flatc" --go --go-module-name shootout/generated/flatbuffers -o "$tmp/records" "$schemas/records/records.fbs"
"$flatc" --go --go-module-name shootout/generated/flatbuffers -o "$tmp/iex" "$schemas/iex/iex.fbs"
rm -rf "$out"
mkdir -p "$out"
for dir in records iex; do
    schema=$dir/$dir.fbs
    (cd "$tmp/$dir" && find . -name '*.go') | while read -r f; do
        write_generated "$out/$f" "$tmp/$dir/$f" "schemas/$schema" "flatc $FLATC_VERSION"
    done
done
echo "go-flatbuffers: wrote ${out#"$repo"/} with flatc $FLATC_VERSION" >&2
