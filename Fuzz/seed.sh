#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target from the files the project already has:
# Samples/, Tests/MediaInspectionTests/Fixtures and, when present, the third-party corpus
# (../shared/corpus or $HLSCHECK_CORPUS). Seeds go into OUT/<target>/, named after their
# content, so running this again adds nothing twice and never removes what the fuzzer found.
#
#   usage: Fuzz/seed.sh OUT [THIRD_PARTY_CORPUS]
set -euo pipefail

out=${1:?usage: Fuzz/seed.sh OUT [THIRD_PARTY_CORPUS]}
third_party=${2:-${HLSCHECK_CORPUS:-../shared/corpus}}
roots=()
for dir in Samples Tests/MediaInspectionTests/Fixtures "$third_party"; do
    [ -d "$dir" ] && roots+=("$dir")
done

max_seed=$((256 * 1024))   # larger media is cut: the parsers see the same structure sooner

# seed TARGET [PREFIX_HEX] < bytes: store stdin (after an optional prefix) under its hash.
seed() {
    local target=$1 prefix=${2:-} tmp
    mkdir -p "$out/$target"
    tmp=$(mktemp "$out/$target/.seed.XXXXXX")
    { [ -n "$prefix" ] && printf "$prefix"; head -c "$max_seed"; cat >/dev/null; } >"$tmp"
    mv "$tmp" "$out/$target/$(sha1sum "$tmp" | cut -c1-40)"
}

files() { find "${roots[@]}" -type f "$@" 2>/dev/null | LC_ALL=C sort; }

# fuzz-segment's first byte: the extension (low 3 bits, see FuzzSegment.swift), +8 = stream info.
segment_selector() {
    case $1 in
        *.ts) echo 0 ;; *.aac) echo 1 ;; *.mp3) echo 2 ;; *.ac3) echo 3 ;; *.ec3) echo 4 ;;
        *.mp4) echo 6 ;; *) echo 7 ;;
    esac
}

while IFS= read -r f; do
    seed playlist <"$f"
done < <(files -name '*.m3u8' -o -name '*.m3u')

# Attribute lists: the first byte indexes FuzzAttributeList.swift's table, the rest is the
# list as it stands after the tag's colon in real playlists (20 distinct ones per tag at most).
tags=(EXT-X-STREAM-INF EXT-X-MEDIA EXT-X-I-FRAME-STREAM-INF EXT-X-SESSION-DATA EXT-X-SESSION-KEY
      EXT-X-CONTENT-STEERING EXT-X-DEFINE EXT-X-START EXT-X-KEY EXT-X-MAP EXT-X-DATERANGE
      EXT-X-SERVER-CONTROL EXT-X-PART-INF EXT-X-PART EXT-X-SKIP EXT-X-PRELOAD-HINT EXT-X-RENDITION-REPORT)
playlists=$(files -name '*.m3u8' -o -name '*.m3u')
for i in "${!tags[@]}"; do
    # shellcheck disable=SC2086
    { [ -n "$playlists" ] && printf '%s\n' "$playlists" | tr '\n' '\0' |
        xargs -0 grep -h -a "^#${tags[$i]}:" 2>/dev/null || true; } |
        tr -d '\r' | sed "s/^#${tags[$i]}://" | LC_ALL=C sort -u | awk 'NR <= 20' |
        while IFS= read -r list; do
            printf '%s' "$list" | seed attribute-list "$(printf '\\x%02x' "$i")"
        done
done

while IFS= read -r f; do
    case $f in
        *.ts) seed transport-stream <"$f"; seed id3 <"$f" ;;
        *.aac|*.mp3|*.ac3|*.ec3) seed adts <"$f"; seed id3 <"$f" ;;
        *.m4s|*.mp4) seed iso-box '\x00\x00' <"$f" ;;
    esac
    s=$(segment_selector "$f")
    seed segment "$(printf '\\x%02x' "$s")" <"$f"
    seed segment "$(printf '\\x%02x' $((s + 8)))" <"$f"
