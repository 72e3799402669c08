#!/usr/bin/env bash
# Regenerates crates/shootout/src/format/buffa/generated/{iex,records}_buffa.rs
# from schemas/iex/iex.proto and schemas/records/records.proto, with the pinned
# toolchain, all from crates.io (scripts/pinned-tools.sh's need_buffa_gen):
#   - protox (a pure-Rust protobuf compiler: no protoc needed),
#   - buffa-codegen, matching the `buffa` runtime crate,
# driven by scripts/regenerate/buffa-gen (its Cargo.lock pins the rest).
# Idempotent: running it twice gives the same file. The normal build never runs it.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
generator=$(need_buffa_gen)
generate_proto_rust "$generator" crates/shootout/src/format/buffa/generated buffa \
    "protox $PROTOX_VERSION + buffa-codegen $BUFFA_VERSION"
