#!/usr/bin/env bash
# Part of `make bench`: `hlscheck embed` against the full check of the same stream, side by side —
# an audio-only variant of 600 segments (2 s each), once as MPEG-TS and once as packed audio
# (ADTS). Embed must measure every segment before it writes (the budget comes first), so its
# floor is the check; what it adds is the rewrite, the files and the re-check. Rows: the check,
# embed --output (to a folder that does not exist yet) and embed --in-place (each in-place run
# starts from a fresh copy made by its prepare step, not timed), every command from the same
# filesystem state (see settle.sh below): by default, as root, each run on a file system of its
# own, made afresh by the run's --prepare (a 256 MiB ext4 without a journal and with 4 KiB blocks,
# like this machine's disk, on a loop device with direct I/O), the input copied onto it, the output written on it.
#   HLSCHECK_BIN=path       the binary to measure (default .build/release/hlscheck)
#   HLSCHECK_BASELINE=path  also time this binary's embed and check (say main's), in the same rounds
#   BENCH_WORK=folder       keep the generated media there and reuse it on the next run
#   BENCH_RUNS=n            rounds (each runs every command once; default 7)
#   BENCH_RT=1              run every timed command at real-time priority (chrt -f 50, root): on
#                           a machine others are using, the figures of an idle one (each run
#                           is short; the kernel keeps 5 % of every second for everyone else)
#   BENCH_FS=disk           instead: every run on the disk the media is on,
#                           settled by rm + sync + dropping the caches
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

# Every timed command starts from the same state, set up by settle.sh as each run's --prepare.
#
# fresh (default; root and a loop device needed): a new file system per run. The disk's history
# moves the figures otherwise: on ext4 without a journal (this machine's disk) the inode allocator
# skips every inode deleted in the last 30 s — 5.5 min while its inode-table block is still dirty
# — checking each one's deletion time, so creating 600 files right after 600-file `rm -rf`s
# costs 3× the system time of creating them after an idle minute, whatever the settle step
# flushes or drops (copying 600 files: anywhere from 37 to 193 ms on one disk). A file system
# made with mkfs has deleted nothing. Direct I/O on the loop device: a sync writes to the disk,
# not into the page cache of the image file (which would be written back during a later run).
#
# disk (BENCH_FS=disk, or when a loop mount is not permitted): the previous output removed,
# everything flushed (`sync`), the kernel's caches dropped when we may (root) and the inputs, the
# binary and its libraries read back in, for a machine where a loop mount is not permitted; its
# embed rows depend on what the commands before deleted.
mode=${BENCH_FS:-fresh}
mnt=$work/fs
if [ "$mode" = fresh ]; then
    mkdir -p "$mnt"
    if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null || ! command -v losetup >/dev/null; then
        echo "note: not root or no mkfs.ext4/losetup: every run on the disk the media is on (BENCH_FS=disk); embed figures depend on the files the command before deleted"
        mode=disk
    fi
fi
cat > "$work/settle.sh" <<SETTLE
#!/bin/sh
# settle.sh MODE TARGET [COPY_FROM]
#   fresh: a new file system at $mnt holding a copy of the stream COPY_FROM as $mnt/stream, and as
#          $mnt/inplace too when TARGET is inplace (TARGET itself does not exist);
#   disk:  remove TARGET (and give it a fresh copy of COPY_FROM), flush, drop caches.
# Then the inputs, the binary and its libraries are read in (warm).
set -e
if [ "\$1" = fresh ]; then
    if mountpoint -q "$mnt"; then
        dev=\$(findmnt -n -o SOURCE "$mnt")
        umount "$mnt"
        case "\$dev" in /dev/loop*) losetup -d "\$dev" 2>/dev/null || true ;; esac
    fi
    rm -f "$work/fs.img"
    truncate -s 256M "$work/fs.img"
    # -T default: mke2fs gives a file system this small 1 KiB blocks and 128-byte inodes; a disk has
    # 4 KiB and 256, and a 15 KB segment written in 1 KiB blocks costs four times the block work.
    mkfs.ext4 -q -F -T default -b 4096 -I 256 -O ^has_journal "$work/fs.img"
    dev=\$(losetup --direct-io=on -f --show "$work/fs.img" 2>/dev/null || losetup -f --show "$work/fs.img")
    mount "\$dev" "$mnt"
    cp -r "\$3" "$mnt/stream"
    [ "\$2" = inplace ] && cp -r "\$3" "$mnt/inplace"
    sync
    find "$mnt" -type f -exec cat {} + > /dev/null
