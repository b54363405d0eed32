"""Moved: VASSAL's pixel geometry is :mod:`gazala_tools.hexgrid`, in the core (``GameMap.geometry()``
and the board renderer use it; issue 22 item 3, one direction of imports). This name stays for code
written before the move; nothing in ``gazala_tools`` imports it (tests/packaging/test_import_graph.py).
"""

from gazala_tools.hexgrid import *  # noqa: F403
