#!/usr/bin/env bash
# Regenerates the bundled sample streams in Samples/ with the ffmpeg CLI (sample generation only:
# hlscheck itself never runs ffmpeg). Deterministic for a given ffmpeg build: synthetic sources,
# bit-exact flags, single-threaded x264. Run through `make samples`.
#
#   compliant/       master + two H.264/AAC variants + an audio-only AAC variant <= 64 kbit/s (TS),
#                    BANDWIDTH / AVERAGE-BANDWIDTH / CODECS computed from the written segments, and
#                    an I-frame playlist per video variant (Apple HLS Authoring Specification 6.1):
#                    byte ranges of the IDR frame that starts each of its segments, after the
#                    segment's SDT, PAT and PMT.
#   no-audio-only/   a master offering only the two video variants (no audio-only variant).
#   packed-audio/    the two video variants + an audio-only variant of packed ADTS AAC.
#   fmp4/            two fMP4 (CMAF-style) H.264/AAC variants (Apple 9.9: video at several bit
#                    rates) + an audio-only fMP4 AAC variant, and each video variant's I-frame
#                    playlist (each range: the moof and the IDR sample).
#   poster.jpg       the still image that `hlscheck embed` (dogfooding) then puts into every
#                    audio-only segment of compliant/, packed-audio/ and fmp4/ — with the RFC 8216
#                    §3.4 PRIV timestamps packed audio needs (on the TS variants' timeline), which
#                    the ffmpeg CLI cannot write.
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

rm -rf compliant no-audio-only packed-audio fmp4 poster.jpg
mkdir -p compliant/v0 compliant/v1 compliant/audio no-audio-only packed-audio/audio fmp4/v0 fmp4/v1 fmp4/audio
(cd .. && swift build --product hlscheck >/dev/null)
hlscheck="$(cd .. && swift build --show-bin-path)/hlscheck"

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

# Packed audio: ADTS segments cut by the segment muxer (their PRIV timestamps come with the poster).
ffmpeg "${common[@]}" "${audio_in[@]}" -t $((seconds - 1)).98 -c:a aac -b:a 32k -ac 2 "${exact[@]}" \
  -f segment -segment_time "$segment" -segment_format adts \
  -segment_list packed-audio/audio/index.m3u8 -segment_list_type m3u8 packed-audio/audio/seg%d.aac
# The segment muxer rounds the target duration up (6.014 s → 7); RFC 8216 §4.3.3.1 rounds to the
# nearest integer (6), and §6.2.4 wants the same target duration in every variant of the stream.
sed -i -e '/#EXT-X-ALLOW-CACHE/d' -e 's/#EXT-X-MEDIA-SEQUENCE:0/#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD/' \
  -e "s/#EXT-X-TARGETDURATION:.*/#EXT-X-TARGETDURATION:$segment/" packed-audio/audio/index.m3u8

# fMP4: two H.264/AAC variants and an audio-only AAC variant, each with its EXT-X-MAP init section.
fmp4_out() { # $1 = folder
  echo -f hls -hls_time "$segment" -hls_playlist_type vod -hls_flags independent_segments \
       -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$1/seg%d.m4s" "$1/index.m3u8"
}
ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=256x144:rate=25:duration=${seconds}" "${audio_in[@]}" \
  -c:v libx264 -threads 1 -profile:v baseline -level 3.0 -pix_fmt yuv420p \
  -g 50 -keyint_min 50 -sc_threshold 0 -b:v 100k -maxrate 100k -bufsize 200k \
  -c:a aac -b:a 32k -ac 2 "${exact[@]}" $(fmp4_out fmp4/v0)
ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=426x240:rate=25:duration=${seconds}" "${audio_in[@]}" \
  -c:v libx264 -threads 1 -profile:v baseline -level 3.0 -pix_fmt yuv420p \
  -g 50 -keyint_min 50 -sc_threshold 0 -b:v 200k -maxrate 200k -bufsize 400k \
  -c:a aac -b:a 32k -ac 2 "${exact[@]}" $(fmp4_out fmp4/v1)
ffmpeg "${common[@]}" "${audio_in[@]}" -t $((seconds - 1)).98 -c:a aac -b:a 32k -ac 2 "${exact[@]}" $(fmp4_out fmp4/audio)

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
    return window_rates(*segments(folder))

