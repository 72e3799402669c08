#!/usr/bin/env bash
# Regenerates the JVM runner's Thrift classes
# (runners/jvm/src/main/java/shootout/generated/thrift/) from records.thrift
# and iex.thrift with the Thrift compiler (pinned in scripts/pinned-tools.sh),
# matching libthrift in runners/jvm/pom.xml. The schemas name no Java
# namespace: a temporary copy of each gets one.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
# Where the schemas live (schemas/<workload>/, shared by every language).
schemas=schemas
out=$repo/runners/jvm/src/main/java/shootout/generated/thrift
require_pom_pin thrift "$THRIFT_VERSION" libthrift
thrift=$(need_thrift)
rm -rf "$out"
mkdir -p "$tmp/java"
for pair in "records/records.thrift records" "iex/iex.thrift iex"; do
    set -- $pair
    { echo "namespace java shootout.generated.thrift.$2"; cat "$repo/$schemas/$1"; } >"$tmp/$(basename "$1")"
    "$thrift" --gen java:generated_annotations=suppress -out "$tmp/java" "$tmp/$(basename "$1")"
done
(cd "$tmp/java" && find . -name '*.java') | while read -r f; do
    write_generated "$out/${f#./shootout/generated/thrift/}" "$tmp/java/$f" "$schemas/{records/records,iex/iex}.thrift" "thrift $THRIFT_VERSION"
done
echo "jvm-thrift: wrote ${out#"$repo"/}" >&2
