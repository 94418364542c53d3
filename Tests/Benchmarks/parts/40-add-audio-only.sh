#!/usr/bin/env bash
# Part of `make bench`: `hlscheck embed --add-audio-only` on a generated 10-minute ladder (two
# H.264/AAC TS variants, 6 s segments, no audio-only variant) against the ffmpeg command a user
# would otherwise write for the transcoding step alone (which gets neither the poster — the ffmpeg
# CLI cannot write timed ID3 into TS, design.md §8 — nor BANDWIDTH, CODECS or the multivariant playlist's entry).
# Prints medians; docs/benchmarks.md records them.
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }

work=$(mktemp -d)
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
seconds=600
echo "Generating a ${seconds} s ladder in $work ..."
for variant in "v0 256x144 150" "v1 426x240 300"; do
  set -- $variant
  mkdir -p "$work/stream/$1"
  ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=$2:rate=25:duration=$seconds" \
    -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=$seconds" \
    -c:v libx264 -preset veryfast -g 50 -keyint_min 50 -sc_threshold 0 -b:v "$3k" -c:a aac -b:a 96k -ac 2 \
    -f hls -hls_time 6 -hls_playlist_type vod -hls_segment_filename "$work/stream/$1/seg%d.ts" "$work/stream/$1/index.m3u8"
done
cat > "$work/stream/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000c,mp4a.40.2",RESOLUTION=256x144
v0/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS="avc1.64000d,mp4a.40.2",RESOLUTION=426x240
v1/index.m3u8
M3U8
echo "$(ls "$work"/stream/v0/*.ts | wc -l) segments per variant, $(du -sh "$work/stream" | cut -f1)"

# --ignore-failure: the re-check exits 1 on the approximate video BANDWIDTH/CODECS of the
# generated multivariant playlist.
hyperfine --runs 3 --ignore-failure --export-markdown "$work/table.md" \
  --prepare "rm -rf $work/out $work/ffmpeg-audio && mkdir -p $work/ffmpeg-audio" \
  -n "hlscheck embed --add-audio-only (transcode, poster, playlists, re-check)" \
  ".build/release/hlscheck embed --add-audio-only --image Samples/poster.jpg $work/stream/master.m3u8 --output $work/out" \
  -n "ffmpeg -copyts … -f hls (transcode only)" \
  "ffmpeg -hide_banner -loglevel error -copyts -i $work/stream/v0/index.m3u8 -map 0:a:0 -c:a aac -b:a 48k -ac 2 -f hls -hls_time 6 -hls_playlist_type vod -hls_segment_filename $work/ffmpeg-audio/seg%d.ts $work/ffmpeg-audio/index.m3u8"
cat "$work/table.md"
