#!/usr/bin/env bash
# Part of `make bench` ("Speed"): the playlist side at scale, side by side with Python
# m3u8 (`pip install m3u8`), as whole processes; start-up; and peak RSS against stream length.
#   - the 9 211-segment live playlist of the corpus (theRealRobG/m3u8 benches), and the same
#     repeated ten times into one continuous 92 110-segment playlist (segment numbers, dates and
#     DATERANGE ids shifted), 10.7 MB;
#   - `hlscheck --version`, and a 1-segment playlist;
#   - peak RSS (GNU time) of --playlist-only for 100 / 1 000 / 10 000 / 92 110 segments, and of
#     a full check for 100 / 1 000 / 10 000 segments (hard links to one 1 s audio TS segment,
#     each under its own name, so each is read and demuxed).
#   HLSCHECK_BASELINE=path   another binary (e.g. a build of main), timed in the same hyperfine
#                            run on the two big playlists
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }
bin=.build/release/hlscheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus=${HLSCHECK_CORPUS:-../shared/corpus}
source_playlist=$corpus/theRealRobG-m3u8/benches/long_media_playlist.m3u8

python3 - "$source_playlist" "$work" <<'PY'
# long9k.m3u8: the corpus playlist (or, without the corpus, one of the same shape);
# long92k.m3u8: it ten times over, as one stream; short-N.m3u8: its first N segments.
import datetime, os, re, sys
source, work = sys.argv[1], sys.argv[2]
if os.path.exists(source):
    text = open(source, encoding="utf-8").read()
else:
    start = datetime.datetime(2022, 6, 10, 3, 31, 0, 189000)
    lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-MEDIA-SEQUENCE:541647", "#EXT-X-VERSION:6",
             '#EXT-X-MAP:URI="item_init.m4i"', "#EXT-X-KEY:METHOD=NONE"]
    for i in range(9211):
        when = start + datetime.timedelta(seconds=3.904 * i)
        lines += ["#EXT-X-PROGRAM-DATE-TIME:" + when.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z", "#EXTINF:3.904,",
                  "item_Segment-%d.mp4" % (541647 + i)]
    text = "\n".join(lines) + "\n"
