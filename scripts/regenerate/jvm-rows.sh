#!/usr/bin/env bash
# Regenerates the JVM runner's tabular-row mappings
# (runners/jvm/src/main/java/shootout/generated/rows/): every records.proto
# message of `optional` cells (mixed, strings, longs) to and from the
# Protocol Buffers, Thrift, FlatBuffers and SBE classes of the other jvm-*
# parts, written by jvm-rows.py (Python 3, standard library) so that no
# 20-cell mapping is kept by hand.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
out=$repo/runners/jvm/src/main/java/shootout/generated/rows
command -v python3 >/dev/null || die "needs python3"
rm -rf "$out"
python3 "$repo/scripts/regenerate/jvm-rows.py" "$repo" "$out"
echo "jvm-rows: wrote ${out#"$repo"/}" >&2
