#!/usr/bin/env bash
# Part of `make bench`: the same 600-segment stream checked from local files and served over
# loopback HTTP/1.1 (keep-alive, a threading Python server), side by side in one hyperfine run.
# Target (issue 11): remote within 1.5x of local, because fetching overlaps inspecting.
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
seconds=1200
mkdir -p "$work/audio"
echo "Generating a ${seconds} s audio-only stream of 2 s segments in $work ..."
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=$seconds" \
  -c:a aac -b:a 32k -ac 2 -f hls -hls_time 2 -hls_playlist_type vod \
  -hls_segment_filename "$work/audio/seg%d.ts" "$work/audio/index.m3u8"
cat > "$work/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=50000,CODECS="mp4a.40.2"
audio/index.m3u8
M3U8
segments=$(ls "$work"/audio/*.ts | wc -l)
echo "$segments segments, $(du -sh "$work" | cut -f1)"

# A keep-alive HTTP/1.1 static server on a free loopback port; it stops with this script.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
python3 - "$work" "$port" <<'PY' &
import functools, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Head and body go out in separate writes: with Nagle on, each response waits for the
    # client's delayed ACK (40 ms), which would measure the server, not hlscheck.
    disable_nagle_algorithm = True
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t"}
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), functools.partial(Handler, directory=sys.argv[1]))
server.serve_forever()
PY
server_pid=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/master.m3u8" >/dev/null 2>&1 && break; sleep 0.1; done

bin=${HLSCHECK_BIN:-.build/release/hlscheck}
echo "What hlscheck finds (local, then remote):"
"$bin" "$work/master.m3u8" | tail -3 | sed "s|$work|STREAM|g" || true
"$bin" "http://127.0.0.1:$port/master.m3u8" | tail -3 | sed "s|127.0.0.1:$port|HOST|g" || true
hyperfine --warmup 1 --runs 7 --style basic --export-json "$work/results.json" \
  -n "hlscheck local files" "$bin $work/master.m3u8 || true" \
  -n "hlscheck http://127.0.0.1 (loopback)" "$bin http://127.0.0.1:$port/master.m3u8 || true"
echo
python3 - "$work/results.json" "$segments" <<'PY2'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
segments = int(sys.argv[2])
local = results[0]["median"]
print("| command | median | per segment | ÷ local |")
print("|---|---:|---:|---:|")
for r in results:
    print(f"| {r['command']} | {r['median'] * 1000:.1f} ms | {r['median'] * 1000 / segments:.3f} ms | {r['median'] / local:.2f}× |")
PY2
