"""tests/browser/pngstat.py — read the PNG files Chromium's
headless screenshots are (8-bit RGB or RGBA, not interlaced), and count a
region's non-background pixels and colours: Python's standard library only.

The format is the PNG specification's (W3C PNG 2nd ed., 2003): chunks
(section 5.3), IHDR (11.2.2), zlib-compressed IDAT (10), one filter byte a
scanline and the five filters None, Sub, Up, Average, Paeth (section 9.2).
Chromium's screenshots taken with optimizeForSpeed (DevTools protocol,
Page.captureScreenshot) are all Up rows, undone here on whole rows at once
as integers: a 1200x2700 page in about 0.1 s; the other filters (its default
encoding, mostly Up and Paeth) byte by byte, some 20 times slower."""

import collections
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PngError(Exception):
    pass


def _chunks(data):
    pos = len(SIGNATURE)
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        yield data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length


def _add_rows(filt, prior):
    """Bytewise (filt + prior) mod 256 on whole rows (the Up filter): the
    high bit of each byte is added apart so that no carry crosses bytes."""
    n = len(filt)
    low = b"\x7f" * n
    a = int.from_bytes(filt, "big")
    b = int.from_bytes(prior, "big")
    m = int.from_bytes(low, "big")
    s = ((a & m) + (b & m)) ^ ((a ^ b) & ~m & ((1 << (8 * n)) - 1))
    return s.to_bytes(n, "big")


def _paeth(a, b, c):
    # PNG spec section 9.4: the neighbour nearest to a + b - c.
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(ftype, filt, prior, bpp):
    if ftype == 0:
        return bytes(filt)
    if ftype == 2:
        return _add_rows(filt, prior)
    out = bytearray(filt)
    for i in range(len(out)):
        a = out[i - bpp] if i >= bpp else 0
        if ftype == 1:
            out[i] = (out[i] + a) & 255
        elif ftype == 3:
            out[i] = (out[i] + ((a + prior[i]) >> 1)) & 255
        elif ftype == 4:
            c = prior[i - bpp] if i >= bpp else 0
            out[i] = (out[i] + _paeth(a, prior[i], c)) & 255
        else:
            raise PngError("unknown filter type %d" % ftype)
    return bytes(out)


def read(path):
    """(width, height, bytes per pixel, rows): rows a list of bytes."""
    with open(path, "rb") as f:
        return decode(f.read())


def decode(data):
    """read()'s answer for the bytes of a PNG file."""
    if not data.startswith(SIGNATURE):
        raise PngError("not a PNG file")
    header, idat = None, []
    for ctype, body in _chunks(data):
        if ctype == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat.append(body)
    if header is None:
        raise PngError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise PngError("not 8-bit RGB/RGBA non-interlaced (depth %d, colour type %d)"
                       % (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    if len(raw) != (stride + 1) * height:
        raise PngError("image data is %d bytes, not %d" % (len(raw), (stride + 1) * height))
    rows, prior = [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        prior = _unfilter(raw[start], raw[start + 1:start + 1 + stride], prior, bpp)
        rows.append(prior)
    return width, height, bpp, rows


def region_stats(image, box, max_colours=16):
    """(fraction of pixels unlike the region's most common colour, number of
    distinct colours up to max_colours + 1) in box = (x, y, w, h); alpha is
    ignored (Chromium's screenshots are opaque)."""
    _, _, bpp, rows = image
    x, y, w, h = box
    # A page has many equal rows (margins, blank lines): each distinct row
    # segment is counted once, weighted by how often it occurs.
    segments = collections.Counter(row[x * bpp:(x + w) * bpp] for row in rows[y:y + h])
    counts = collections.Counter()
    for seg, times in segments.items():
        for colour, n in collections.Counter(zip(seg[0::bpp], seg[1::bpp], seg[2::bpp])).items():
            counts[colour] += n * times
    if not counts:
        return 0.0, 0
    background = max(counts.values())
    total = sum(counts.values())
    return (total - background) / total, min(len(counts), max_colours + 1)
