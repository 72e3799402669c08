#!/usr/bin/env bash
# Regenerates the JVM runner's Protocol Buffers classes
# (runners/jvm/src/main/java/shootout/generated/protobuf/) from
# records.proto and iex.proto with protoc (pinned in scripts/pinned-tools.sh,
# the binary go-protobuf.sh uses), matching protobuf-java in
# runners/jvm/pom.xml. The schemas name no Java package: a temporary copy of
# each gets a java_package option.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
# Where the schemas live (schemas/<workload>/, shared by every language).
schemas=schemas
out=$repo/runners/jvm/src/main/java/shootout/generated/protobuf
require_pom_pin protobuf "$PROTOC_VERSION" protobuf-java
protoc=$(need_protoc)

rm -rf "$out"
mkdir -p "$tmp/java"
# generate SCHEMA PACKAGE
generate() {
    local schema=$1 pkg=$2 name
    name=$(basename "$schema")
    { echo "option java_package = \"shootout.generated.protobuf.$pkg\";"; cat "$repo/$schema"; } | sed '1{h;d};/^package /{p;x}' >"$tmp/$name"
    "$protoc" -I "$tmp" --java_out="$tmp/java" "$tmp/$name"
    for f in "$tmp/java/shootout/generated/protobuf/$pkg"/*.java; do
        write_generated "$out/$pkg/$(basename "$f")" "$f" "$schema" "protoc $PROTOC_VERSION"
    done
}
generate "$schemas/records/records.proto" records
generate "$schemas/iex/iex.proto" iex
echo "jvm-protobuf: wrote ${out#"$repo"/}" >&2
