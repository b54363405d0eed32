"""A faithful port of VASSAL's ``SequenceEncoder`` and ``SequenceEncoder.Decoder`` (3.7.26).

Tokens are joined by one delimiter; inside a token each delimiter gets one backslash in front
(backslashes already there are not doubled); a token that starts with a backslash, or both starts
and ends with ``'``, is wrapped in single quotes. Decoding splits on every delimiter not directly
preceded by a backslash, removes that backslash, and strips one pair of enclosing quotes.

Known VASSAL quirk, kept on purpose: a token that *ends* with a backslash (and does not start with
one) escapes the delimiter after it, so ``["abc\\", "def"]`` decodes back as one token.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "ESC",
    "TAB",
    "Decoder",
    "decode",
    "encode",
    "encode_token",
    "java_int",
]

ESC = "\x1b"
TAB = "\t"


def _unquote(tok: str) -> str:
    if len(tok) > 1 and tok[0] == "'" and tok[-1] == "'":
        return tok[1:-1]
    return tok


def decode(value: str | None, delim: str) -> list[str]:
    """All tokens of ``value`` (``SequenceEncoder.Decoder`` run to the end); ``None`` has none.

    Same result as the Java decoder's character scan: split at every delimiter not preceded by a
    backslash, drop the backslash of every escaped delimiter, strip one pair of enclosing quotes.
    """
    if value is None:
        return []
    parts = value.split(delim)
    if "\\" + delim in value:
        merged: list[str] = []
        run: list[str] = []  # parts joined by escaped delimiters, each without its backslash
        for part in parts:
            # the delimiter after this part is escaped when the character before it is a backslash
            if part.endswith("\\"):
                run.append(part[:-1])
                continue
            if run:
                run.append(part)
                merged.append(delim.join(run))
                run = []
            else:
                merged.append(part)
        if run:
            # the last part ended with a backslash and no delimiter follows: the backslash stays
            merged.append(delim.join(run) + "\\")
        parts = merged
    if "'" not in value:
        return parts
    return [p[1:-1] if len(p) > 1 and p[0] == "'" and p[-1] == "'" else p for p in parts]


def encode_token(token: str | None, delim: str) -> str:
    """One token as ``SequenceEncoder.append(String)`` writes it (without the delimiter before it)."""
    if not token:
        return ""
    esc = token.replace(delim, "\\" + delim) if delim in token else token
    if token[0] == "\\" or (token[0] == "'" and token[-1] == "'"):
        return "'" + esc + "'"
    return esc


def encode(tokens: Iterable[str | None], delim: str) -> str:
    """``SequenceEncoder(delim)`` with every token appended; no tokens give the empty string."""
    toks = tokens if isinstance(tokens, list) else list(tokens)
    if None not in toks:
        joined = delim.join(toks)  # type: ignore[arg-type]  # no None in it
        # nothing to escape when no token holds the delimiter, a backslash or a quote (most tokens)
        if "\\" not in joined and "'" not in joined and joined.count(delim) == len(toks) - 1:
            return joined
    return delim.join([encode_token(t, delim) for t in toks])


class Decoder:
    """Token-by-token reading with VASSAL's defaults for missing or malformed tokens."""

    __slots__ = ("_i", "_tokens")

    def __init__(self, value: str | None, delim: str) -> None:
        self._tokens = decode(value, delim)
        self._i = 0

    def has_more(self) -> bool:
        return self._i < len(self._tokens)

    def next_token(self, default: str | None = None) -> str:
        if self._i >= len(self._tokens):
            if default is None:
                raise IndexError("no more tokens")
            return default
        tok = self._tokens[self._i]
        self._i += 1
        return tok

    def next_int(self, default: int) -> int:
        if not self.has_more():
            return default
        tok = self.next_token()
        try:
            return java_int(tok)
        except ValueError:
            return default

    def next_bool(self, default: bool) -> bool:
        return self.next_token() == "true" if self.has_more() else default

    def remaining(self) -> list[str]:
        rest = self._tokens[self._i :]
        self._i = len(self._tokens)
        return rest


def java_int(text: str) -> int:
    """``Integer.parseInt``: optional sign and ASCII digits only, within 32 bits."""
    body = text[1:] if text[:1] in ("-", "+") else text
    if not body or not body.isascii() or not body.isdigit():
        raise ValueError(text)
    value = int(text)
    if not -(2**31) <= value < 2**31:
        raise ValueError(text)
    return value
