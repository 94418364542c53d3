#!/usr/bin/env python3
"""What a screenshot shows, for the HTML report's browser tests, without an imaging library:
decodes an 8-bit RGB or RGBA PNG (as Chromium writes them) with zlib and prints a JSON object:
width, height, "background" (the luma, 0-255, of the top-left pixel) and "ink" (how many pixels
of the box X0 Y0 X1 Y1, default the whole image, differ from that pixel by more than 24 in a channel).

    png-ink.py shot.png [X0 Y0 X1 Y1]
"""
import json, struct, sys, zlib

def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), "only 8-bit RGB/RGBA"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return width, height, channels, rows

width, height, channels, rows = decode(sys.argv[1])
x0, y0, x1, y1 = map(int, sys.argv[2:6]) if len(sys.argv) >= 6 else (0, 0, width, height)
background = rows[0][0:3]
ink = sum(1 for y in range(y0, min(y1, height)) for x in range(x0, min(x1, width))
          if max(abs(rows[y][x * channels + k] - background[k]) for k in range(3)) > 24)
luma = (299 * background[0] + 587 * background[1] + 114 * background[2]) // 1000
print(json.dumps({"width": width, "height": height, "background": luma, "ink": ink}))
