#!/bin/sh
# Regenerates the MediaInspection test fixtures. Run by hand (tests never run ffmpeg).
# Deterministic: bit-exact flags, synthetic sources, tiny sizes. Needs ffmpeg with libx264
# and libmp3lame. Expected facts are asserted in MediaInspectionTests.
set -eu
cd "$(dirname "$0")"
FF="ffmpeg -hide_banner -loglevel error -y"
BX="-fflags +bitexact -flags +bitexact"
SINE="-f lavfi -i sine=frequency=440:sample_rate=44100:duration=2"
VID="-f lavfi -i testsrc=size=128x72:rate=10:duration=2"

# Posters (also used as APIC payloads below).
$FF -f lavfi -i testsrc=size=64x48:rate=1 -frames:v 1 $BX -q:v 8 poster.jpg
$FF -f lavfi -i testsrc=size=40x30:rate=1 -frames:v 1 $BX poster.png

# Audio-only AAC-LC stereo in MPEG-TS, 2 s.
$FF $SINE -ac 2 -c:a aac -b:a 48k $BX -mpegts_flags +initial_discontinuity -f mpegts audio-aac.ts
# H.264 (High, 128x72, 10 fps) + AAC mono in MPEG-TS, 2 s.
$FF $VID $SINE -map 0:v -map 1:a -c:v libx264 -profile:v high -preset veryfast -g 10 \
    -x264-params threads=1 -pix_fmt yuv420p -c:a aac -ac 1 -b:a 32k $BX -f mpegts video-h264-aac.ts
# Packed audio: ADTS AAC with a leading ID3 tag carrying the Apple PRIV timestamp (RFC 8216 §3.4).
$FF $SINE -ac 2 -c:a aac -b:a 48k $BX -write_id3v2 1 \
    -metadata "id3v2_priv.com.apple.streaming.transportStreamTimestamp=\x00\x00\x00\x00\x00\x01\x5f\x90" \
    -f adts audio.aac
# Packed audio: MP3 with the PRIV timestamp and the JPEG poster as APIC.
$FF $SINE -i poster.jpg -map 0:a -map 1:v -c:a libmp3lame -b:a 32k -c:v copy -ac 1 $BX \
    -id3v2_version 4 -metadata:s:v title="poster" -metadata:s:v comment="Cover (front)" \
    -metadata "id3v2_priv.com.apple.streaming.transportStreamTimestamp=\x00\x00\x00\x00\x00\x00\x00\x00" \
    -write_xing 0 -f mp3 audio-apic.mp3
# Packed AC-3, 5.1, no ID3.
$FF $SINE -af "pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0" -c:a ac3 -b:a 192k $BX -f ac3 audio.ac3
# fMP4: init segment + one 2 s fragment (AAC-LC stereo).
rm -rf fmp4.tmp && mkdir fmp4.tmp
$FF $SINE -ac 2 -c:a aac -b:a 48k $BX -f hls -hls_segment_type fmp4 -hls_time 4 \
    -hls_fmp4_init_filename init.mp4 -hls_segment_filename 'fmp4.tmp/seg%d.m4s' fmp4.tmp/index.m3u8
mv fmp4.tmp/init.mp4 fmp4-init.mp4 && mv fmp4.tmp/seg0.m4s fmp4-seg0.m4s && rm -rf fmp4.tmp
ls -l
# Posters for ImageFitter: a 640x360 JPEG of tens of KB to shrink, and a half-transparent
# white RGBA PNG (composited over black it must come out mid-grey).
$FF -f lavfi -i testsrc2=size=640x360:rate=1 -frames:v 1 $BX -q:v 2 poster-large.jpg
$FF -f lavfi -i "color=c=white@0.5:size=32x24:rate=1,format=rgba" -frames:v 1 $BX poster-alpha.png
# MPEG-TS from another muxer: GStreamer's mpegtsmux (through hlssink2) pads its PAT/PMT packets
# with adaptation-field stuffing instead of 0xFF section stuffing. Needs gst-launch-1.0 with
# gstreamer1.0-plugins-bad and gstreamer1.0-libav; the second (1 s) audio-only segment, mono AAC.
if command -v gst-launch-1.0 >/dev/null; then
  rm -rf gst.tmp && mkdir gst.tmp
  gst-launch-1.0 -q audiotestsrc num-buffers=130 samplesperbuffer=1024 ! audio/x-raw,rate=44100,channels=1 \
    ! audioconvert ! avenc_aac bitrate=32000 ! aacparse ! queue ! hls.audio \
    hlssink2 name=hls target-duration=2 send-keyframe-requests=false playlist-location=gst.tmp/index.m3u8 location=gst.tmp/seg%d.ts \
      max-files=0 playlist-length=0
  mv gst.tmp/seg1.ts gstreamer-audio.ts && rm -rf gst.tmp
fi
