#!/bin/sh
# Small HLS streams, each bending one measurement case of docs/measurement.md, made with the
# ffmpeg CLI into OUT (a folder per case). Used by Tests/HLSCheckTests/VerdictFixtureTests.swift
# and for before/after comparisons. Deterministic: lavfi sources, -bitexact, fixed key and IV.
set -eu
OUT=${1:?usage: verdict-fixtures.sh OUT [CASE...]}
shift
CASES=${*:-double-count alternate-angle partial encrypted mp3 sample-entry radio above-peak ffmpeg-ladder}
mkdir -p "$OUT"
FF="ffmpeg -hide_banner -loglevel error -nostdin -y"
TONE="-f lavfi -i sine=frequency=440:sample_rate=48000:duration=12"
HLS="-f hls -hls_time 4 -hls_playlist_type vod -hls_flags independent_segments -fflags +bitexact -flags:a +bitexact"

audio() { # DIR BITRATE [EXTRA...]: AAC-LC in MPEG-TS
    dir=$1; rate=$2; shift 2
    mkdir -p "$dir"
    $FF $TONE -c:a aac -b:a "$rate" -ac 1 $HLS "$@" -hls_segment_filename "$dir/seg%d.ts" "$dir/index.m3u8"
}

video() { # DIR BITRATE SIZE: H.264 only, in MPEG-TS
    dir=$1; mkdir -p "$dir"
    $FF -f lavfi -i "testsrc2=size=$3:rate=25:duration=12" -c:v libx264 -preset ultrafast -profile:v baseline -level:v 3.0 -b:v "$2" \
        -maxrate "$2" -bufsize "$2" -g 50 -keyint_min 50 -sc_threshold 0 -an $HLS \
        -hls_segment_filename "$dir/seg%d.ts" "$dir/index.m3u8"
}

# The peak as docs/measurement.md defines it for segments of about one target duration (4 s)
# each: every run is one segment, or a runt under 2 s together with its predecessor.
peak() {
    dir=$(dirname "$1")
    awk -v dir="$dir" '
        /^#EXTINF:/ { sub(/^#EXTINF:/, ""); sub(/,.*/, ""); d = $0; next }
        /^[^#]/ { cmd = "stat -c %s \"" dir "/" $0 "\""; cmd | getline b; close(cmd)
                  r = d < 2 ? (b + pb) * 8 / (d + pd) : b * 8 / d; if (r > m) m = r; pb = b; pd = d }
        END { printf "%d\n", m + 1 }' "$1"
}

