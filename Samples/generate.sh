#!/usr/bin/env bash
# Regenerates the bundled sample streams in Samples/ with the ffmpeg CLI (sample generation only:
# hlscheck itself never runs ffmpeg). Deterministic for a given ffmpeg build: synthetic sources,
# bit-exact flags, single-threaded x264. Run through `make samples`.
#
#   compliant/       master + two H.264/AAC variants + an audio-only AAC variant <= 64 kbit/s (TS),
#                    BANDWIDTH / AVERAGE-BANDWIDTH / CODECS computed from the written segments.
#   no-audio-only/   a master offering only the two video variants (no audio-only variant).
set -euo pipefail
cd "$(dirname "$0")"

command -v ffmpeg >/dev/null || { echo "generate.sh: the ffmpeg CLI is needed (make deps installs it)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "generate.sh: python3 is needed to compute the declared bit rates" >&2; exit 1; }

seconds=18
segment=6
common=(-hide_banner -loglevel error -y)
exact=(-map_metadata -1 -fflags +bitexact -flags:a +bitexact -flags:v +bitexact)
audio_in=(-f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=44100:duration=${seconds}")
hls_out() { # $1 = folder
  echo -f hls -hls_time "$segment" -hls_playlist_type vod -hls_flags independent_segments \
       -hls_segment_filename "$1/seg%d.ts" "$1/index.m3u8"
}

rm -rf compliant no-audio-only
mkdir -p compliant/v0 compliant/v1 compliant/audio no-audio-only

video_variant() { # folder size kbit/s
  local dir=$1 size=$2 rate=$3
  ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=${size}:rate=25:duration=${seconds}" "${audio_in[@]}" \
    -c:v libx264 -threads 1 -profile:v baseline -level 3.0 -pix_fmt yuv420p \
    -g 50 -keyint_min 50 -sc_threshold 0 -b:v "${rate}k" -maxrate "${rate}k" -bufsize "$((rate * 2))k" \
    -c:a aac -b:a 64k -ac 2 "${exact[@]}" $(hls_out "compliant/$dir")
}
video_variant v0 256x144 150
video_variant v1 426x240 300

# The audio-only variant: AAC-LC at 32 kbit/s leaves room under 64 kbit/s for TS overhead and a poster.
# Cut 20 ms short so the encoder's priming does not leave a 23 ms runt segment at the end.
ffmpeg "${common[@]}" "${audio_in[@]}" -t $((seconds - 1)).98 -c:a aac -b:a 32k -ac 2 "${exact[@]}" $(hls_out compliant/audio)

# Declared values from what was written: peak over the RFC 8216 §4.1 window, average, codecs.
python3 - <<'PY'
import os, re

def segments(folder):
    text = open(os.path.join(folder, "index.m3u8")).read()
    target = int(re.search(r"#EXT-X-TARGETDURATION:(\d+)", text).group(1))
    durations = [float(d) for d in re.findall(r"#EXTINF:([\d.]+)", text)]
    uris = [l for l in text.splitlines() if l and not l.startswith("#")]
    sizes = [os.path.getsize(os.path.join(folder, u)) for u in uris]
    return target, list(zip(sizes, durations))

def rates(folder):
    # Peak as hlscheck measures it (docs/measurement.md): the largest bits/seconds over runs of
    # contiguous segments lasting 0.5-1.5 x target duration; a segment longer than that stands alone.
    target, segs = segments(folder)
    peak = 0
    for i in range(len(segs)):
        bits = dur = 0
        for j, (size, d) in enumerate(segs[i:]):
            bits += size * 8; dur += d
            if 0.5 * target <= dur <= 1.5 * target or (j == 0 and dur > 1.5 * target):
                peak = max(peak, bits / dur)
            if dur > 1.5 * target: break
    total_bits = sum(s for s, _ in segs) * 8
    total_dur = sum(d for _, d in segs)
    if peak == 0: peak = total_bits / total_dur
    return int(peak + 0.999), int(total_bits / total_dur + 0.999)

def avc_codec(folder):
    data = open(os.path.join(folder, "seg0.ts"), "rb").read()
    i = data.find(b"\x00\x00\x01\x67")
    return "avc1.%02x%02x%02x" % (data[i + 4], data[i + 5], data[i + 6])

variants = []
for folder, res in (("compliant/v0", "256x144"), ("compliant/v1", "426x240")):
    peak, avg = rates(folder)
    variants.append(f'#EXT-X-STREAM-INF:BANDWIDTH={peak},AVERAGE-BANDWIDTH={avg},CODECS="{avc_codec(folder)},mp4a.40.2",RESOLUTION={res},FRAME-RATE=25.000\n{folder.split("/", 1)[1]}/index.m3u8\n')
peak, avg = rates("compliant/audio")
audio = f'#EXT-X-STREAM-INF:BANDWIDTH={peak},AVERAGE-BANDWIDTH={avg},CODECS="mp4a.40.2"\naudio/index.m3u8\n'

head = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
open("compliant/master.m3u8", "w").write(head + "".join(variants) + audio)
open("no-audio-only/master.m3u8", "w").write(head + "".join(v.replace("\nv", "\n../compliant/v") for v in variants))
PY
echo "Samples regenerated: $(du -sh . | cut -f1) in $(pwd)"