def window_rates(target, segs):
    # Peak as hlscheck measures it (docs/measurement.md): the largest bits/seconds over runs of
    # contiguous segments lasting 0.5-1.5 x target duration; a segment longer than that stands alone.
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

def avc_codec(folder, first="seg0.ts"):
    data = open(os.path.join(folder, first), "rb").read()
    i = data.find(b"\x00\x00\x01\x67")
    if i >= 0:
        return "avc1.%02x%02x%02x" % (data[i + 4], data[i + 5], data[i + 6])
    i = data.find(b"avcC")  # fMP4: profile, compatibility, level follow the avcC version byte
    return "avc1.%02x%02x%02x" % (data[i + 5], data[i + 6], data[i + 7])

def ts_first_iframe(data):
    # MPEG-TS: the first video PES (the IDR every segment starts with, AS 7.4) up to the packet
    # that starts the next video PES, as (start, end). The SDT, PAT and PMT before it are the
    # segment's Media Initialization Section, which the range must leave out (bis-22 §4.4.3.6).
    pmt_pid = video_pid = None
    starts = []
    for i in range(0, len(data) - 187, 188):
        p = data[i:i + 188]
        pid, pusi, field = ((p[1] & 0x1F) << 8) | p[2], p[1] & 0x40, (p[3] >> 4) & 3
        payload = p[4 + 1 + p[4]:] if field == 3 else p[4:] if field == 1 else b""
        if pusi and pid == 0 and payload:
            table = payload[1 + payload[0]:]
            pmt_pid = ((table[10] & 0x1F) << 8) | table[11]
        elif pusi and pid == pmt_pid and video_pid is None:
            table = payload[1 + payload[0]:]
            end, j = 3 + (((table[1] & 0x0F) << 8) | table[2]) - 4, 12 + (((table[10] & 0x0F) << 8) | table[11])
            while j < end:
                if table[j] in (0x1B, 0x24):
                    video_pid = ((table[j + 1] & 0x1F) << 8) | table[j + 2]
                j += 5 + (((table[j + 3] & 0x0F) << 8) | table[j + 4])
        elif pusi and pid == video_pid:
            starts.append(i)
            if len(starts) == 2:
                return starts[0], starts[1]
    return (starts[0] if starts else 0), len(data)

def mp4_first_iframe_end(data):
    # fMP4: the moof and the first sample of its mdat (the IDR), as AS 6.10 asks.
    def boxes(start, end):
        while start + 8 <= end:
            size = int.from_bytes(data[start:start + 4], "big")
            yield data[start + 4:start + 8], start, start + size
            start += size
    for kind, start, end in boxes(0, len(data)):
        if kind != b"moof": continue
        for kind2, s2, e2 in boxes(start + 8, end):
            if kind2 != b"traf": continue
            default_size = None
            for kind3, s3, e3 in boxes(s2 + 8, e2):
                flags = int.from_bytes(data[s3 + 9:s3 + 12], "big")
                if kind3 == b"tfhd":
                    j = s3 + 16 + (8 if flags & 1 else 0) + (4 if flags & 2 else 0) + (4 if flags & 8 else 0)
                    if flags & 0x10: default_size = int.from_bytes(data[j:j + 4], "big")
                if kind3 == b"trun":
                    j = s3 + 16
                    offset = int.from_bytes(data[j:j + 4], "big", signed=True) if flags & 1 else 0
                    j += (4 if flags & 1 else 0) + (4 if flags & 4 else 0) + (4 if flags & 0x100 else 0)
                    size = int.from_bytes(data[j:j + 4], "big") if flags & 0x200 else default_size
                    return start + offset + size
    return len(data)

def iframe_playlist(folder, init=None):
    # One I-frame per segment: its EXTINF runs to the next segment's I-frame (bis-22 §4.4.3.6).
    target, segs = segments(folder)
    uris = [l for l in open(os.path.join(folder, "index.m3u8")).read().splitlines() if l and not l.startswith("#")]
    text = f"#EXTM3U\n#EXT-X-VERSION:{5 if init else 4}\n#EXT-X-TARGETDURATION:{target}\n#EXT-X-MEDIA-SEQUENCE:0\n"
    text += "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-I-FRAMES-ONLY\n" + (f'#EXT-X-MAP:URI="{init}"\n' if init else "")
    frames = []
    for uri, (_, duration) in zip(uris, segs):
        data = open(os.path.join(folder, uri), "rb").read()
        start, end = (0, mp4_first_iframe_end(data)) if init else ts_first_iframe(data)
        length = end - start
        text += f"#EXTINF:{duration:.6f},\n#EXT-X-BYTERANGE:{length}@{start}\n{uri}\n"
        frames.append((length, duration))
    open(os.path.join(folder, "iframes.m3u8"), "w").write(text + "#EXT-X-ENDLIST\n")
    return window_rates(target, frames)

