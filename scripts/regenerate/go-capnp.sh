#!/usr/bin/env bash
# Regenerates the Go runner's Cap'n Proto code (runners/go/generated/capnp/)
# from schemas/records/records.capnp and schemas/iex/iex.capnp with the
# capnp compiler (pinned in scripts/pinned-tools.sh) and capnpc-go from
# capnproto.org/go/capnp/v3 at the version runners/go/go.mod pins (go install'ed
# into the cache).
#
# capnpc-go needs $Go.package/$Go.import annotations, which the shared schemas
# do not carry (the Rust side owns them): each schema is copied to a temporary
# directory with those two annotations appended, and compiled from there. The
# file IDs, and so every type ID, stay the schema's own.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
schemas=$repo/schemas
out=$repo/runners/go/generated/capnp
capnp=$(need_capnp)
cd "$repo/runners/go"
version=$(go list -m -f '{{.Version}}' capnproto.org/go/capnp/v3)
# The module's std/ holds go.capnp: download it (a fresh module cache has no Dir).
go mod download capnproto.org/go/capnp/v3
std=$(go list -m -f '{{.Dir}}' capnproto.org/go/capnp/v3)/std
[[ -f $std/go.capnp ]] || die "no go.capnp in capnproto.org/go/capnp/v3 $version's std/ ($std)"
bin=$tools_cache/capnpc-go-$version
[[ -x $bin/capnpc-go ]] || GOBIN=$bin go install "capnproto.org/go/capnp/v3/capnpc-go@$version" ||
    die "cannot install capnpc-go $version (go install failed above)"
rm -rf "$out"
for pair in "records/records.capnp records" "iex/iex.capnp iex"; do
    read -r rel pkg <<<"$pair"
    mkdir -p "$tmp/$pkg"
    {
        cat "$schemas/$rel"
        echo 'using Go = import "/go.capnp";'
        echo "\$Go.package(\"$pkg\");"
        echo "\$Go.import(\"shootout/generated/capnp/$pkg\");"
    } >"$tmp/$pkg/$pkg.capnp"
    (cd "$tmp/$pkg" && PATH=$bin:$PATH "$capnp" compile -I "$std" -ogo "$pkg.capnp")
    write_generated "$out/$pkg/$pkg.capnp.go" "$tmp/$pkg/$pkg.capnp.go" "schemas/$rel" "capnp $CAPNP_VERSION and capnpc-go $version"
done
gofmt -w "$out"
echo "go-capnp: wrote ${out#"$repo"/}" >&2
