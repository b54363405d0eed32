"""The report pages' escaping helper: :mod:`gazala_tools.escape` (a top-level module, so that the
module builder of ``vassal/`` escapes with it without importing ``render``: imports run one way)."""

from gazala_tools.escape import clean, csp, csp_hash, head, script_json, text

__all__ = ["clean", "csp", "csp_hash", "head", "script_json", "text"]
