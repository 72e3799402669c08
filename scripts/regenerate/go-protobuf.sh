#!/usr/bin/env bash
# Regenerates the Go runner's Protocol Buffers code (runners/go/generated/protobuf/)
# from schemas/records/records.proto and schemas/iex/iex.proto, with
#   - protoc (pinned in scripts/pinned-tools.sh, from Maven Central),
#   - protoc-gen-go, the version of google.golang.org/protobuf that
#     runners/go/go.mod pins (also pinned in scripts/pinned-tools.sh): the
#     messages (*.pb.go), and
#   - protoc-gen-go-vtproto v0.6.0, the version of github.com/planetscale/vtprotobuf
#     that runners/go/go.mod pins (go install'ed): the same messages' generated
#     SizeVT, MarshalToSizedBufferVT and UnmarshalVT (*_vtproto.pb.go, the
#     features its documentation's example generates: marshal+unmarshal+size),
# all cached (in scripts/pinned-tools.sh's cache). The schemas carry no
# go_package, so the Go import paths are given here (M options).
set -euo pipefail

VTPROTOBUF_VERSION=v0.6.0

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
schemas=$repo/schemas
out=$repo/runners/go/generated/protobuf
require_go_pin github.com/planetscale/vtprotobuf "$VTPROTOBUF_VERSION"
protoc=$(need_protoc)
protoc_gen_go=$(need_protoc_gen_go)
plugins=$(dirname "$protoc_gen_go")
# protoc-gen-go-vtproto has no --version: the module version its build info records says which it is.
vtplugins=$tools_cache/protoc-gen-go-vtproto-$VTPROTOBUF_VERSION
vtproto_version() { go version -m "$vtplugins/protoc-gen-go-vtproto" 2>/dev/null | awk '$1 == "mod" { print $3 }'; }
if [[ $(vtproto_version) != "$VTPROTOBUF_VERSION" ]]; then
    echo "$part: installing protoc-gen-go-vtproto $VTPROTOBUF_VERSION into $vtplugins" >&2
    GOBIN=$vtplugins go install "github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto@$VTPROTOBUF_VERSION" ||
        die "cannot install protoc-gen-go-vtproto $VTPROTOBUF_VERSION (go install failed above)"
fi

# generate DIR FILE PACKAGE
generate() {
    local dir=$1 file=$2 pkg=$3 name=${2%.proto} import="M$2=shootout/generated/protobuf/$3"
    PATH=$plugins:$vtplugins:$PATH "$protoc" -I "$dir" \
        --go_out="$tmp" --go_opt=paths=source_relative "--go_opt=$import" \
        --go-vtproto_out="$tmp" --go-vtproto_opt=paths=source_relative "--go-vtproto_opt=$import" \
        --go-vtproto_opt=features=marshal+unmarshal+size "$dir/$file"
    write_generated "$out/$pkg/$name.pb.go" "$tmp/$name.pb.go" "${dir#"$repo"/}/$file" \
        "protoc $PROTOC_VERSION and protoc-gen-go $PROTOBUF_GO_VERSION"
    write_generated "$out/$pkg/${name}_vtproto.pb.go" "$tmp/${name}_vtproto.pb.go" "${dir#"$repo"/}/$file" \
        "protoc $PROTOC_VERSION and protoc-gen-go-vtproto $VTPROTOBUF_VERSION"
}
rm -rf "$out"
generate "$schemas/records" records.proto records
generate "$schemas/iex" iex.proto iex
echo "go-protobuf: wrote ${out#"$repo"/}" >&2
