#!/usr/bin/env bash
# Part of `make bench`: growth along every input dimension (line length, path depth, URI length
# × variants, names per directive, findings per line, variants, renditions, segments, DEFINE
# expansion, each report format). Each input is doubled four times; the table gives CPU time,
# peak RSS and report size at the smallest and largest size and the exponent fitted over all
# five (1: linear). Fails when an exponent is over 1.2 (docs/benchmarks.md, "Growth").
#   HLSCHECK_BIN=path      the binary to measure (default .build/release/hlscheck)
#   GROWTH_FACTOR=0.25     scales every base size (a quick look)
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 Tests/Benchmarks/growth.py --bin "${HLSCHECK_BIN:-.build/release/hlscheck}" --factor "${GROWTH_FACTOR:-1}"
