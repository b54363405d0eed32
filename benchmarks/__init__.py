"""Benchmarks, one module per area (``bench_<area>.py``), each with ``run() -> list[Result]``."""
