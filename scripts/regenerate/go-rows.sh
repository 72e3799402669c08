#!/usr/bin/env bash
# Regenerates the Go code of the tabular workloads' rows (mixed, strings,
# longs: 20 optional cells each) from schemas/records/{mixed,strings,longs}.avsc
# with the runner's own generator (runners/go/internal/rowgen): the row types
# (runners/go/workload/rows_gen.go) and each IDL format's mapping between a row
# and its generated message, or mus's hand-written serializer of it
# (runners/go/formats/*/rows_gen.go).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo/runners/go"
written=$(go run ./internal/rowgen "$repo"/schemas/records/{mixed,strings,longs}.avsc)
echo "go-rows: wrote" $(printf 'runners/go/%s\n' $written) >&2