done < <(files \( -name '*.ts' -o -name '*.aac' -o -name '*.mp3' -o -name '*.ac3' -o -name '*.ec3' -o -name '*.m4s' -o -name '*.mp4' \) -size -4M)

# fMP4 fragments with their init section: two bytes of init length, the init, the fragment
# (fuzz-iso-box), and the same after fuzz-segment's .m4s selector.
while IFS= read -r init; do
    dir=$(dirname "$init")
    for frag in "$dir"/*.m4s; do
        [ -f "$frag" ] || continue
        size=$(stat -c %s "$init")
        [ "$size" -lt 65536 ] || continue
        len=$(printf '\\x%02x\\x%02x' $((size >> 8)) $((size & 255)))
        cat "$init" "$frag" | seed iso-box "$len"
        cat "$init" "$frag" | seed segment "\\x05$len"
        cat "$init" "$frag" | seed segment "\\x0d$len"
    done
done < <(files \( -name 'init*.mp4' -o -name '*-init.mp4' \))

# Whole streams for fuzz-check: a flag byte (1 = --playlist-only), the multivariant playlist,
# four NUL bytes, a media playlist, four NUL bytes, a segment (FuzzCheck.swift).
first_uri() { grep -a -v -m1 -e '^#' -e '^[[:space:]]*$' "$1" | tr -d '\r'; }
for master in Samples/*/master.m3u8; do
    [ -f "$master" ] || continue
    while IFS= read -r media; do
        media=$(dirname "$master")/$media
        [ -f "$media" ] || continue
        segment=$(dirname "$media")/$(first_uri "$media")
        [ -f "$segment" ] || continue
        { cat "$master"; printf '\0\0\0\0'; cat "$media"; printf '\0\0\0\0'; cat "$segment"; } | seed check '\x00'
    done < <(grep -a -v -e '^#' -e '^[[:space:]]*$' "$master" | tr -d '\r')
done
printf '%s\n' "$playlists" | awk 'NR % 4 == 0' | while IFS= read -r f; do
    [ -f "$f" ] && { cat "$f"; printf '\0\0\0\0'; cat "$f"; } | seed check '\x01'
done

# .hlscheck.yml: the documented example, JSON, and the values the loader must refuse cleanly
# (huge and negative numbers, floats where a whole number belongs, .inf/.nan, hex and octal,
# anchors and aliases, nesting, wrong types).
configurations=(
    $'profile: apple-ios\nbudget-kbps: 64\nbandwidth-tolerance: 0.1\nduration-tolerance: 0.5\nfail-on: warning\nrules:\n  artwork-missing: off\n  codecs-missing: error\nignore:\n  - "legacy/**"\n  - "*/drafts/*.m3u8"\ndocumentation-url: https://docs.example.com/hlscheck/rules.html\n'
    '{"profile": "rfc8216", "budget-kbps": 128, "fail-on": "never", "ignore": ["a/**"]}'
    $'budget-kbps: 9223372036854776\n'
    $'budget-kbps: -64\nduration-tolerance: .inf\nbandwidth-tolerance: .nan\n'
    $'budget-kbps: 0x40\nduration-tolerance: 1e308\nbandwidth-tolerance: 0o17\n'
    $'base: &b 64\nbudget-kbps: *b\n'
    $'rules: &r {artwork-missing: off}\nignore: [*r]\n'
    $'budget-kbps: [[[[[[[[64]]]]]]]]\n'
    $'budget-kbps: 64.5\nfail-on: yes\nprofile: {a: b}\n'
    $'ignore: ["**/**/**/**/**/**/**/**/x"]\n'
)
for c in "${configurations[@]}"; do
    printf '%s' "$c" | seed configuration
done

for target in "$out"/*/; do
    printf '%-20s %5d seeds\n' "$(basename "$target")" "$(find "$target" -type f | wc -l)"
done