for case in $CASES; do
    rm -rf "${OUT:?}/$case"; mkdir -p "$OUT/$case"; cd "$OUT/$case"
    case $case in
    double-count)
        # An audio-only variant whose URI is also its AUDIO rendition: one playlist, counted once.
        audio audio 40k; video video 150k 192x108
        a=$(peak audio/index.m3u8); v=$(peak video/index.m3u8)
        cat > master.m3u8 <<M3U
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=$((v + a)),CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=192x108,AUDIO="aud"
video/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=$a,CODECS="mp4a.40.2",AUDIO="aud"
audio/index.m3u8
M3U
        ;;
    alternate-angle)
        # A VIDEO group whose second angle is three times the first: BANDWIDTH covers only the first.
        audio audio 64k; video video 150k 192x108; video angle 450k 192x108
        a=$(peak audio/index.m3u8); v=$(peak video/index.m3u8)
        cat > master.m3u8 <<M3U
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/index.m3u8"
#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="front",DEFAULT=YES,AUTOSELECT=YES,URI="video/index.m3u8"
#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="side",DEFAULT=NO,AUTOSELECT=YES,URI="angle/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=$((v + a)),CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=192x108,AUDIO="aud",VIDEO="cam"
video/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=$a,CODECS="mp4a.40.2"
audio/index.m3u8
M3U
        ;;
    partial)
        # Three audio segments: the first missing, the second cut in the middle of a packet.
        audio audio 48k; video video 150k 192x108
        a=$(peak audio/index.m3u8); v=$(peak video/index.m3u8)
        average=$(( $(cat audio/seg*.ts | wc -c) * 8 / 12 ))
        rm audio/seg0.ts
        head -c 10000 audio/seg1.ts > audio/cut.ts && mv audio/cut.ts audio/seg1.ts
        cat > master.m3u8 <<M3U
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=$v,CODECS="avc1.42c01e",RESOLUTION=192x108
video/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=$a,AVERAGE-BANDWIDTH=$average,CODECS="mp4a.40.2"
audio/index.m3u8
M3U
        ;;
    encrypted)
        # AES-128 with a local key file and an explicit IV (-hls_key_info_file), and a copy whose
        # key is gone.
        printf '0123456789abcdef' > enc.key
        printf 'enc.key\n%s/enc.key\n000102030405060708090a0b0c0d0e0f\n' "$PWD" > keyinfo
        audio audio 48k -hls_key_info_file keyinfo; video video 150k 192x108
        a=$(peak audio/index.m3u8); v=$(peak video/index.m3u8)
        sed -i 's|URI="enc.key"|URI="../enc.key"|' audio/index.m3u8
        cat > master.m3u8 <<M3U
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=$v,CODECS="avc1.42c01e",RESOLUTION=192x108
video/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=$a,CODECS="mp4a.40.2"
audio/index.m3u8
M3U
        mkdir nokey && cp -r audio video master.m3u8 nokey/
        # Without an IV line ffmpeg omits IV=: the IV is the media sequence number (RFC 8216 §5.2).
        printf 'enc.key\n%s/enc.key\n' "$PWD" > keyinfo-sequence
        audio sequence 48k -hls_key_info_file keyinfo-sequence -start_number 7
        sed -i 's|URI="enc.key"|URI="../enc.key"|' sequence/index.m3u8
        ;;
    mp3)
        # MP3 in MPEG-TS declared with the MP4 registration authority's object type 0x6B.
        mkdir -p audio
        $FF $TONE -c:a libmp3lame -b:a 48k -ac 1 $HLS -hls_segment_filename audio/seg%d.ts audio/index.m3u8
        video video 150k 192x108
        a=$(peak audio/index.m3u8); v=$(peak video/index.m3u8)
        cat > master.m3u8 <<M3U
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=$v,CODECS="avc1.42c01e",RESOLUTION=192x108
video/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=$a,CODECS="mp4a.6B"
audio/index.m3u8
M3U
        ;;
    sample-entry)
        # fMP4 HEVC written as hev1 but declared hvc1.
        mkdir -p hevc
        $FF -f lavfi -i "testsrc2=size=192x108:rate=25:duration=12" -c:v libx265 -preset ultrafast \
            -x265-params log-level=none:keyint=50:min-keyint=50:scenecut=0 -b:v 150k -tag:v hev1 -an \
            $HLS -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 \
            -hls_segment_filename hevc/seg%d.m4s hevc/index.m3u8
        # fMP4 H.264 written as avc3 (parameter sets in band) but declared avc1.
        mkdir -p avc3
        $FF -f lavfi -i "testsrc2=size=192x108:rate=25:duration=12" -c:v libx264 -preset ultrafast \
            -profile:v baseline -level:v 3.0 -b:v 150k -g 50 -keyint_min 50 -sc_threshold 0 -tag:v avc3 -an \
            $HLS -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 \
            -hls_segment_filename avc3/seg%d.m4s avc3/index.m3u8
        audio audio 48k
        a=$(peak audio/index.m3u8); v=$(peak hevc/index.m3u8); v3=$(peak avc3/index.m3u8)
        cat > master.m3u8 <<M3U
#EXTM3U
#EXT-X-VERSION:7
#EXT-X-STREAM-INF:BANDWIDTH=$v,CODECS="hvc1.1.6.L60.90",RESOLUTION=192x108
hevc/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=$v3,CODECS="avc1.42c01e",RESOLUTION=192x108
avc3/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=$a,CODECS="mp4a.40.2"
audio/index.m3u8
M3U
        ;;
    radio)
        # A music stream without any video, at 128 kbit/s.
        audio audio 128k
        cat > master.m3u8 <<M3U
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=$(peak audio/index.m3u8),CODECS="mp4a.40.2"
audio/index.m3u8
M3U
        ;;
    above-peak)
        # An audio-only variant declaring twice its measured peak.
        audio audio 32k; video video 150k 192x108
        a=$(peak audio/index.m3u8); v=$(peak video/index.m3u8)
        cat > master.m3u8 <<M3U
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=$v,CODECS="avc1.42c01e",RESOLUTION=192x108
video/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=$((2 * a)),CODECS="mp4a.40.2"
audio/index.m3u8
M3U
        ;;
    ffmpeg-ladder)
        # ffmpeg's own multivariant output, with its defaults: two H.264/AAC variants from one
        # encode, written by -master_pl_name and -var_stream_map (no -hls_playlist_type, no
        # -hls_flags): what a user who follows ffmpeg's documentation gets.
        $FF -f lavfi -i "testsrc2=size=320x180:rate=25:duration=8" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=8" \
            -map 0:v -map 0:v -map 1:a -map 1:a -c:v libx264 -preset ultrafast -g 50 -sc_threshold 0 \
            -b:v:0 300k -b:v:1 150k -s:v:1 192x108 -c:a aac -b:a 64k -fflags +bitexact -flags:a +bitexact -flags:v +bitexact \
            -f hls -hls_time 4 -master_pl_name master.m3u8 -var_stream_map "v:0,a:0 v:1,a:1" stream_%v.m3u8
        ;;
    *) echo "unknown case $case" >&2; exit 64 ;;
    esac
    cd - >/dev/null
done
