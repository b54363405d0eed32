"""Issue 32 item 9, "no game word in core behaviour": the built-in games' rule words (their markers,
their hexside kinds, their terms, the unit abbreviations of their counters) are data of the game folders
or code of their plugins (``gazala_tools/rules/``), never a string the rest of ``gazala_tools`` acts on.

As ``test_import_graph.py`` reads imports, this reads every string literal of the package with
``ast`` (docstrings left out: explaining an example is not acting on it) and fails on a rule word
outside ``gazala_tools/rules/``. The few strings that are the core's own vocabulary, not a game's, are
listed with why.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "gazala_tools"

#: words of the four built-in games' rules: their markers, hexside and box kinds, their terms and the
#: unit words of their counters' names
RULE_WORDS = (
    "out-of-supply", "out of supply", "isolated", "disrupted", "escarpment", "minefield", "fortified",
    "breach", "breached", "under-construction", "engagement", "bde", "krr", "rtr", "pz", "panzer",
)
WORD_RE = re.compile(r"(?<![a-z0-9-])(" + "|".join(re.escape(w) for w in RULE_WORDS) + r")(?![a-z0-9-])", re.I)

#: (file relative to gazala_tools, word) the core may say, and why
ALLOWED = {
    # the report's supply statuses (JSON "supply": in / out / isolated) and the supply roles a game's
    # markers take in the marker flow: the core's words for the outcome, whatever the game names its markers
    ("referee/report.py", "isolated"): "SupplyStatus.ISOLATED, a report value",
    ("referee/ruledata/marker.py", "isolated"): "SUPPLY_ROLES: the role a game's marker takes",
    ("referee/generic.py", "isolated"): "the marker of the 'isolated' supply role",
    ("referee/ruledata/supply.py", "isolated"): "the supply roles named where a moved key is now stated",
}


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def rule_words(root: Path = ROOT) -> list[tuple[str, int, str, str]]:
    """Every rule word in a string literal outside the plugins: (file, line, word, the string)."""
    found = []
    for f in sorted(root.rglob("*.py")):
        rel = f.relative_to(root).as_posix()
        if rel.startswith("rules/"):
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                for m in WORD_RE.finditer(node.value):
                    if (rel, m.group(1).lower()) not in ALLOWED:
                        found.append((rel, node.lineno, m.group(1), node.value[:80]))
    return found


#: words the core still holds, each to be moved to data or a plugin: none (issue 32 item 9 closed the last
#: two, BG's ``zone: engagement``, now ``zone: plugin``, and RG's old key ``immobile[].breach``, now the RG
#: plugin's ``moved_keys``). A word added here must say why and which change removes it
PENDING: set[tuple[str, str]] = set()


def test_no_built_in_games_rule_word_acts_in_the_core() -> None:
    assert [f for f in rule_words() if (f[0], f[2].lower()) not in PENDING] == []


def test_the_pending_words_are_still_pending() -> None:
    assert {(f[0], f[2].lower()) for f in rule_words()} == PENDING


def test_the_scan_finds_a_rule_word(tmp_path: Path) -> None:
    pkg = tmp_path / "gazala_tools"
    (pkg / "referee").mkdir(parents=True)
    (pkg / "rules").mkdir()
    (pkg / "referee" / "x.py").write_text('"""A docstring may say minefield."""\nKIND = "minefield"\n')
    (pkg / "rules" / "rg.py").write_text('KIND = "minefield"\n')
    assert rule_words(pkg) == [("referee/x.py", 2, "minefield", "minefield")]
