# Sourced by the scripts that run the go command or gofmt (.ci/run,
# scripts/regenerate.sh for its go-* parts, scripts/walkthrough.sh): exports
# GOTOOLCHAIN as the toolchain line of runners/go/go.mod names it, so that any
# Go 1.21 or newer on PATH fetches exactly that toolchain from the module proxy
# on first use (seconds; it stays in the module cache), whatever GOTOOLCHAIN
# the machine sets (`local` would refuse the module); and puts that
# toolchain's bin/ first on PATH, so that gofmt is its gofmt too. go.mod's line
# is the one place the version is written.
go_mod="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/runners/go/go.mod"
GOTOOLCHAIN=$(sed -n 's/^toolchain //p' "$go_mod")
[ -n "$GOTOOLCHAIN" ] || { echo "go-toolchain.sh: $go_mod has no toolchain line" >&2; exit 1; }
export GOTOOLCHAIN
command -v go >/dev/null ||
    { echo "go-toolchain.sh: no go command on PATH: install Go 1.21 or newer (Debian: golang-go), which fetches $GOTOOLCHAIN by itself" >&2; exit 1; }
go_root=$(go env GOROOT) || { echo "go-toolchain.sh: cannot get $GOTOOLCHAIN (go env GOROOT failed above)" >&2; exit 1; }
export PATH="$go_root/bin:$PATH"
unset go_mod go_root
