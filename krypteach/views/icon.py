"""krypteach's icon, drawn as a PNG without an image library (the static site's app icons and
the served pages' favicon)."""

from __future__ import annotations

import struct
import zlib

__all__ = ["icon_png"]


def icon_png(size: int) -> bytes:
    """krypteach's icon, ``size`` pixels square, as a PNG: a white card with a red heart on the
    green of a card table (the static site's app icons, the served pages' favicon).

    >>> icon_png(16)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    rows = []
    card = (0.22 * size, 0.12 * size, 0.78 * size, 0.88 * size)  # left, top, right, bottom
    r = 0.06 * size  # the card's rounded corners
    for y in range(size):
        row = bytearray(b"\x00")  # filter: none
        for x in range(size):
            px, py = x + 0.5, y + 0.5
            cx = min(max(px, card[0] + r), card[2] - r)
            cy = min(max(py, card[1] + r), card[3] - r)
            colour = (0x1D, 0x6B, 0x3A)
            if (px - cx) ** 2 + (py - cy) ** 2 <= r * r:
                colour = (0xFF, 0xFF, 0xFF)
                hx, hy = (px - size / 2) / (0.17 * size), -(py - size / 2) / (0.17 * size)
                if (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy ** 3 <= 0:  # the heart curve
                    colour = (0xC8, 0x10, 0x2E)
            row += bytes(colour)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
            + chunk(b"IEND", b""))
