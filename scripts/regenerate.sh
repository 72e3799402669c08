#!/usr/bin/env bash
# Regenerates every committed generated-code file from the schemas in
# crates/shootout/src/workload/*/schema/, with pinned compiler versions: the
# Rust crates' code, the Go runner's (the go-* parts, into runners/go/) and the
# JVM runner's (the jvm-* parts, into runners/jvm/src/main/java/shootout/generated/).
# Each part lives in scripts/regenerate/<format>.sh and checks (or installs)
# its own compiler; run one part alone with `scripts/regenerate.sh capnp`.
# A normal build needs none of this: the generated code is committed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
parts=("$@")
if [ ${#parts[@]} -eq 0 ]; then
    for script in "$here"/regenerate/*.sh; do
        parts+=("$(basename "$script" .sh)")
    done
fi
for part in "${parts[@]}"; do
    script="$here/regenerate/$part.sh"
    [ -f "$script" ] || { echo "regenerate.sh: no part named '$part' (see scripts/regenerate/)" >&2; exit 2; }
    echo "== $part" >&2
    bash "$script"
done
git -C "$here/.." status --short -- crates runners/go/generated runners/go/formats/msgp runners/jvm/src/main/java/shootout/generated | sed 's/^/changed: /' >&2 || true
