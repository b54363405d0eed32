"""Reading a VASSAL module for ``game import`` (issue 25 item 1): what a module holds, as plain data.

:func:`read_module` gives every piece slot (palette, at-start stack, deck) with its prototypes resolved,
its name, its art (front and back as image layers), its side when a marker names one of the module's
sides, and every set-up placement (at-start stacks and the predefined set-up saves inside the module)
with its map, board and location name as VASSAL names it. Read-only, through the input boundary.

:mod:`.folder` writes the game folder from it, :mod:`.kept` keeps the rest of the module as written, and
:mod:`.rebuild` builds the module again from the folder (docs/module.md, "Importing a module").
"""

from gazala_tools.vassal.importer.reader import (
    ImportedModule,
    ImportedPiece,
    SetupPlacement,
    expand_prototypes,
    read_module,
)

__all__ = ["ImportedModule", "ImportedPiece", "SetupPlacement", "expand_prototypes", "read_module"]
