#!/usr/bin/env bash
# Part of `make bench` (issue 13): `hlscheck embed` against `cp -r` of the same stream — an
# audio-only variant of 600 segments (2 s each), once as MPEG-TS and once as packed audio (ADTS),
# with --output and with --in-place (each in-place run starts from a fresh copy, made by
# hyperfine's --prepare and not timed; hyperfine wants a --prepare for every command or none).
#   HLSCHECK_BIN=path   the binary to measure (default .build/release/hlscheck)
#   BENCH_WORK=folder   keep the generated media there and reuse it on the next run
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=$(realpath "${HLSCHECK_BIN:-.build/release/hlscheck}")
poster=$(realpath Tests/MediaInspectionTests/Fixtures/poster.jpg)
if [ -n "${BENCH_WORK:-}" ]; then work=$BENCH_WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

for kind in ts aac; do
    stream="$work/$kind"
    [ -s "$stream/master.m3u8" ] && continue
    mkdir -p "$stream/audio"
    echo "Generating a 600-segment audio-only variant ($kind) in $stream ..."
    # Packed audio: ADTS segments cut by the segment muxer (as Samples/generate.sh does).
    if [ "$kind" = ts ]; then
        out=(-f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$stream/audio/seg%d.ts" "$stream/audio/index.m3u8")
    else
        out=(-f segment -segment_time 2 -segment_format adts -segment_list "$stream/audio/index.m3u8"
             -segment_list_type m3u8 "$stream/audio/seg%d.aac")
    fi
    ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=1200" \
      -c:a aac -b:a 32k -ac 2 "${out[@]}"
    # The segment muxer rounds the target duration up; RFC 8216 §4.3.3.1 rounds to the nearest.
    sed -i -e '/#EXT-X-ALLOW-CACHE/d' -e 's/#EXT-X-TARGETDURATION:.*/#EXT-X-TARGETDURATION:2/' "$stream/audio/index.m3u8"
    cat > "$stream/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.2"
audio/index.m3u8
M3U8
done
echo "$(ls "$work/ts/audio" | grep -c '\.ts$') TS segments, $(ls "$work/aac/audio" | grep -c '\.aac$') ADTS segments"

hyperfine --warmup 1 --runs 7 --style basic --export-json "$work/results.json" \
  -n "cp -r (TS)" --prepare "rm -rf $work/copy" "cp -r $work/ts $work/copy" \
  -n "embed --output (TS)" --prepare "rm -rf $work/out" "$bin embed --image $poster $work/ts/master.m3u8 --output $work/out || true" \
  -n "embed --in-place (TS)" --prepare "rm -rf $work/inplace; cp -r $work/ts $work/inplace" \
     "$bin embed --image $poster $work/inplace/master.m3u8 --in-place || true" \
  -n "cp -r (ADTS)" --prepare "rm -rf $work/copy" "cp -r $work/aac $work/copy" \
  -n "embed --output (ADTS)" --prepare "rm -rf $work/out" "$bin embed --image $poster $work/aac/master.m3u8 --output $work/out || true" \
  -n "embed --in-place (ADTS)" --prepare "rm -rf $work/inplace; cp -r $work/aac $work/inplace" \
     "$bin embed --image $poster $work/inplace/master.m3u8 --in-place || true" \
  -n "check (TS, the stream as it is)" --prepare true "$bin $work/ts/master.m3u8 || true"
echo
python3 - "$work/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
copy = {"TS": results[0], "ADTS": results[3]}
print("| command | median (wall) | ÷ cp -r | CPU user+sys | ÷ cp -r |")
print("|---|---:|---:|---:|---:|")
for r in results:
    base = copy["ADTS" if "ADTS" in r["command"] else "TS"]
    cpu, base_cpu = r["user"] + r["system"], base["user"] + base["system"]
    print(f"| {r['command']} | {r['median'] * 1000:.0f} ms | {r['median'] / base['median']:.1f}× | {cpu * 1000:.0f} ms | {cpu / base_cpu:.1f}× |")
PY
