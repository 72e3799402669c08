#!/usr/bin/env bash
# Writes docs/results/ from a results directory (the results/ that
# scripts/benchmarks.sh fills): a page for each run and each study in it,
# replacing that name's older page, then the index README.md of every page
# there, hand-written ones included, each with its start and load.
# A run's page is the speed × size chart of its HTML report, pictured by
# headless Chromium, above its Markdown export (the verdict with the precision
# reached, the command, the method, the machine, the conditions, the tables):
# both made anew by `shootout report` from the run's JSON, so a results
# directory of an older binary gets today's pages. A study's page is what
# `shootout study` printed (a study's section of the report has no chart).
# Usage: scripts/results-pages.sh RESULTS_DIR [SHOOTOUT_BINARY]
# (the binary defaults to target/figures/shootout, the one benchmarks.sh builds).
set -euo pipefail
results=$(realpath "$1")
shootout=$(realpath "${2:-$(dirname "${BASH_SOURCE[0]}")/../target/figures/shootout}")
cd "$(dirname "${BASH_SOURCE[0]}")/.."
pages=docs/results
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The virtual time budget lets the page's script and Chart.js finish before the DOM is read or pictured.
chromium=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000)

shopt -s nullglob
for json in "$results"/*.json; do
    name=$(basename "$json" .json)
    case "$(jq -r .schema "$json")" in
    shootout-results/* | shootout-results-set/*)
        # The memory checks time one round of every format: their figure is the peak RSS, not a table to read.
        [[ $name == rss-* ]] && continue
        "$shootout" report "$json" --export-html "$work/$name.html" --export-markdown "$work/$name.md" >/dev/null
        # A report that did not finish drawing, or drew with a script error, is no page's picture.
        root=$("${chromium[@]}" --dump-dom "file://$work/$name.html" 2>/dev/null | grep -m1 '^<html')
        if [[ $root != *'data-rendered="yes"'* || $root == *data-errors* ]]; then
            echo "results-pages.sh: the HTML report of $json did not render cleanly: $root" >&2
            exit 1
        fi
        # report.css shows a chart's section alone when the address names its canvas.
        "${chromium[@]}" --window-size=1300,900 --screenshot="$pages/$name.png" \
            "file://$work/$name.html#chart-speed-size" 2>/dev/null
        printf '# %s\n\n![Speed against size: ns/op against bytes/record, the Pareto front named](%s.png)\n\n' \
            "$name" "$name" | cat - "$work/$name.md" >"$pages/$name.md"
        ;;
    shootout-study-result/*)
        printf '# %s\n\n' "$name" | cat - "$results/$name.md" >"$pages/$name.md"
        ;;
    esac
done

# The index: every page's title, and the start and load of its first
# `conditions:` line (the exports of runs and studies print one; a page
# written by hand states its own).
conditions='^conditions: started ([^,]*),.* load \(1 min\) ([^ ]*) before and ([^ ]*) after'
{
    cat <<'END'
# Results

The newest figures, one page each: the runs and studies of
`scripts/benchmarks.sh`, written by `scripts/results-pages.sh` from its
results files (a page's history is in git), and pages written by hand. Each
page gives its command, machine, load and precision reached.

| page | started (UTC) | load (1 min) before, after |
| --- | --- | --- |
END
    for page in "$pages"/*.md; do
        file=$(basename "$page")
        [[ $file == README.md ]] && continue
        if ! line=$(grep -m1 -E "$conditions" "$page") || ! [[ $line =~ $conditions ]]; then
            echo "results-pages.sh: $page has no line matching $conditions" >&2
            exit 1
        fi
        echo "| [$(grep -m1 '^# ' "$page" | cut -c3-)]($file) | ${BASH_REMATCH[1]} | ${BASH_REMATCH[2]}, ${BASH_REMATCH[3]} |"
    done
} >"$work/README.md"
mv "$work/README.md" "$pages/README.md"
