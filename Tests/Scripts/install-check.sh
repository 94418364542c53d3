#!/bin/sh
# `make install` into a temporary DESTDIR, then the installed hlscheck run as on a machine without
# a Swift toolchain: it must link no libswift*.so, and it must run with the toolchain's library
# folder hidden (a private mount namespace with an empty tmpfs over it). Also checks that the
# manual pages and completion scripts were installed. Run by `make install-check` (and `make test`).
#
#   sh Tests/Scripts/install-check.sh            install, then check
#   sh Tests/Scripts/install-check.sh --installed DIR   check what is already installed under DIR/usr/local
set -eu
cd "$(dirname "$0")/../.."
MAKE=${MAKE:-make}
fail() { echo "install-check: FAIL: $*" >&2; exit 1; }

if [ "${1:-}" = --installed ]; then
    dest=${2:?usage: install-check.sh --installed DIR}
else
    dest=$(mktemp -d)
    trap 'rm -rf "$dest"' EXIT
    $MAKE --no-print-directory install DESTDIR="$dest" PREFIX=/usr/local >"$dest.log" 2>&1 \
        || { tail -n 30 "$dest.log" >&2; rm -f "$dest.log"; fail "make install DESTDIR=$dest failed"; }
    rm -f "$dest.log"
fi
prefix=$dest/usr/local
bin=$prefix/bin/hlscheck
[ -x "$bin" ] || fail "no executable at $bin"

# 1. Nothing of the Swift runtime among the libraries the binary asks the loader for.
swift_needed=$(readelf -d "$bin" | awk '/\(NEEDED\)/ && /libswift|libFoundation|libdispatch|libBlocksRuntime/ {print $NF}')
[ -z "$swift_needed" ] || fail "the installed binary needs the toolchain's libraries: $(echo $swift_needed | tr '\n' ' ')"

# 2. Its size, within the budget docs/benchmarks.md states ("Build time and binary size"): the
# stripped binary is 35 MB. Over 40 MB means something now calls into swift-corelibs-foundation
# (NSString, String(format:), DateFormatter …), which links ICU and its ~45 MB of data;
#   nm -u .build/release/*.build/*.o | grep 10Foundation | swift demangle
# names the caller.
budget_mb=40
size=$(wc -c <"$bin")
[ "$size" -le $((budget_mb * 1024 * 1024)) ] \
    || fail "the installed binary is $((size / 1024 / 1024)) MiB, over its $budget_mb MiB budget (docs/benchmarks.md, \"Build time and binary size\")"
grep -q "^## Build time and binary size" docs/benchmarks.md || fail "docs/benchmarks.md has no section \"Build time and binary size\" stating the size budget"

# 3. It runs with the toolchain's libraries out of reach. The folder the toolchain keeps its
# runtime in (swift -print-target-info: runtimeLibraryPaths, e.g. /opt/swift/usr/lib/swift/linux)
# is covered by an empty tmpfs in a private mount namespace; the check inside proves it is hidden.
runtime=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["paths"]["runtimeLibraryPaths"][0])')
[ -e "$runtime/libswiftCore.so" ] || fail "no libswiftCore.so in $runtime: cannot tell what to hide"
hidden() { # COMMAND...: runs it with $runtime hidden; prints its output
    unshare --map-root-user --mount sh -c '
        mount -t tmpfs hidden "$1" || exit 125
        [ ! -e "$1/libswiftCore.so" ] || exit 125
        shift; exec "$@"' sh "$runtime" "$@"
}
if hidden true 2>/dev/null; then
    how="with $runtime hidden"
else
    # No user namespaces here: the loader's own trace shows whether anything came from the toolchain.
    how="(no mount namespace available: checked with LD_DEBUG=files instead)"
    hidden() {
        trace=$(mktemp -d)
        status=0
        LD_DEBUG=files LD_DEBUG_OUTPUT="$trace/t" "$@" || status=$?
        if grep -h "file=$runtime/" "$trace"/t* >/dev/null 2>&1; then
            rm -rf "$trace"; echo "loaded from $runtime"; return 127
        fi
        rm -rf "$trace"; return $status
    }
fi
out=$(hidden "$bin" --version 2>&1) || fail "hlscheck --version $how: $out"
out=$(hidden "$bin" rules 2>&1) || fail "hlscheck rules $how: $out"
echo "$out" | grep -q '^audio-only-variant-missing ' || fail "hlscheck rules $how printed no catalogue: $out"
# A whole check: playlists, every segment through libavformat (loaded on first use), the text report.
out=$(hidden "$bin" Samples/compliant/master.m3u8 2>&1) || fail "hlscheck Samples/compliant/master.m3u8 $how: $out"
echo "$out" | grep -q '^1 stream checked: 0 errors' || fail "the check $how did not report: $out"

# 4. The rest of the installation: manual pages and completions.
for page in hlscheck hlscheck.check hlscheck.embed hlscheck.inspect hlscheck.artwork hlscheck.rules; do
    [ -s "$prefix/share/man/man1/$page.1" ] || fail "no manual page $page.1"
    # man/PAGE.mdoc in place of generate-manual's generic exit status, and examples.
    grep -q '^\.Sh EXAMPLES' "$prefix/share/man/man1/$page.1" || fail "$page.1 has no EXAMPLES section"
    ! grep -q '^\.Ex -std' "$prefix/share/man/man1/$page.1" || fail "$page.1 has only the generic EXIT STATUS"
    grep -q '^\.It 64' "$prefix/share/man/man1/$page.1" || fail "$page.1 does not list exit code 64"
done
bash -n "$prefix/share/bash-completion/completions/hlscheck" || fail "the bash completion script does not parse"
[ -s "$prefix/share/zsh/site-functions/_hlscheck" ] || fail "no zsh completion"
[ -s "$prefix/share/fish/vendor_completions.d/hlscheck.fish" ] || fail "no fish completion"
# zsh and fish are test dependencies: the scripts parse in them (what they complete is tested in
# Tests/hlscheckTests/ZshAndFishCompletionTests.swift).
zsh -n "$prefix/share/zsh/site-functions/_hlscheck" || fail "the zsh completion script does not parse"
fish --no-execute "$prefix/share/fish/vendor_completions.d/hlscheck.fish" || fail "the fish completion script does not parse"

echo "install-check: the installed hlscheck ($(du -k "$bin" | cut -f1) KiB) links no Swift runtime library and runs $how"
