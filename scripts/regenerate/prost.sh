#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/prost/generated/{iex,records}_prost.rs
# from schemas/iex/iex.proto and schemas/records/records.proto, with the pinned
# Protocol Buffers toolchain, all from crates.io (scripts/pinned-tools.sh's
# need_prost_gen):
#   - protox (a pure-Rust protobuf compiler: no protoc needed),
#   - prost-build, matching the `prost` runtime crate,
# driven by scripts/regenerate/prost-gen (its Cargo.lock pins the rest).
# Idempotent: running it twice gives the same file. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
generator=$(need_prost_gen)
generate_proto_rust "$generator" crates/shootout/src/format/prost/generated prost \
    "protox $PROTOX_VERSION + prost-build $PROST_VERSION"
