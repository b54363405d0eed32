"""The digitizer: from a scanned hex map to a VASSAL grid and map data (numpy/scipy/Pillow).

* :mod:`.image` - reading scans safely (decompression-bomb cap, grey levels, tiles);
* :mod:`.lattice` - ``detect_grid``: the hex lattice from the periodicity of hex edges;
* :mod:`.calibrate` - ``calibrate``: least-squares grid from reference hexes;
* :mod:`.classify` - terrain per hex (and optional hexside lines) against a colour legend;
* :mod:`.overlay` - the fitted grid, labels and terrain drawn over the scan;
* :mod:`gazala_tools.mapdata.gridfile` (in the core since issue 22) - the grid section of a map YAML, read and written.
"""

__all__: tuple[str, ...] = ()  # the submodules are the API