else
    rm -rf "\$2"
    [ -n "\${3:-}" ] && cp -r "\$3" "\$2"
    sync
    [ -w /proc/sys/vm/drop_caches ] && echo 3 > /proc/sys/vm/drop_caches
    find $work/ts $work/aac \${3:+"\$2"} -type f -exec cat {} + > /dev/null
fi
cat "$bin" \$(ldd "$bin" 2>/dev/null | awk '/=> \\//{print \$3}') \$(command -v chrt) /bin/sh > /dev/null
# hlscheck opens FFmpeg and libxml2 with dlopen (not in its ldd list): warm them and what they need too.
libs=\$(ldconfig -p | awk '/(libavformat|libavcodec|libavutil|libswscale|libswresample)\\.so\\.[0-9]+ |libxml2\\.so\\.2 /{print \$NF}')
cat \$libs \$(ldd \$libs 2>/dev/null | awk '/=> \\//{print \$3}' | sort -u) > /dev/null
SETTLE
chmod +x "$work/settle.sh"
settle="$work/settle.sh $mode"
if [ "$mode" = fresh ]; then
    # Unmounted at the end, however the part ends.
    cleanup() {
        if mountpoint -q "$mnt"; then dev=$(findmnt -n -o SOURCE "$mnt"); umount "$mnt"; case "$dev" in /dev/loop*) losetup -d "$dev" 2>/dev/null || true ;; esac; fi
        rm -f "$work/fs.img"
        [ -n "${BENCH_WORK:-}" ] || rm -rf "$work"
    }
    trap cleanup EXIT
    # Does it work here (a container may refuse loop devices)? One try before timing anything.
    if ! "$work/settle.sh" fresh none "$work/ts" 2>/dev/null; then
        echo "note: cannot make and mount a file system here: every run on the disk the media is on (BENCH_FS=disk); embed figures depend on the files the command before deleted"
        mode=disk; settle="$work/settle.sh disk"
    fi
fi
[ "$mode" = disk ] && { [ -w /proc/sys/vm/drop_caches ] || echo "note: not root, caches are not dropped between runs: embed figures may depend on the files the command before deleted"; }
echo "File system state of every run: $mode"

rt=""
if [ "${BENCH_RT:-}" = 1 ]; then
    if [ "$(id -u)" = 0 ] && command -v chrt >/dev/null; then rt="chrt -f 50 "; echo "Every timed command at real-time priority (chrt -f 50)"
    else echo "note: BENCH_RT=1 needs root and chrt: timed at normal priority"; fi
fi

# HLSCHECK_BASELINE=path adds the rows of another binary (say main's) to the same run.
# The commands alternate round by round (Tests/Benchmarks/paired.py), each after its prepare step,
# and each ratio is the median over rounds of the pair from the same round: each embed row
# against the check of the same stream by the same binary (PAIRED_GROUP=3). Timed one command's
# runs in a row (hyperfine), the machine's drift over those seconds moved the TS check's CPU time
# by 9 ms from one run of the part to the next.
paired=()
for kind in TS ADTS; do
    stream=$work/ts; [ "$kind" = ADTS ] && stream=$work/aac
    if [ "$mode" = fresh ]; then
        input=$mnt/stream; out=$mnt/out; inplace=$mnt/inplace
        prepare="$settle none $stream"; prepare_inplace="$settle inplace $stream"
    else
        input=$stream; out=$work/out; inplace=$work/inplace
        prepare="$settle $work/none"; prepare_inplace="$settle $inplace $stream"
    fi
    for binary in "$bin" ${HLSCHECK_BASELINE:+"$(realpath "$HLSCHECK_BASELINE")"}; do
        label=$kind; [ "$binary" != "$bin" ] && label="$kind, baseline"
        prepare_out=$prepare; [ "$mode" = disk ] && prepare_out="$settle $out"
        paired+=("--prepare=$prepare" "check ($label)=$rt$binary $input/master.m3u8"
                 "--prepare=$prepare_out" "embed --output ($label)=$rt$binary embed --image $poster $input/master.m3u8 --output $out"
                 "--prepare=$prepare_inplace" "embed --in-place ($label)=$rt$binary embed --image $poster $inplace/master.m3u8 --in-place")
    done
done
PAIRED_GROUP=3 python3 Tests/Benchmarks/paired.py "${BENCH_RUNS:-7}" "${paired[@]}"
