#!/usr/bin/env bash
# Part of `make bench`: what a stream in a folder whose name means something in a URI
# ("Stream #1") costs against the same stream in a plain folder (docs/security.md, "Paths the
# user gives are not URIs"). The path typed becomes a URI reference ("Stream %231"), and each
# segment URI is mapped back to its file by LocalFileName, which then looks the decoded folder
# up (lstat). Measured on a 10 000-segment audio playlist (hard links to one 1 s TS segment, each
# under its own name, each after EXT-X-DISCONTINUITY): --playlist-only (confinement of every
# segment URI) and a full check.
#   HLSCHECK_BASELINE=path   another binary (e.g. a build of main), timed on the plain folder in
#                            the same hyperfine run (main cannot check the "#" folder at all)
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }
bin=$(pwd)/.build/release/hlscheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
segments=10000
mkdir -p "$work/plain/audio"
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=1" \
  -c:a aac -b:a 32k -f mpegts "$work/one.ts"
{
  echo "#EXTM3U"; echo "#EXT-X-VERSION:3"; echo "#EXT-X-TARGETDURATION:1"; echo "#EXT-X-PLAYLIST-TYPE:VOD"
  # One segment under 10 000 names: each starts its own timeline (no timestamp findings).
  for i in $(seq 0 $((segments - 1))); do
    [ "$i" -gt 0 ] && echo "#EXT-X-DISCONTINUITY"
    echo "#EXTINF:1.0,"; echo "seg$i.ts"; ln "$work/one.ts" "$work/plain/audio/seg$i.ts"
  done
  echo "#EXT-X-ENDLIST"
} > "$work/plain/audio/index.m3u8"
printf '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS="mp4a.40.2"\naudio/index.m3u8\n' > "$work/plain/master.m3u8"
mkdir -p "$work/Stream #1"
cp -al "$work/plain" "$work/Stream #1/stream"
plain="$work/plain/master.m3u8"
hashed="'$work/Stream #1/stream/master.m3u8'"
baseline=()
if [ -n "${HLSCHECK_BASELINE:-}" ]; then
  baseline=(-n "baseline, plain folder, --playlist-only" "$HLSCHECK_BASELINE $plain --playlist-only -q || true"
            -n "baseline, plain folder, full check" "$HLSCHECK_BASELINE $plain -q || true")
fi
echo "$segments segments; the check in 'Stream #1' says:"
eval "$bin $hashed -q" | tail -1 || true
hyperfine --warmup 1 --runs 5 --style basic \
  -n "plain folder, --playlist-only" "$bin $plain --playlist-only -q || true" \
  -n "'Stream #1', --playlist-only" "$bin $hashed --playlist-only -q || true" \
  -n "plain folder, full check" "$bin $plain -q || true" \
  -n "'Stream #1', full check" "$bin $hashed -q || true" \
  "${baseline[@]}"
