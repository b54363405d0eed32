"""Issue 26 item 6: every test that needs ../shared behaves the same when it is missing: it fails
with one clear message in CI (CI=true or GAZALA_REQUIRE_VASSAL=1) and skips with that message as
its reason elsewhere (tests/conftest.py: ``shared_path``, ``shared_dir``, ``corpus_dir``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.conftest as conftest


@pytest.fixture
def no_shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    gone = tmp_path / "no-shared"
    monkeypatch.setattr(conftest, "SHARED", gone)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GAZALA_REQUIRE_VASSAL", raising=False)
    return gone


def test_missing_shared_skips_with_its_reason_outside_ci(no_shared: Path) -> None:
    with pytest.raises(pytest.skip.Exception, match=r"corpus/x\.vmod not found under .*no-shared \(set GAZALA_SHARED\)"):
        conftest.shared_path("corpus", "x.vmod")


@pytest.mark.parametrize(("var", "value"), [("CI", "true"), ("GAZALA_REQUIRE_VASSAL", "1")])
def test_missing_shared_fails_in_ci(no_shared: Path, monkeypatch: pytest.MonkeyPatch, var: str, value: str) -> None:
    monkeypatch.setenv(var, value)
    with pytest.raises(pytest.fail.Exception, match=r"\.\./shared is absent .*seeds not found.*required here"):
        conftest.shared_path("seeds")


def test_present_shared_is_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "corpus").mkdir()
    monkeypatch.setattr(conftest, "SHARED", tmp_path)
    assert conftest.shared_path("corpus") == tmp_path / "corpus"


def test_the_engine_policy_is_the_same(no_shared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(pytest.skip.Exception, match="no java"):
        conftest._engine_unavailable("no java")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no java"):
        conftest._engine_unavailable("no java")
