"""gazala-tools: VASSAL modules, referee and counter sheets for hex-and-counter wargames."""

__version__ = "0.1.0"
