#!/usr/bin/env bash
# Part of `make bench` (issue 13): `hlscheck embed` against `cp -r` of the same stream — an
# audio-only variant of 600 segments (2 s each), once as MPEG-TS and once as packed audio (ADTS),
# with --output (to a folder that does not exist yet) and with --in-place (each in-place run
# starts from a fresh copy made by hyperfine's --prepare, not timed), every command from the same
# filesystem state (see settle.sh below).
#   HLSCHECK_BIN=path       the binary to measure (default .build/release/hlscheck)
#   HLSCHECK_BASELINE=path  also time this binary's embed (say main's), in the same hyperfine run
#   BENCH_WORK=folder       keep the generated media there and reuse it on the next run
#   BENCH_RUNS=n            runs per command (default 7)
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

# Every timed command starts from the same state (settle.sh, run as each --prepare): the previous
# output removed, everything flushed (`sync`), the kernel's caches dropped when we may (root) and
# the inputs, the binary and its libraries read back in. Without that, the figures depend on what
# the command before did: on ext4 without a journal (this machine's disk) the inode allocator
# skips every inode deleted in the last 30 s — 5.5 min while its inode-table block is still dirty —
# checking each one's deletion time, so creating 600 files right after 600-file `rm -rf`s costs
# 3× the system time of creating them after an idle minute (cp -r ADTS ran after the embed runs
# had deleted thousands of files: 193 ms against 68 ms for cp -r TS); and embed's one syncfs
# would also flush what the --prepare's cp -r left dirty. Nothing here slows `cp` down.
cat > "$work/settle.sh" <<SETTLE
#!/bin/sh
# settle.sh FOLDER [COPY_FROM]: remove FOLDER (and give it a fresh copy of COPY_FROM), flush, drop caches, warm.
rm -rf "\$1"
[ -n "\${2:-}" ] && cp -r "\$2" "\$1"
sync
[ -w /proc/sys/vm/drop_caches ] && echo 3 > /proc/sys/vm/drop_caches
find $work/ts $work/aac \${2:+"\$1"} -type f -exec cat {} + > /dev/null
cat "$bin" \$(ldd "$bin" 2>/dev/null | awk '/=> \\//{print \$3}') "\$(command -v cp)" /bin/sh > /dev/null
# hlscheck opens FFmpeg and libxml2 with dlopen (not in its ldd list): warm them and what they need too.
libs=\$(ldconfig -p | awk '/(libavformat|libavcodec|libavutil|libswscale|libswresample)\\.so\\.[0-9]+ |libxml2\\.so\\.2 /{print \$NF}')
cat \$libs \$(ldd \$libs 2>/dev/null | awk '/=> \\//{print \$3}' | sort -u) > /dev/null
SETTLE
chmod +x "$work/settle.sh"
[ -w /proc/sys/vm/drop_caches ] || echo "note: not root, caches are not dropped between runs: cp -r figures may depend on the files the command before deleted"
settle="$work/settle.sh"

# HLSCHECK_BASELINE=path adds the embed rows of another binary (say main's) to the same run.
commands=()
for kind in TS ADTS; do
    stream=$work/ts; [ "$kind" = ADTS ] && stream=$work/aac
    commands+=(-n "cp -r ($kind)" --prepare "$settle $work/copy" "cp -r $stream $work/copy")
    for binary in "$bin" ${HLSCHECK_BASELINE:+"$(realpath "$HLSCHECK_BASELINE")"}; do
        label=$kind; [ "$binary" != "$bin" ] && label="$kind, baseline"
        commands+=(-n "embed --output ($label)" --prepare "$settle $work/out"
                   "$binary embed --image $poster $stream/master.m3u8 --output $work/out || true"
                   -n "embed --in-place ($label)" --prepare "$settle $work/inplace $stream"
                   "$binary embed --image $poster $work/inplace/master.m3u8 --in-place || true")
    done
done
commands+=(-n "check (TS, the stream as it is)" --prepare "$settle $work/none" "$bin $work/ts/master.m3u8 || true"
           -n "cp -r, then sync (TS)" --prepare "$settle $work/copy" "cp -r $work/ts $work/copy && sync")
hyperfine --warmup 1 --runs "${BENCH_RUNS:-7}" --style basic --export-json "$work/results.json" "${commands[@]}"
echo
python3 - "$work/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
copy = {kind: next(r for r in results if r["command"] == f"cp -r ({kind})") for kind in ("TS", "ADTS")}
print("| command | median (wall) | ÷ cp -r | CPU user+sys | ÷ cp -r |")
print("|---|---:|---:|---:|---:|")
for r in results:
    base = copy["ADTS" if "ADTS" in r["command"] else "TS"]
    cpu, base_cpu = r["user"] + r["system"], base["user"] + base["system"]
    print(f"| {r['command']} | {r['median'] * 1000:.0f} ms | {r['median'] / base['median']:.1f}× | {cpu * 1000:.0f} ms | {cpu / base_cpu:.1f}× |")
PY
