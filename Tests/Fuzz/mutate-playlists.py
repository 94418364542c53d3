#!/usr/bin/env python3
"""Seeded mutations of the sample playlists through a built hlscheck binary (not run in CI).

    swift build -c release --product hlscheck
    python3 Tests/Fuzz/mutate-playlists.py [--binary .build/release/hlscheck] [--count 20000] [--seed 8] [--media]

Every mutation is checked in every report format (--playlist-only unless --media). A run fails
when hlscheck exits with anything but 0, 1 or 2 (a trap is 132 or 134), takes longer than the
timeout, prints `{}` as its JSON report, or writes a Swift runtime message on stderr. Failing
inputs are kept under --keep (default /tmp/hlscheck-fuzz) to reproduce.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HOSTILE_NUMBERS = [
    "9223372036854775807", "18446744073709551616", "-1.5", "1e-30", "0." + "0" * 29 + "1", "1e17",
    "100000000000000000000", "400000000000000000000000", "9" * 400, "0", "-0", "nan", "inf", "4294967296",
    "0.0000001", "999999.9999999", "1000000.0000001", "9007199254740993", "", "0x10", "65536x65536",
    "1@9223372036854775807", "9223372036854775807@1",
]
HOSTILE_LINES = [
    "#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807", "#EXT-X-TARGETDURATION:0", "#EXTINF:1000000,",
    "#EXT-X-MEDIA-SEQUENCE:9223372036854775807", "#EXT-X-PART-INF:PART-TARGET=1e400",
    "#EXT-X-START:TIME-OFFSET=-99999999999999999999", '#EXT-X-DEFINE:NAME="v",VALUE="{$v}{$v}"',
    "#EXT-X-STREAM-INF:BANDWIDTH=0,RESOLUTION=0x0,FRAME-RATE=0", "#EXT-X-SKIP:SKIPPED-SEGMENTS=9223372036854775807",
    "#EXTINF:0,", "#EXT-X-BITRATE:9223372036854775807",
]
SPECIALS = list('",=:@\n-x.{}$9 #')
FORMATS = ["text", "json", "junit", "github", "sarif"]


def mutate(text, rng):
    lines = text.split("\n")
    kind = rng.randrange(6)
    if kind in (0, 1):
        runs, i = [], 0
        while i < len(text):
            if text[i].isdigit():
                start = i
                while i < len(text) and (text[i].isdigit() or text[i] == "."):
                    i += 1
                runs.append((start, i))
            else:
                i += 1
        if not runs:
            return text
        start, end = rng.choice(runs)
        return text[:start] + rng.choice(HOSTILE_NUMBERS) + text[end:]
    if kind == 2:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(HOSTILE_LINES))
    elif kind == 3:
        chars = list(text)
        for _ in range(1 + rng.randrange(4)):
            if chars:
                chars[rng.randrange(len(chars))] = rng.choice(SPECIALS)
        return "".join(chars)
    elif kind == 4:
        if lines:
            del lines[rng.randrange(len(lines))]
        if lines:
            lines.insert(rng.randrange(len(lines) + 1), lines[rng.randrange(len(lines))])
    else:
        return text[: rng.randrange(len(text) + 1)]
    return "\n".join(lines)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/hlscheck"))
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("--media", action="store_true", help="measure segments too (slower)")
    parser.add_argument("--keep", default="/tmp/hlscheck-fuzz")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    samples = ["compliant", "fmp4", "packed-audio", "no-audio-only"]
    work = tempfile.mkdtemp(prefix="hlscheck-fuzz-")
    failures, slowest, started = 0, (0.0, ""), time.time()
    try:
        for sample in samples:
            shutil.copytree(os.path.join(root, "Samples", sample), os.path.join(work, sample))
        for n in range(args.count):
            sample = samples[n % len(samples)]
            folder = os.path.join(work, sample)
            playlists = sorted(
                os.path.relpath(os.path.join(d, f), folder)
                for d, _, files in os.walk(folder) for f in files if f.endswith(".m3u8"))
            target = rng.choice(playlists)
            path = os.path.join(folder, target)
            original = open(path, encoding="utf-8").read()
            text = original
            for _ in range(1 + rng.randrange(3)):
                text = mutate(text, rng)
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            format_ = FORMATS[n % len(FORMATS)]
            command = [args.binary, "master.m3u8", "--format", format_] + ([] if args.media else ["--playlist-only"])
            began = time.time()
            try:
                result = subprocess.run(command, cwd=folder, capture_output=True, timeout=args.timeout)
                status, out, err = result.returncode, result.stdout, result.stderr
            except subprocess.TimeoutExpired:
                status, out, err = "timeout", b"", b""
            took = time.time() - began
            if took > slowest[0]:
                slowest = (took, f"{sample}/{target} #{n}")
            bad = (status not in (0, 1, 2) or b"runtime failure" in err or b"Fatal error" in err
                   or (format_ == "json" and out.strip() == b"{}"))
            if bad:
                failures += 1
                keep = os.path.join(args.keep, f"{n:06d}-{sample}")
                shutil.copytree(folder, keep, dirs_exist_ok=True)
                print(f"FAIL #{n} {sample}/{target} --format {format_}: exit {status}; kept in {keep}", flush=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.count} mutations, {failures} failures, {time.time() - started:.1f} s, "
          f"slowest {slowest[0]:.2f} s ({slowest[1]})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
