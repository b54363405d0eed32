"""gazala-tools: VASSAL modules, referee and counter sheets for hex-and-counter wargames."""

__all__ = ["__version__"]

__version__ = "0.1.0"
