#!/usr/bin/env bash
# Vendors Chart.js, which the HTML report (--export-html) embeds so that the
# page needs no network: the pinned release from the npm registry, its tarball
# checked against the SHA-256 recorded here. `--check` changes nothing and
# fails if the committed copy differs from the release.
set -euo pipefail
version=4.6.1
sha256=9345dacdf4bb4c5d40321f4b9aafab6fe676d37a534fc0bc2d17c4c4e29c4f00
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$repo/crates/shootout/src/export/html"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "chart.js@$version" >/dev/null)
echo "$sha256  $work/chart.js-$version.tgz" | sha256sum --check --quiet
tar -xzf "$work/chart.js-$version.tgz" -C "$work" package/dist/chart.umd.min.js package/LICENSE.md
if [ "${1:-}" = --check ]; then
    cmp "$work/package/dist/chart.umd.min.js" "$dest/chart.umd.min.js"
    cmp "$work/package/LICENSE.md" "$dest/CHART_JS_LICENSE.md"
    echo "vendor-chartjs.sh: the committed Chart.js is release $version"
else
    cp "$work/package/dist/chart.umd.min.js" "$dest/chart.umd.min.js"
    cp "$work/package/LICENSE.md" "$dest/CHART_JS_LICENSE.md"
fi
