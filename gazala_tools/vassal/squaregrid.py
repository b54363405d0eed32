"""VASSAL ``SquareGrid`` + ``SquareGridNumbering``: the pure arithmetic lives in the core
(:mod:`gazala_tools.squaregrid`, beside :mod:`gazala_tools.hexgrid`); this name stays for the edge's readers."""

from gazala_tools.squaregrid import (
    DEFAULT_DX,
    DEFAULT_DY,
    DEFAULT_X0,
    DEFAULT_Y0,
    SquareGridGeometry,
    SquareGridNumbering,
)

__all__ = ["DEFAULT_DX", "DEFAULT_DY", "DEFAULT_X0", "DEFAULT_Y0", "SquareGridGeometry", "SquareGridNumbering"]
