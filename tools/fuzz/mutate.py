"""Seeded mutators: bytes, text (YAML/XML aware tokens) and zip archives rebuilt around mutated members.

Every mutator takes a :class:`random.Random`, so a run is reproduced by its seed.
"""

from __future__ import annotations

import io
import random
import struct
import zipfile
import zlib

#: text that has broken readers before (issue 13), spliced into text inputs
TEXT_TOKENS: tuple[str, ...] = (
    "9" * 5000, "0x" + "f" * 4400, "-" + "1" * 30, ".inf", "-.inf", ".nan", "!!timestamp 2001-12-14",
    "!!binary AAAA", "!!python/object:os.system", "&a [*a]", "*nope", "[" * 300, "{" * 300, "]" * 50,
    "<<: *a", "&a {<<: {k: 1}}", "{<<: [*a, {}]}",
    "\t" * 600, "\x1b" * 10, "\\" * 40, "'", '"', "\x00", "\ufeff", "\u202e", "?", ": ", "- ",
    "\n  - ", "\n" + " " * 80, "<!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>", "&e;", "<![CDATA[",
    "2147483647", "-2147483648", "9223372036854775808", "1e400", "../../../../etc/passwd", "/dev/zero",
    "null", "~", "true", "[]", "{}", "abc", "piece;", "+/", "D/", "M/", "LOG\t", "begin_save", "end_save",
)
BYTE_TOKENS: tuple[bytes, ...] = (
    b"\x00" * 8, b"\xff" * 8, b"\x7f\xff\xff\xff", b"\xff\xff\xff\xff", b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06",
    b"\x89PNG\r\n\x1a\n", b"IHDR", b"zTXt", b"IDAT", b"IEND", b"\xff\xd8\xff\xc0", b"GIF89a", b"!VCSK", b"VOBS",
    b"\xfd7zXZ\x00", b"!VOXZ",
)


def mutate_bytes(rng: random.Random, data: bytes, rounds: int | None = None) -> bytes:
    """Flip, insert, delete, duplicate, truncate bytes and splice interesting byte tokens."""
    out = bytearray(data)
    for _ in range(rounds or rng.randint(1, 8)):
        if not out:
            out += rng.choice(BYTE_TOKENS)
            continue
        i = rng.randrange(len(out))
        op = rng.randrange(8)
        if op == 0:
            out[i] = rng.randrange(256)
        elif op == 1:
            out[i] ^= 1 << rng.randrange(8)
        elif op == 2:
            out[i:i] = rng.randbytes(rng.randint(1, 16))
        elif op == 3:
            del out[i : i + rng.randint(1, 64)]
        elif op == 4:
            j = rng.randrange(len(out))
            out[i:i] = out[j : j + rng.randint(1, 256)]
        elif op == 5:
            del out[i:]
        elif op == 6:
            tok = rng.choice(BYTE_TOKENS)
            out[i : i + len(tok)] = tok
        else:  # a 32-bit field set to an extreme
            value = rng.choice((0, 1, 0x7FFFFFFF, 0xFFFFFFFF, 0x10000, rng.randrange(1 << 32)))
            out[i : i + 4] = struct.pack(rng.choice((">I", "<I")), value)
    return bytes(out)


def mutate_text(rng: random.Random, text: str, rounds: int | None = None) -> str:
    """Line- and token-level edits of a text file (YAML, XML, command strings)."""
    for _ in range(rounds or rng.randint(1, 5)):
        if not text:
            text = rng.choice(TEXT_TOKENS)
            continue
        i = rng.randrange(len(text))
        op = rng.randrange(9)
        if op >= 7:  # a plausible edit: one line's value (or a whole line) moved to another line
            lines = text.splitlines(keepends=True)
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            if op == 7 and ":" in lines[a] and ":" in lines[b]:
                key = lines[b].split(":", 1)[0]
                lines[b] = key + ":" + lines[a].split(":", 1)[1]
            else:
                lines[a], lines[b] = lines[b], lines[a]
            text = "".join(lines)
        elif op == 0:
            text = text[:i] + rng.choice(TEXT_TOKENS) + text[i:]
        elif op == 1:  # replace a value
            j = text.find("\n", i)
            j = len(text) if j < 0 else j
            k = text.rfind(":", 0, j)
            if k >= 0:
                text = text[: k + 1] + " " + rng.choice(TEXT_TOKENS) + text[j:]
        elif op == 2:
            text = text[:i] + text[i + rng.randint(1, 40) :]
        elif op == 3:  # duplicate a line
            lines = text.splitlines(keepends=True)
            n = rng.randrange(len(lines))
            lines.insert(n, lines[n] * rng.randint(1, 4))
            text = "".join(lines)
        elif op == 4:  # re-indent a line
            lines = text.splitlines(keepends=True)
            n = rng.randrange(len(lines))
            lines[n] = " " * rng.randint(0, 12) + lines[n].lstrip(" ")
            text = "".join(lines)
        elif op == 5:  # nest deeply
            depth = rng.choice((10, 70, 300, 5000))
            text = text[:i] + "[" * depth + "1" + "]" * depth + text[i:]
        else:
            text = text[:i]
    return text


def rezip(members: list[tuple[str, bytes]], *, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


def members_of(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return [(i.filename, zf.read(i)) for i in zf.infolist()]


def mutate_zip(rng: random.Random, data: bytes, *, text_members: tuple[str, ...] = ()) -> bytes:
    """Mutate one member (as text when it is one of ``text_members``), or the archive's bytes, or its
    structure (a member added, dropped, renamed, a huge or lying member, another method)."""
    members = members_of(data)
    op = rng.randrange(6)
    if op == 0 or not members:
        return mutate_bytes(rng, data)
    n = rng.randrange(len(members))
    name, body = members[n]
    if op in (1, 2):
        if name in text_members:
            try:
                members[n] = (name, mutate_text(rng, body.decode("utf-8")).encode("utf-8", "surrogatepass"))
            except UnicodeDecodeError:
                members[n] = (name, mutate_bytes(rng, body))
        else:
            members[n] = (name, mutate_bytes(rng, body))
    elif op == 3:
        extra = rng.choice((b"\0" * rng.choice((1 << 20, 1 << 24)), rng.randbytes(1024), b"<a/>"))
        members.append((rng.choice(("images/x.png", "moduledata", "savedata", "../evil", "/abs", "x" * 300)), extra))
    elif op == 4:
        del members[n]
    else:
        out = bytearray(rezip(members))
        # lie about a size or the method in the headers
        for sig, offs in ((b"PK\x03\x04", (8, 18, 22)), (b"PK\x01\x02", (10, 20, 24))):
            i = out.find(sig)
            if i >= 0:
                off = rng.choice(offs)
                fmt = "<H" if off in (8, 10) else "<I"
                struct.pack_into(fmt, out, i + off, rng.choice((0, 1, 12, 14, 99, 0xFFFF) if fmt == "<H"
                                                               else (0, 10, 0x7FFFFFFF, 0xFFFFFFFF)))
        return bytes(out)
    return rezip(members, method=rng.choice((zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED, zipfile.ZIP_BZIP2,
                                             zipfile.ZIP_LZMA)))


def png(w: int, h: int, *, extra: bytes = b"", mode: int = 2) -> bytes:
    """A small well-formed PNG (colour type ``mode``) of ``w`` x ``h`` zero pixels, plus ``extra`` chunks."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    channels = {0: 1, 2: 3, 6: 4}[mode]
    raw = b"".join(b"\0" + b"\0" * (w * channels) for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, mode, 0, 0, 0)) + extra
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
