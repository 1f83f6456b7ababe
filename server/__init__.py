"""The gradguard language server (pygls), a thin adapter over `gradguard.rules`.

Not built yet (issue 4): `gradguard server` says so and exits with status 2.
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("gradguard: the language server is not available in this version yet; "
          "use `gradguard check` for now.", file=sys.stderr)
    return 2
