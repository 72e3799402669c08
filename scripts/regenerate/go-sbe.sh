#!/usr/bin/env bash
# Regenerates the Go runner's SBE package (runners/go/generated/sbe/iex_sbe/)
# from schemas/iex/iex-sbe.xml with the same sbe-tool as sbe.sh (pinned in
# scripts/pinned-tools.sh), Golang target.
# Needs java (17+) and mvn. The Go output is self-contained: no Go module.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../pinned-tools.sh"
schema_rel=schemas/iex/iex-sbe.xml
out=$repo/runners/go/generated/sbe/iex_sbe
jar=$(need_sbe_jar)
run_sbe_tool "$jar" Golang "$tmp/out" "$schema_rel"
rm -rf "$out"
for f in "$tmp/out/iex-sbe"/*.go; do
    write_generated "$out/$(basename "$f")" "$f" "$schema_rel" "sbe-tool $SBE_VERSION (Golang target)"
done
gofmt -w "$out"
echo "go-sbe: wrote ${out#"$repo"/}" >&2
