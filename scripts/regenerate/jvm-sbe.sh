#!/usr/bin/env bash
# Regenerates the JVM runner's SBE codecs (runners/jvm/src/main/java/shootout/generated/sbe/)
# from iex-sbe.xml with the same sbe-tool as sbe.sh and go-sbe.sh (pinned in
# scripts/pinned-tools.sh), Java target (SBE's reference implementation; the
# generated code needs Agrona, pinned in runners/jvm/pom.xml). Needs java (17+)
# and mvn.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
require_pom_pin sbe "$SBE_VERSION" sbe-all
schema_rel=schemas/iex/iex-sbe.xml
out=$repo/runners/jvm/src/main/java/shootout/generated/sbe
jar=$(need_sbe_jar)
run_sbe_tool "$jar" Java "$tmp/out" "$schema_rel" -Dsbe.target.namespace=shootout.generated.sbe -Dsbe.java.generate.interfaces=false
rm -rf "$out"
for f in "$tmp/out/shootout/generated/sbe"/*.java; do
    write_generated "$out/$(basename "$f")" "$f" "$schema_rel" "sbe-tool $SBE_VERSION (Java target)"
done
echo "jvm-sbe: wrote ${out#"$repo"/}" >&2
