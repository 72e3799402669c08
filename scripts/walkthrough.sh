#!/usr/bin/env bash
# Follows ADDING_A_FORMAT.md and ADDING_A_WORKLOAD.md to the letter in a
# throwaway copy of the repository, so the guides stay true: each step a
# guide marks with `<!-- walkthrough: … -->` is applied to the copy, then the
# commands the guide tells a contributor to run are run there, and any that
# fails (a step that no longer compiles, a test the guide forgot) fails this.
#
# Marks (an HTML comment, then the fenced block it applies):
#   <!-- walkthrough: create PATH -->          the block is a new file
#   <!-- walkthrough: after PATH "LINE" -->    the block goes after the first line equal to LINE (trimmed)
#   <!-- walkthrough: replace PATH "LINE" -->  the block replaces the first line equal to LINE (trimmed)
#   <!-- walkthrough: run -->                  the block's commands run in the copy (bash, set -e)
#
# `scripts/walkthrough.sh [GUIDE.md ...]` (default: both guides). Each guide
# gets a copy of its own, as a contributor following one guide starts from a
# clean checkout; the copies are removed afterwards, and builds reuse this
# checkout's target/ for dependencies.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
guides=("$@")
[ ${#guides[@]} -gt 0 ] || guides=(ADDING_A_FORMAT.md ADDING_A_WORKLOAD.md)
copies=()
trap 'rm -rf "${copies[@]}"' EXIT
# The Go runner's module cache and the JVM runner's Maven repository are the
# machine's, so the copy builds offline when the checkout has built once.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# The guides' go commands run with the Go runner's toolchain.
source "$repo/scripts/go-toolchain.sh"
for guide in "${guides[@]}"; do
    echo "walkthrough: $guide" >&2
    copy="$(mktemp -d)"
    copies+=("$copy")
    (cd "$repo" && git ls-files -z | xargs -0 cp --parents -t "$copy")
    # A git checkout, as the contributor's is: scripts/regenerate.sh --check
    # copies what git lists, and git status shows what the steps changed.
    git -C "$copy" init -q
    git -C "$copy" add -A
    git -C "$copy" -c user.name=walkthrough -c user.email=walkthrough@localhost -c commit.gpgsign=false \
        commit -q -m "the checkout the guide starts from"
    python3 - "$repo/$guide" "$copy" "$copy/.git/walkthrough-run.sh" <<'PY'
import re, sys, pathlib
guide, root, script = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
lines = guide.read_text().split("\n")
mark = re.compile(r'^<!-- walkthrough: (create|after|replace|run)(?: (\S+))?(?: "(.*)")? -->$')
commands = []
steps = 0
i = 0
while i < len(lines):
    m = mark.match(lines[i].strip())
    i += 1
    if not m:
        continue
    action, path, anchor = m.groups()
    while not lines[i].lstrip().startswith("```"):
        i += 1
    fence = lines[i].lstrip()[:3]
    indent = len(lines[i]) - len(lines[i].lstrip())
    i += 1
    block = []
    while not lines[i].lstrip().startswith(fence):
        block.append(lines[i][indent:])
        i += 1
    i += 1
    text = "\n".join(block) + "\n"
    where = f"{guide.name}:{i}"
    if action == "run":
        commands.append(text)
        continue
    target = root / path
    steps += 1
    if action == "create":
        if target.exists():
            sys.exit(f"{where}: create {path}: the file exists already")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    else:
        if not target.exists():
            sys.exit(f"{where}: {action} {path}: no such file")
        content = target.read_text().split("\n")
        at = next((n for n, line in enumerate(content) if line.strip() == anchor), None)
        if at is None:
            sys.exit(f'{where}: {action} {path}: no line "{anchor}"')
        if action == "after":
            content[at + 1:at + 1] = block
        else:
            content[at:at + 1] = block
        target.write_text("\n".join(content))
if not steps or not commands:
    sys.exit(f"{guide.name}: no walkthrough steps or no commands to run")
# Each traced command shows the seconds since the guide's commands began.
script.write_text("PS4='+ [${SECONDS} s] '\nset -euxo pipefail\n" + "\n".join(commands))
print(f"walkthrough: {guide.name}: {steps} edits applied", file=sys.stderr)
PY
    (cd "$copy" && bash .git/walkthrough-run.sh)
done
echo "walkthrough: every guide followed; its format and workload built and passed their tests" >&2