def iframe_variant(folder, res, uri, init=None):
    peak, avg = iframe_playlist(folder, init)
    codec = avc_codec(folder, init or "seg0.ts")
    return f'#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH={peak},AVERAGE-BANDWIDTH={avg},CODECS="{codec}",RESOLUTION={res},URI="{uri}"\n'

def audio_only(folder):
    peak, avg = rates(folder)
    return f'#EXT-X-STREAM-INF:BANDWIDTH={peak},AVERAGE-BANDWIDTH={avg},CODECS="mp4a.40.2"\naudio/index.m3u8\n'

variants, iframes = [], []
for folder, res in (("compliant/v0", "256x144"), ("compliant/v1", "426x240")):
    peak, avg = rates(folder)
    variants.append(f'#EXT-X-STREAM-INF:BANDWIDTH={peak},AVERAGE-BANDWIDTH={avg},CODECS="{avc_codec(folder)},mp4a.40.2",RESOLUTION={res},FRAME-RATE=25.000\n{folder.split("/", 1)[1]}/index.m3u8\n')
    iframes.append(iframe_variant(folder, res, folder.split("/", 1)[1] + "/iframes.m3u8"))
head = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
from_compliant = "".join(v.replace("\nv", "\n../compliant/v") for v in variants)
from_compliant_iframes = "".join(i.replace('URI="v', 'URI="../compliant/v') for i in iframes)
# The I-frame streams come last, so that the lines tests and docs quote keep their numbers.
open("compliant/master.m3u8", "w").write(head + "".join(variants) + audio_only("compliant/audio") + "".join(iframes))
open("no-audio-only/master.m3u8", "w").write(head + from_compliant + from_compliant_iframes)
open("packed-audio/master.m3u8", "w").write(head + from_compliant + audio_only("packed-audio/audio") + from_compliant_iframes)

fmp4_video, fmp4_iframes = "", ""
for name, res in (("v0", "256x144"), ("v1", "426x240")):
    peak, avg = rates(f"fmp4/{name}")
    fmp4_video += f'#EXT-X-STREAM-INF:BANDWIDTH={peak},AVERAGE-BANDWIDTH={avg},CODECS="{avc_codec(f"fmp4/{name}", "init.mp4")},mp4a.40.2",RESOLUTION={res},FRAME-RATE=25.000\n{name}/index.m3u8\n'
    fmp4_iframes += iframe_variant(f"fmp4/{name}", res, f"{name}/iframes.m3u8", init="init.mp4")
open("fmp4/master.m3u8", "w").write("#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n" + fmp4_video + audio_only("fmp4/audio") + fmp4_iframes)
PY
# Dogfooding: hlscheck embeds the poster, recomputes the audio-only BANDWIDTH and re-checks.
ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=320x180:rate=1" -frames:v 1 -q:v 6 "${exact[@]}" poster.jpg
for sample in compliant packed-audio fmp4; do
  "$hlscheck" embed --image poster.jpg --description "hlscheck sample" --in-place --root . "$sample/master.m3u8" >/dev/null
  # embed gives rewritten segments new names (seg0.embed-1a2b3c4d.ts, docs/embed.md); the samples
  # keep their plain ones, which tests and docs quote.
  for renamed in "$sample"/audio/*.embed-????????.*; do
    plain="$(echo "$renamed" | sed -E 's/\.embed-[0-9a-f]{8}\././')"
    mv "$renamed" "$plain"
    sed -i -E "s/^$(basename "${plain%.*}")\.embed-[0-9a-f]{8}\./$(basename "${plain%.*}")./" "$sample/audio/index.m3u8"
  done
done

echo "Samples regenerated: $(du -sh . | cut -f1) in $(pwd)"
