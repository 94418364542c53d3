#!/usr/bin/env python3
"""Growth of hlscheck's cost along each input dimension (`make bench`, part 75-growth).

For each dimension, one playlist generator with a size parameter: the input is doubled four
times (size n, 2n, 4n, 8n, 16n), each input is checked by the binary (`--playlist-only`, so
only hlscheck's own work is timed, not libavformat's), and the CPU time (user + system) and the
peak resident set are the child's own (wait4). The exponent is the slope of a least-squares fit
of log(cost) over log(size): 1 is linear, 2 quadratic. Process start (≈ 35 MB, ≈ 10 ms) is part
of every figure, which pulls the whole-process exponent towards 0; so the CPU exponent is fitted
again to the time above that floor (an empty check) where the input adds a measurable share
("flat" where even the largest input adds under 50 ms: the dimension is bounded), and memory
above the floor is given per byte of input at the largest size (a constant means linear).

    python3 Tests/Benchmarks/growth.py [--bin .build/release/hlscheck] [--only NAME] [--runs 3]
        [--factor 1.0]

`--factor` scales every base size (0.25 for a quick look). Prints a Markdown table; every fitted
exponent should be at most 1.2 (docs/benchmarks.md, "Growth").
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

MEDIA_HEAD = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        out.write(text)


def media(segments=1, duration="6.0"):
    return MEDIA_HEAD + "".join(f"#EXTINF:{duration},\nseg{i}.ts\n" for i in range(segments)) + "#EXT-X-ENDLIST\n"


# Each generator writes a stream into `folder` for size `n` and returns the playlist to check.
def line_length(folder, n):
    # One multivariant line of n bytes: a quoted attribute value.
    write(f"{folder}/v.m3u8", media())
    write(f"{folder}/p.m3u8",
          '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000,CODECS="mp4a.40.2",X-NOTE="' + "a" * n + '"\nv.m3u8\n')
    return f"{folder}/p.m3u8"


def path_depth(folder, n):
    # One segment URI of n path components that name no folder (d/d/…/seg.ts).
    write(f"{folder}/p.m3u8", MEDIA_HEAD + "#EXTINF:6.0,\n" + "d/" * n + "seg.ts\n#EXT-X-ENDLIST\n")
    return f"{folder}/p.m3u8"


def uri_length_and_variants(folder, n):
    # One variant URI of 64·n bytes beside n/4 short ones (the text table's widest cell).
    write(f"{folder}/v.m3u8", media())
    lines = ["#EXTM3U"]
    lines += ['#EXT-X-STREAM-INF:BANDWIDTH=100000,CODECS="mp4a.40.2"', "x" * (64 * n) + ".m3u8"]
    for i in range(n // 4):
        lines += [f'#EXT-X-STREAM-INF:BANDWIDTH={100000 + i},CODECS="mp4a.40.2"', "v.m3u8"]
    write(f"{folder}/p.m3u8", "\n".join(lines) + "\n")
    return f"{folder}/p.m3u8"


def names_per_directive(folder, n):
    # One suppression comment naming n rules that do not exist.
    write(f"{folder}/p.m3u8", MEDIA_HEAD + "# hlscheck-disable-next-line " + " ".join(f"x{i}" for i in range(n))
          + "\n#EXTINF:6.0,\nseg.ts\n#EXT-X-ENDLIST\n")
    return f"{folder}/p.m3u8"


def findings_per_line(folder, n):
    # One line with n problems (attributes without a value), reported as SARIF, whose
    # fingerprints hash the finding's line.
    write(f"{folder}/v.m3u8", media())
    write(f"{folder}/p.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000," + "A," * n + "X=1\nv.m3u8\n")
    return f"{folder}/p.m3u8"


def variants(folder, n):
    lines = ["#EXTM3U"]
    for i in range(n):
        write(f"{folder}/v{i}.m3u8", media())
        lines += [f'#EXT-X-STREAM-INF:BANDWIDTH={100000 + i},CODECS="mp4a.40.2"', f"v{i}.m3u8"]
    write(f"{folder}/p.m3u8", "\n".join(lines) + "\n")
    return f"{folder}/p.m3u8"


def renditions(folder, n):
    write(f"{folder}/v.m3u8", media())
    lines = ["#EXTM3U"]
    for i in range(n):
        write(f"{folder}/a{i}.m3u8", media())
        lines.append(f'#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="a{i}",LANGUAGE="en",URI="a{i}.m3u8"')
    lines += ['#EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS="mp4a.40.2,avc1.64001f",AUDIO="a"', "v.m3u8"]
    write(f"{folder}/p.m3u8", "\n".join(lines) + "\n")
    return f"{folder}/p.m3u8"


def segments(folder, n):
    write(f"{folder}/p.m3u8", media(n))
    return f"{folder}/p.m3u8"


def define_expansion(folder, n):
    # Every segment URI is four references to a 64-byte variable: 4·64 bytes each from 23.
    text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    text += '#EXT-X-DEFINE:NAME="v",VALUE="' + "s" * 64 + '"\n'
    text += "".join(f"#EXTINF:6.0,\n{{$v}}{{$v}}{{$v}}{{$v}}{i}.ts\n" for i in range(n)) + "#EXT-X-ENDLIST\n"
    write(f"{folder}/p.m3u8", text)
    return f"{folder}/p.m3u8"


def findings_per_segment(folder, n):
    # n segments, each longer than the target duration: one finding each, in every format.
    write(f"{folder}/p.m3u8", media(n, duration="9.0"))
    return f"{folder}/p.m3u8"


def query_spellings(folder, n):
    # n renditions that name one media playlist, each with a query of its own (a/index.m3u8?r=N):
    # one file, n spellings, each of which the loader must map to the one it read.
    write(f"{folder}/a/index.m3u8", media())
    write(f"{folder}/v.m3u8", media())
    lines = ["#EXTM3U"]
    lines += [f'#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="r{i}",URI="a/index.m3u8?r={i}"' for i in range(n)]
    lines += ['#EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS="mp4a.40.2,avc1.64001f",AUDIO="a"', "v.m3u8"]
    write(f"{folder}/p.m3u8", "\n".join(lines) + "\n")
    return f"{folder}/p.m3u8"


def variants_with_findings(folder, n):
    # n variants, one media playlist each, each with a finding (no CODECS): the HTML report's
    # variant table and its findings grow with n.
    lines = ["#EXTM3U"]
    for i in range(n):
        write(f"{folder}/v{i}.m3u8", media())
        lines += [f"#EXT-X-STREAM-INF:BANDWIDTH={100000 + i}", f"v{i}.m3u8"]
    write(f"{folder}/p.m3u8", "\n".join(lines) + "\n")
    return f"{folder}/p.m3u8"


def long_segment_lines(folder, n):
    # n segments whose 1 KB URIs each carry a finding (EXTINF over the target duration): what
    # SARIF holds per finding (its snippet, fingerprint and message) over the input's size.
    text = MEDIA_HEAD + "".join(f"#EXTINF:9.0,\n{'s' * 1000}{i}.ts\n" for i in range(n)) + "#EXT-X-ENDLIST\n"
    write(f"{folder}/p.m3u8", text)
    return f"{folder}/p.m3u8"


def quoted_define_expansions(folder, n):
    # n variants whose CODECS is four references to one 64-byte variable that names no codec:
    # each finding quotes the expanded value, 256 bytes from 28 written.
    write(f"{folder}/v.m3u8", media())
    lines = ["#EXTM3U", "#EXT-X-VERSION:8", '#EXT-X-DEFINE:NAME="c",VALUE="' + "x" * 64 + '"']
    for i in range(n):
        lines += [f'#EXT-X-STREAM-INF:BANDWIDTH={100000 + i},CODECS="{{$c}}{{$c}}{{$c}}{{$c}}"', "v.m3u8"]
    write(f"{folder}/p.m3u8", "\n".join(lines) + "\n")
    return f"{folder}/p.m3u8"


FORMATS = ["json", "text", "sarif", "junit", "github", "html"]

# (name, generator, base size, what the size counts, report format)
DIMENSIONS = [
    ("line length", line_length, 250_000, "bytes of one line", "json"),
    ("path depth", path_depth, 40_000, "components of one URI", "json"),
    ("URI length × variants", uri_length_and_variants, 1_000, "64·n-byte URI, n/4 variants", "text"),
    ("names per directive", names_per_directive, 16_000, "rule names in one comment", "json"),
    ("findings per line", findings_per_line, 100_000, "problems on one line", "sarif"),
    ("variants", variants, 250, "variants (a media playlist each)", "json"),
    ("renditions", renditions, 250, "renditions in one group", "json"),
    ("segments", segments, 12_500, "segments", "json"),
    ("DEFINE expansion", define_expansion, 6_250, "segment URIs of 4 references", "json"),
    ("query spellings of one playlist", query_spellings, 1_000, "renditions naming a/index.m3u8?r=N", "json"),
    ("HTML report over variants", variants_with_findings, 250, "variants with a finding each", "html"),
    ("SARIF over input size", long_segment_lines, 1_000, "1 KB segment lines with a finding each", "sarif"),
    ("quoted DEFINE expansions", quoted_define_expansions, 1_000, "variants quoting a 256-byte expansion", "json"),
] + [(f"report format: {f}", findings_per_segment, 2_500, "segments with a finding each", f) for f in FORMATS]


def measure(binary, playlist, fmt, runs):
    """Least CPU seconds and peak RSS (MB) of `runs` runs, and the report's size in bytes. The
    child's own resource usage (wait4): microseconds, not /usr/bin/time's hundredths."""
    best = None
    for _ in range(runs):
        with tempfile.NamedTemporaryFile() as report:
            command = [binary, playlist, "--playlist-only", "--max-playlists", "100000", "--max-segments", "1000000",
                       "--format", fmt, "--color", "never"]
            child = subprocess.Popen(command, stdout=report, stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(child.pid, 0)
            child.returncode = 0
            sample = (usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.path.getsize(report.name))
            best = sample if best is None or sample[0] < best[0] else (best[0], min(best[1], sample[1]), best[2])
    return best


def exponent(sizes, values):
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(v, 1e-6)) for v in values]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def growth_exponent(sizes, values, floor, measurable):
    """The exponent of the cost above the process floor (start-up, an empty check): what the
    input adds. None when even the largest input adds less than `measurable` (the dimension
    costs next to nothing: bounded)."""
    excess = [v - floor for v in values]
    if excess[-1] < measurable:
        return None
    points = [(s, e) for s, e in zip(sizes, excess) if e >= measurable / 4]
    if len(points) < 3:
        points = list(zip(sizes, excess))[-3:]
    return exponent([s for s, _ in points], [max(e, 1e-6) for _, e in points])


def shown(value):
    return "flat" if value is None else f"{value:.2f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/hlscheck")
    parser.add_argument("--only", default="")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--factor", type=float, default=1.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        write(f"{folder}/p.m3u8", media())
        floor_cpu, floor_rss, _ = measure(args.bin, f"{folder}/p.m3u8", "json", max(args.runs, 5))
    print(f"Floor (a one-segment playlist, JSON): {floor_cpu * 1000:.0f} ms CPU, {floor_rss:.0f} MB peak RSS.\n")
    print("| dimension (format) | size n … 16n | input | CPU n → 16n | peak RSS n → 16n | report n → 16n "
          "| exponent CPU | exponent RSS | CPU above the floor | RSS above the floor per input byte |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for name, generate, base, unit, fmt in DIMENSIONS:
        if args.only and args.only not in name:
            continue
        sizes, cpu, rss, out, inputs = [], [], [], [], []
        for step in range(5):
            n = max(4, int(base * args.factor)) * 2 ** step
            with tempfile.TemporaryDirectory() as folder:
                playlist = generate(folder, n)
                inputs.append(sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(folder) for f in fs))
                seconds, megabytes, size = measure(args.bin, playlist, fmt, args.runs)
            sizes.append(n)
            cpu.append(seconds)
            rss.append(megabytes)
            out.append(size)
        e_cpu, e_rss = exponent(sizes, cpu), exponent(sizes, rss)
        g_cpu = growth_exponent(sizes, cpu, floor_cpu, 0.05)
        # Memory above the floor is quantised by the allocator (a heap grows by whole mappings),
        # so its exponent over a few MB says little: the bytes per input byte at 16n say whether
        # memory is proportional to the input.
        per_byte = max(0.0, rss[-1] - floor_rss) * 1024 * 1024 / inputs[-1]
        worst = max([worst, e_cpu, e_rss] + ([g_cpu] if g_cpu is not None else []))
        print(f"| {name} ({fmt}) | {sizes[0]:,} … {sizes[-1]:,} {unit} | {inputs[0] / 1024:,.0f} → {inputs[-1] / 1024:,.0f} KB "
              f"| {cpu[0] * 1000:.0f} → {cpu[-1] * 1000:.0f} ms | {rss[0]:.0f} → {rss[-1]:.0f} MB "
              f"| {out[0] / 1024:,.0f} → {out[-1] / 1024:,.0f} KB | {e_cpu:.2f} | {e_rss:.2f} | {shown(g_cpu)} | {per_byte:.1f} |",
              flush=True)
    print(f"\nLargest exponent: {worst:.2f} (linear growth keeps it at or under 1.2)")
    return 0 if worst <= 1.2 else 1


if __name__ == "__main__":
    sys.exit(main())
