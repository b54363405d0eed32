"""``gazala help [TOPIC]``: the user documentation (``docs/*.md``), which travels with the package."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gazala_tools.errors import GazalaError

__all__ = ["HELP", "NOUN", "register", "topics"]

NOUN = "help"
HELP = "Print the documentation: `gazala help` lists the topics, `gazala help TOPIC` prints one."


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("topic", nargs="?", metavar="TOPIC", help="a topic (default: list them)")
    parser.set_defaults(func=_help)


def topics(root: Path) -> dict[str, Path]:
    """The documentation pages by topic (the file name without ``.md``)."""
    return {p.stem: p for p in sorted(root.glob("*.md")) if p.is_file()}


def _title(page: Path) -> str:
    with page.open(encoding="utf-8") as fh:
        first = fh.readline().strip()
    return first.lstrip("#").strip()


def _help(args: argparse.Namespace) -> int:
    from gazala_tools.games.registry import docs_root

    pages = topics(docs_root())
    if args.topic is None:
        print("topics (gazala help TOPIC):")
        for name, page in pages.items():
            print(f"  {name:<20} {_title(page)}")
        return 0
    topic = args.topic.removesuffix(".md").removeprefix("docs/")
    found = pages.get(topic)
    if found is None:
        raise GazalaError(f"no help topic {args.topic!r}", place="TOPIC", expected="one of: " + ", ".join(pages))
    sys.stdout.write(found.read_text(encoding="utf-8"))
    return 0
