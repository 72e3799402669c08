#!/usr/bin/env bash
# Regenerates the Go runner's Thrift code (runners/go/generated/thrift/) from
# schemas/records/records.thrift and schemas/iex/iex.thrift with the
# Thrift compiler (pinned in scripts/pinned-tools.sh), matching
# github.com/apache/thrift in runners/go/go.mod.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
schemas=$repo/schemas
out=$repo/runners/go/generated/thrift
require_go_pin github.com/apache/thrift "v$THRIFT_VERSION"
thrift=$(need_thrift)
for schema in "$schemas/records/records.thrift" "$schemas/iex/iex.thrift"; do
    "$thrift" --gen go:package_prefix=shootout/generated/thrift/,skip_remote -out "$tmp" "$schema"
done
rm -rf "$out"
(cd "$tmp" && find . -name '*.go') | while read -r f; do
    write_generated "$out/$f" "$tmp/$f" "schemas/{records/records,iex/iex}.thrift" "thrift $THRIFT_VERSION"
done
gofmt -w "$out"
echo "go-thrift: wrote ${out#"$repo"/}" >&2
