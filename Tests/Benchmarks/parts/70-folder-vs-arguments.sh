#!/usr/bin/env bash
# Part of `make bench`: the shared playlist corpus (../shared/corpus, or
# HLSCHECK_CORPUS; ~690 third-party playlists) checked as one folder — discovery finds the
# streams — against the same playlist files named as arguments. Skipped when the corpus is absent.
# Discovery reads every playlist once; the check reuses those bytes.
#   HLSCHECK_BIN=path        the binary to measure (default .build/release/hlscheck)
#   HLSCHECK_BASELINE=path   another binary, measured side by side (e.g. a build of main)
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=$(realpath "${HLSCHECK_BIN:-.build/release/hlscheck}")
corpus=${HLSCHECK_CORPUS:-../shared/corpus}
[ -d "$corpus" ] || { echo "no corpus at $corpus (set HLSCHECK_CORPUS): skipped"; exit 0; }
corpus=$(realpath "$corpus")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
find "$corpus" \( -name '*.m3u8' -o -name '*.m3u' \) -type f -print0 | sort -z > "$work/files"
echo "$(tr -cd '\0' < "$work/files" | wc -c) playlist files"
commands=()
for which in ${HLSCHECK_BASELINE:+baseline} hlscheck; do
    b=$bin; label=""
    [ "$which" = baseline ] && b=$(realpath "$HLSCHECK_BASELINE") && label="baseline: "
    commands+=(
      -n "${label}corpus as one folder" "$b $corpus --playlist-only > /dev/null || true"
      -n "${label}the same files as arguments" "xargs -0 $b --playlist-only < $work/files > /dev/null || true"
      -n "${label}corpus as one folder (full check)" "$b $corpus > /dev/null || true"
      -n "${label}the same files as arguments (full check)" "xargs -0 $b < $work/files > /dev/null || true")
done
hyperfine --warmup 0 --runs 3 --style basic --export-json "$work/results.json" "${commands[@]}"
echo
python3 - "$work/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print("| command | median (wall) | CPU user+sys |")
print("|---|---:|---:|")
for r in results:
    print(f"| {r['command']} | {r['median'] * 1000:.0f} ms | {(r['user'] + r['system']) * 1000:.0f} ms |")
PY