open(os.path.join(work, "long9k.m3u8"), "w").write(text)
lines = text.split("\n")
first = next(i for i, l in enumerate(lines) if l.startswith("#EXT-X-PROGRAM-DATE-TIME"))
header, body = lines[:first], [l for l in lines[first:] if l]
segments = sum(1 for l in body if l.startswith("#EXTINF"))
parse = lambda s: datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ")
dates = [l.split(":", 1)[1] for l in body if l.startswith("#EXT-X-PROGRAM-DATE-TIME")]
span = parse(dates[-1]) - parse(dates[0]) + datetime.timedelta(seconds=3.904)
iso = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z")
number = re.compile(r"Segment-(\d+)")
out = list(header)
for k in range(10):
    for l in body:
        if k:
            l = iso.sub(lambda m: (parse(m.group(0)) + span * k).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z", l)
            l = number.sub(lambda m: "Segment-%d" % (int(m.group(1)) + segments * k), l)
            l = re.sub(r'(?<![A-Z-])ID="', 'ID="r%d-' % k, l)
        out.append(l)
open(os.path.join(work, "long92k.m3u8"), "w").write("\n".join(out) + "\n")
# The first N segments (an EXTINF and its URI line each), for the RSS series.
for n in (100, 1000, 10000):
    kept, seen = [], 0
    for l in out:
        kept.append(l)
        if l and not l.startswith("#"):
            seen += 1
            if seen == n:
                break
    open(os.path.join(work, "short-%d.m3u8" % n), "w").write("\n".join(kept) + "\n#EXT-X-ENDLIST\n")
PY
printf '#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg.ts\n#EXT-X-ENDLIST\n' >"$work/tiny.m3u8"
echo "Playlists: $(grep -c '^#EXTINF' "$work/long9k.m3u8") and $(grep -c '^#EXTINF' "$work/long92k.m3u8") segments ($(du -h "$work/long92k.m3u8" | cut -f1))"

if python3 -c 'import m3u8' 2>/dev/null; then
    m3u8_version=$(python3 -c 'import importlib.metadata as m; print(m.version("m3u8"))')
    python_9k=(-n "Python m3u8 $m3u8_version, 9 211 segments" "python3 -c 'import m3u8; m3u8.load(\"$work/long9k.m3u8\")'")
    python_92k=(-n "Python m3u8 $m3u8_version, 92 110 segments" "python3 -c 'import m3u8; m3u8.load(\"$work/long92k.m3u8\")'")
else
    echo "(Python m3u8 is not installed: pip install m3u8 — its rows are left out)"
    python_9k=() python_92k=()
fi
baseline_rows=()
if [ -n "${HLSCHECK_BASELINE:-}" ]; then
    baseline_rows=(-n "baseline --playlist-only, 9 211 segments" "$HLSCHECK_BASELINE $work/long9k.m3u8 --playlist-only --fail-on never"
                   -n "baseline --playlist-only, 92 110 segments" "$HLSCHECK_BASELINE $work/long92k.m3u8 --playlist-only --fail-on never")
fi
hyperfine --warmup 1 --runs 5 --style basic --export-json "$work/parse.json" \
    "${baseline_rows[@]}" \
    -n "hlscheck --playlist-only, 9 211 segments" "$bin $work/long9k.m3u8 --playlist-only --fail-on never" \
    "${python_9k[@]}" \
    -n "hlscheck --playlist-only, 92 110 segments" "$bin $work/long92k.m3u8 --playlist-only --fail-on never" \
    "${python_92k[@]}" \
    -n "hlscheck --version" "$bin --version" \
    -n "hlscheck --playlist-only, 1 segment" "$bin $work/tiny.m3u8 --playlist-only --fail-on never" >/dev/null
python3 - "$work/parse.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
by = {r["command"]: r for r in results}
print("| command | mean ± σ | user + sys | Python m3u8 ÷ hlscheck |")
print("|---|---:|---:|---:|")
for r in results:
    ratio = ""
    name = r["command"]
    if name.startswith("hlscheck --playlist-only, 9") or name.startswith("baseline --playlist-only, 9"):
        size = name.split(", ")[1]
        py = next((p for p in results if p["command"].startswith("Python") and p["command"].endswith(size)), None)
        if py: ratio = "%.1f×" % (py["mean"] / r["mean"])
    print("| %s | %.1f ± %.1f ms | %.1f ms | %s |" % (name, r["mean"] * 1000, r["stddev"] * 1000,
          (r["user"] + r["system"]) * 1000, ratio))
PY

# Peak RSS against stream length.
echo
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=1" \
    -c:a aac -b:a 32k -f mpegts "$work/one.ts"
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
echo "| segments | --playlist-only peak RSS | full check peak RSS |"
echo "|---:|---:|---:|"
for n in 100 1000 10000 92110; do
    playlist=$work/short-$n.m3u8
    [ "$n" = 92110 ] && playlist=$work/long92k.m3u8
    only=$(rss "$bin" "$playlist" --playlist-only --fail-on never)
    full="-"
    if [ "$n" -le 10000 ]; then
        dir=$work/segments-$n
        mkdir -p "$dir"
        # Each copy restarts its timestamps and counters: a discontinuity each, so the check
        # finds nothing per segment and what grows is what it keeps, not a list of findings.
        { printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n'
          for i in $(seq 1 "$n"); do ln "$work/one.ts" "$dir/s$i.ts"; printf '#EXT-X-DISCONTINUITY\n#EXTINF:1.0,\ns%d.ts\n' "$i"; done
          printf '#EXT-X-ENDLIST\n'; } >"$dir/index.m3u8"
        full=$(rss "$bin" "$dir/index.m3u8" --fail-on never)
        full="$((full / 1024)) MB"
        rm -rf "$dir"
    fi
    echo "| $n | $((only / 1024)) MB | $full |"
    [ "$n" = 10000 ] && only_10k=$only
    [ "$n" = 92110 ] && only_92k=$only
done
# What the playlist side keeps per segment: the slope between 10 000 and 92 110 segments
# (the file read whole is 1.16 MB of it per 10 000 segments of this playlist).
awk -v a="$only_10k" -v b="$only_92k" 'BEGIN { printf "\n--playlist-only grows by %.2f MB per 10 000 segments (10 000 → 92 110)\n", (b - a) / 1024 / 8.211 }'
