"""SequenceEncoder/Decoder: the examples of the spec (§1.1) and properties against a literal port."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.vsav import sequence
from gazala_tools.vsav.traits import decode_piece, split_chain


def java_decoder(value: str | None, delim: str) -> list[str]:
    """SequenceEncoder.Decoder (3.7.26) transcribed character by character, as the reference."""
    out: list[str] = []
    if value is None:
        return out
    val: str | None = value
    start, stop = 0, len(value)
    while val is not None:
        if start == stop:
            out.append("")
            break
        buf = ""
        tok: str | None = None
        i = start
        while i < stop:
            if value[i] == delim:
                if i > 0 and value[i - 1] == "\\":
                    buf += value[start : i - 1]
                    start = i
                else:
                    tok = value[start:i] if not buf else None
                    if buf:
                        buf += value[start:i]
                    start = i + 1
                    break
            i += 1
        if start < i:
            if not buf:
                tok = value[start:]
            else:
                buf += value[start:stop]
            val = None
        t = tok if tok is not None else buf
        if len(t) > 1 and t[0] == "'" and t[-1] == "'":
            t = t[1:-1]
        out.append(t)
    return out


def test_1_1_empty_tokens_keep_their_delimiters() -> None:
    assert sequence.encode(["a", "", "b"], ";") == "a;;b"
    assert sequence.encode(["a", ""], ";") == "a;"
    assert sequence.encode(["a", None], ";") == "a;"
    assert sequence.decode("a;;", ";") == ["a", "", ""]
    assert sequence.decode("", ";") == [""]
    assert sequence.decode(None, ";") == []


def test_1_1_delimiter_escaped_once_backslashes_not_doubled() -> None:
    assert sequence.encode(["x;y", "a\\b"], ";") == "x\\;y;a\\b"
    assert sequence.decode("x\\;y;a\\b", ";") == ["x;y", "a\\b"]


def test_1_1_leading_backslash_and_quoted_tokens_are_wrapped_in_quotes() -> None:
    assert sequence.encode(["\\x"], ";") == "'\\x'"
    assert sequence.encode(["'q'"], ";") == "''q''"
    assert sequence.decode("''q'';'\\x'", ";") == ["'q'", "\\x"]


def test_1_1_pitfall_token_ending_in_backslash_swallows_the_delimiter() -> None:
    assert sequence.encode(["abc\\", "def"], ";") == "abc\\;def"
    assert sequence.decode("abc\\;def", ";") == ["abc;def"]


def test_3_6_worked_example_nesting_levels() -> None:
    fulltype = (
        "delete;Delete;68,130;\temb2;;130;;Flip;130;;;130;;;;1;false;0;0;inf_full.png,inf_reduced.png;"
        ",+ (reduced);true;Step;;;false;;1;1;true;;70,130;;;1.0;;true\\\tmark;Side\\\\\tpiece;;;inf_full.png;1st Infantry"
    )
    fullstate = "\t1\\\tAllies\\\\\tnull;0;0;1;0"
    assert split_chain(fulltype)[2:] == ["mark;Side", "piece;;;inf_full.png;1st Infantry"]
    piece = decode_piece(fulltype, fullstate)
    assert [t.id for t in piece.traits] == ["delete;", "emb2;", "mark;", "piece;"]
    assert [t.state for t in piece.traits] == ["", "1", "Allies", "null;0;0;1;0"]
    assert piece.type_string() == fulltype and piece.state_string() == fullstate
    assert piece.name() == "1st Infantry"
    piece.traits[1].state = "2"
    assert piece.name() == "1st Infantry (reduced)"
    assert piece.properties()["Side"] == "Allies"


ALPHABET = st.text(alphabet="ab;\\'\t/", max_size=30)


@settings(max_examples=2000, deadline=None)
@given(ALPHABET, st.sampled_from([";", "\t", "/", ","]))
def test_decoder_equals_the_literal_java_port(value: str, delim: str) -> None:
    assert sequence.decode(value, delim) == java_decoder(value, delim)


@settings(max_examples=1000, deadline=None)
@given(st.lists(ALPHABET.filter(lambda t: not t.endswith("\\") or t.startswith("\\")), max_size=6), st.sampled_from([";", "\t"]))
def test_decode_inverts_encode(tokens: list[str], delim: str) -> None:
    encoded = sequence.encode(tokens, delim)
    assert sequence.decode(encoded, delim) == (tokens or [""])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(ALPHABET.filter(lambda t: not t.endswith("\\")), min_size=1, max_size=4), min_size=1, max_size=4))
def test_nested_levels_round_trip(levels: list[list[str]]) -> None:
    inner = [sequence.encode(tokens, ";") for tokens in levels]
    outer = sequence.encode(inner, "\t")
    assert [sequence.decode(t, ";") for t in sequence.decode(outer, "\t")] == levels


def test_java_int_is_strict() -> None:
    assert sequence.java_int("-12") == 12 * -1
    for bad in ("", "1.0", " 1", "0x10", "99999999999", "١٢"):
        try:
            sequence.java_int(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="a;\\\t'", max_size=40))
def test_3_2_fast_chain_split_equals_the_level_by_level_decode(full: str) -> None:
    from gazala_tools.vsav.traits import _split_chain_exact

    assert split_chain(full) == _split_chain_exact(full)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.text(alphabet="ab;\\\t", max_size=10).filter(lambda t: not t.endswith("\\")), min_size=1, max_size=8))
def test_3_2_chain_join_then_split_gives_the_traits_back(traits: list[str]) -> None:
    from gazala_tools.vsav.traits import join_chain

    # the innermost trait is not escaped at any level (as in VASSAL): it must hold no TAB
    traits[-1] = traits[-1].replace("\t", "")
    assert split_chain(join_chain(traits)) == traits
