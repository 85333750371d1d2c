"""Two saved runs side by side (Blueprint ``compare``): :func:`town.compare.compare` as a page.

Pages: ``GET /compare/<a>/<b>``. API: ``GET /api/compare/<a>/<b>``: the comparison as JSON
(:func:`town.compare.compare`; 404 for an unknown or refused name, 422 for a damaged run or
runs of different towns). Both runs are only read, by name through
:func:`web.run_files.open_named`.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template

from town.compare import compare

from .params import fail
from .run_files import open_named

__all__ = ["bp"]

bp = Blueprint("compare", __name__)


@bp.get("/compare/<a>/<b>")
def compare_page(a: str, b: str):
    """The comparison page (the data comes from the API)."""
    with open_named(a), open_named(b):
        pass  # 404 / 422 before the page is served
    return render_template("compare.html", a=a, b=b)


@bp.get("/api/compare/<a>/<b>")
def compare_api(a: str, b: str):
    """:func:`town.compare.compare` of runs ``a`` and ``b``."""
    with open_named(a) as ra, open_named(b) as rb:
        if ra.meta.get("town") != rb.meta.get("town"):
            fail(422, f"{a} is of {ra.meta.get('town')!r} but {b} of {rb.meta.get('town')!r}")
        return jsonify(compare(ra, rb))
