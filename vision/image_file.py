"""An image file, read for `dicetable read`: a BGR uint8 frame, or one line saying why not.

Never raises and never hangs: a folder, a FIFO or a device is refused before it is opened; a
file is read at most MAX_FILE_BYTES; the image's size is read from its header before it is
decoded, so that a small file that decodes to a huge image (a 20000 x 20000 PNG of one colour
is 400 KB and 1.2 GB decoded: a decompression bomb) is refused, or, a JPEG, decoded at a half,
a quarter or an eighth of its size (libjpeg does that while decoding, at that cost); and a
decoder's failure (OpenCV raises for some formats, e.g. OpenEXR, which its build leaves off) is
an error line. The reader itself downscales any frame to 1600 px (`reader_input.MAX_SIDE`), so
nothing is lost.
"""
from __future__ import annotations

import re
import struct
from pathlib import Path

import cv2
import numpy as np

MAX_FILE_BYTES = 512 * 1024 * 1024   # a 50-megapixel 16-bit TIFF with alpha is 400 MB
MAX_PIXELS = 50_000_000              # 8160 x 6120, a 50 MP camera; decoded, 150 MB of BGR
_REDUCED = ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4), (8, cv2.IMREAD_REDUCED_COLOR_8))


def load(path: str) -> tuple[np.ndarray | None, str | None]:
    """(image, None) or (None, why): a missing, empty, corrupt, truncated, too large or
    non-image file, a folder, a FIFO, a device."""
    p = Path(path)
    if p.is_dir():
        return None, "a folder, not an image file (give the images in it, e.g. DIR/*.jpg)"
    if not p.exists():
        return None, "broken symbolic link" if p.is_symlink() else "file not found"
    if not p.is_file():
        return None, "not a regular file"
    try:
        with open(p, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or exc}"
    if not data:
        return None, "empty file"
    if len(data) > MAX_FILE_BYTES:
        return None, f"file too large for an image (over {MAX_FILE_BYTES // 2**20} MB)"
    return decode(data)


def decode(data: bytes) -> tuple[np.ndarray | None, str | None]:
    """(BGR uint8 image, None) or (None, why) from a file's bytes."""
    if data[:2] == b"\xff\xd8" and jpeg_truncated(data):
        return None, "truncated JPEG (the file ends before the image does)"
    size = image_size(data)
    flags = cv2.IMREAD_COLOR
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        w, h = size
        too_large = f"image too large ({w}x{h}, over {MAX_PIXELS // 1_000_000} megapixels)"
        if data[:2] != b"\xff\xd8":
            return None, too_large
        fit = [f for k, f in _REDUCED if (w // k) * (h // k) <= MAX_PIXELS]
        if not fit:
            return None, too_large
        flags = fit[0]
    try:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error as exc:
        m = re.search(r"error: \([^)]*\) (.*?)(?: in function|$)", str(exc), re.S)
        why = " ".join((m.group(1) if m else str(exc)).split())[:160] or "the decoder failed"
        return None, f"not a decodable image (OpenCV: {why})"
    if img is None or img.size == 0:
        return None, "not a decodable image"
    return img, None


def jpeg_truncated(data: bytes) -> bool:
    """The JPEG's scan data has no end-of-image marker after it. (Inside scan data a 0xFF is
    always followed by 0x00 or a restart marker, so FF D9 after the first scan's start is the end
    of the image, not a byte pair of the picture; anything after it, a phone's appended video,
    does not matter.)"""
    sos = _jpeg_walk(data)[1]
    if sos == -1:                           # stray bytes between segments (libjpeg skips them)
        return data.find(b"\xff\xd9", 2) < 0
    return sos is None or data.find(b"\xff\xd9", sos) < 0


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the header of a PNG, JPEG, BMP, WebP, TIFF, PNM/PFM, Sun raster,
    JPEG 2000 or Radiance HDR file; None when it cannot tell (OpenCV's own limit, 2^30 pixels,
    then stands)."""
    try:
        return _image_size(data)
    except (struct.error, IndexError, ValueError):
        return None


def _image_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data[:2] == b"\xff\xd8":
        return _jpeg_walk(data)[0]
    if data[:2] == b"BM":
        if struct.unpack("<I", data[14:18])[0] == 12:
            return struct.unpack("<HH", data[18:22])
        w, h = struct.unpack("<ii", data[18:26])
        return abs(w), abs(h)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        kind = data[12:16]
        if kind == b"VP8X":
            return (int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1)
        if kind == b"VP8L":
            bits = int.from_bytes(data[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if kind == b"VP8 ":
            w, h = struct.unpack("<HH", data[26:30])
            return w & 0x3FFF, h & 0x3FFF
        return None
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(data)
    if data[:1] == b"P" and data[1:2] in b"1234567Ff":
        return _pnm_size(data)
    if data[:4] == b"\x59\xa6\x6a\x95":
        return struct.unpack(">II", data[4:12])
    if data[:12] == b"\x00\x00\x00\x0cjP  \r\n\x87\n" or data[:4] == b"\xff\x4f\xff\x51":
        if data[:4] == b"\xff\x4f\xff\x51":      # a bare codestream: SIZ
            xs, ys, x0, y0 = struct.unpack(">IIII", data[8:24])
            return xs - x0, ys - y0
        i = data.find(b"ihdr", 0, 4096)
        if i < 0:
            return None
        h, w = struct.unpack(">II", data[i + 4:i + 12])
        return w, h
    if data[:2] == b"#?":
        m = re.search(rb"\n([-+][XY]) (\d+) ([-+][XY]) (\d+)\s", data[:8192])
        if m is None:
            return None
        first, second = int(m.group(2)), int(m.group(4))
        return (second, first) if m.group(1)[1:] == b"Y" else (first, second)
    return None


def _jpeg_walk(data: bytes) -> tuple[tuple[int, int] | None, int | None]:
    """(width, height) of the first frame header and where the first scan starts, walking the
    marker segments by their lengths (nothing of the scan data is read). The scan's start is
    None when the data ends (or the image does) before it, -1 when a segment is not where its
    neighbour's length says."""
    size = None
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return size, -1
        marker = data[i + 1]
        if marker == 0xFF:                  # fill bytes
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):
            i += 2
            continue
        if marker == 0xD9:
            return size, None
        length = (data[i + 2] << 8) | data[i + 3]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and size is None and i + 9 <= n:
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            size = (w, h)
        if marker == 0xDA:
            return size, i + 2 + length
        i += 2 + length
    return size, None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    e = "<" if data[:2] == b"II" else ">"
    ifd = struct.unpack(e + "I", data[4:8])[0]
    count = struct.unpack(e + "H", data[ifd:ifd + 2])[0]
    dims: dict[int, int] = {}
    for k in range(count):
        at = ifd + 2 + 12 * k
        tag, typ = struct.unpack(e + "HH", data[at:at + 4])
        if tag in (256, 257):
            dims[tag] = struct.unpack(e + ("H" if typ == 3 else "I"), data[at + 8:at + (10 if typ == 3 else 12)])[0]
    return (dims[256], dims[257]) if len(dims) == 2 else None


def _pnm_size(data: bytes) -> tuple[int, int] | None:
    head = re.sub(rb"#[^\n]*", b" ", data[2:1024])
    if data[1:2] == b"7":
        w = re.search(rb"WIDTH\s+(\d+)", head)
        h = re.search(rb"HEIGHT\s+(\d+)", head)
        return (int(w.group(1)), int(h.group(1))) if w and h else None
    nums = head.split()
    return int(nums[0]), int(nums[1])
