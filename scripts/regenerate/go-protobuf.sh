#!/usr/bin/env bash
# Regenerates the Go runner's Protocol Buffers code (runners/go/generated/protobuf/)
# from schemas/records/records.proto and schemas/iex/iex.proto, with
#   - protoc (pinned in scripts/pinned-tools.sh, from Maven Central), and
#   - protoc-gen-go v1.36.12, the version of google.golang.org/protobuf that
#     runners/go/go.mod pins (go install'ed),
# both cached (in scripts/pinned-tools.sh's cache). The schemas carry no
# go_package, so the Go import paths are given here (M options).
set -euo pipefail

PROTOBUF_GO_VERSION=v1.36.12

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
schemas=$repo/schemas
out=$repo/runners/go/generated/protobuf
require_go_pin google.golang.org/protobuf "$PROTOBUF_GO_VERSION"
protoc=$(need_protoc)
plugins=$tools_cache/protoc-gen-go-$PROTOBUF_GO_VERSION
if [[ $("$plugins/protoc-gen-go" --version 2>/dev/null) != "protoc-gen-go $PROTOBUF_GO_VERSION" ]]; then
    GOBIN=$plugins go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOBUF_GO_VERSION" ||
        die "cannot install protoc-gen-go $PROTOBUF_GO_VERSION (go install failed above)"
fi

# generate DIR FILE PACKAGE
generate() {
    local dir=$1 file=$2 pkg=$3
    PATH=$plugins:$PATH "$protoc" -I "$dir" --go_out="$tmp" --go_opt=paths=source_relative \
        "--go_opt=M$file=shootout/generated/protobuf/$pkg" "$dir/$file"
    write_generated "$out/$pkg/${file%.proto}.pb.go" "$tmp/${file%.proto}.pb.go" "${dir#"$repo"/}/$file" \
        "protoc $PROTOC_VERSION and protoc-gen-go $PROTOBUF_GO_VERSION"
}
rm -rf "$out"
generate "$schemas/records" records.proto records
generate "$schemas/iex" iex.proto iex
echo "go-protobuf: wrote ${out#"$repo"/}" >&2
