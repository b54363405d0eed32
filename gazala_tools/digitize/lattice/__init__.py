"""Find the hex lattice of a scan: ``detect_grid(image) -> LatticeFit``, one module per stage.

===================  ==========================================================================
stage                module
===================  ==========================================================================
tunables             :mod:`.params`: :class:`Params` (frozen), passed down from detect_grid
evidence             :mod:`.evidence`: the scan at any reduction (:class:`Reducer`), the map area
                     inside a frame, gradients, thin lines, printed marks, the faint-line filter
candidate lattices   :mod:`.candidates`: the autocorrelation's peaks -> :func:`lattice_bases`
readings             :mod:`.readings`: the lattice read as hex grids, :func:`fold_score` chooses
fitting              :mod:`.fitting`: sub-pixel centres, :func:`fit_centres` (robust least squares),
                     :func:`axis_aligned` (the grid VASSAL can draw)
refinement in tiles  :mod:`.tiles`: a large scan's kept fit measured again, tile by tile
the detection        :mod:`.detect`: :func:`detect_grid`, evidences and second opinions, confidence
numbering            :mod:`.numbering`: :func:`number_lattice` from one reference hex
===================  ==========================================================================

Works for any dx/dy ratio (0.3 to 3), both orientations, any parity: the lattice does not know
parity or numbering, a reference hex fixes those (:func:`number_lattice`). docs/digitize.md
describes the steps; this package re-exports the public names.
"""

from gazala_tools.digitize.lattice.candidates import lattice_bases, lattice_basis
from gazala_tools.digitize.lattice.detect import LatticeFit, detect_grid, rms_quality
from gazala_tools.digitize.lattice.evidence import (
    EDGE_ANGLES,
    Derived,
    Evidence,
    Reducer,
    edge_image,
    equalise_edges,
    evidences,
    faint_lines,
    line_filter,
    local_light,
    map_area,
    printed_marks,
    thin_lines,
    thin_unmarked,
)
from gazala_tools.digitize.lattice.fitting import (
    CentreFit,
    Measure,
    axis_aligned,
    axis_aligned_rms,
    centre_correlation,
    fit_centres,
    fit_measured,
    hexagon_kernel,
    line_edges,
)
from gazala_tools.digitize.lattice.numbering import number_lattice
from gazala_tools.digitize.lattice.params import DEFAULT, Params, Progress, Vec
from gazala_tools.digitize.lattice.readings import Reading, fold_score, honeycomb_distance, readings
from gazala_tools.digitize.lattice.tiles import Refine, refine_in_tiles

__all__ = [
    "DEFAULT",
    "EDGE_ANGLES",
    "CentreFit",
    "Derived",
    "Evidence",
    "LatticeFit",
    "Measure",
    "Params",
    "Progress",
    "Reading",
    "Reducer",
    "Refine",
    "Vec",
    "axis_aligned",
    "axis_aligned_rms",
    "centre_correlation",
    "detect_grid",
    "edge_image",
    "equalise_edges",
    "evidences",
    "faint_lines",
    "fit_centres",
    "fit_measured",
    "fold_score",
    "hexagon_kernel",
    "honeycomb_distance",
    "lattice_bases",
    "lattice_basis",
    "line_edges",
    "line_filter",
    "local_light",
    "map_area",
    "number_lattice",
    "printed_marks",
    "readings",
    "refine_in_tiles",
    "rms_quality",
    "thin_lines",
    "thin_unmarked",
]
