#!/usr/bin/env bash
# Regenerates the JVM runner's tabular rows: for every records.proto message
# of `optional` cells (mixed, strings, longs), its record class
# (runners/jvm/src/main/java/shootout/workload/<Row>.java) and its mappings
# to and from the Protocol Buffers, Thrift, FlatBuffers and SBE classes of the
# other jvm-* parts (runners/jvm/src/main/java/shootout/generated/rows/),
# written by jvm-rows.py (Python 3, standard library) so that no 20-cell row
# or mapping is kept by hand.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
java=$repo/runners/jvm/src/main/java/shootout
out=$java/generated/rows
command -v python3 >/dev/null || die "needs python3"
rm -rf "$out"
python3 "$repo/scripts/regenerate/jvm-rows.py" "$repo" "$out" "$java/workload"
echo "jvm-rows: wrote ${out#"$repo"/} and the rows in ${java#"$repo"/}/workload" >&2
