"""The public conformance run: real third-party VASSAL modules imported, rebuilt, loaded in the engine,
compared piece by piece, linted and printed (``python -m tools.conformance``; not run in CI)."""
