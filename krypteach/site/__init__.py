"""The lessons as a static site (voici: Voilà on JupyterLite, with Pyodide in the browser).

``krypteach build-site OUT`` (:func:`~krypteach.site.build.build_site`): a folder of static
files any web server, a school's web space or a USB stick serves; every learner's Python
runs in their own browser. See docs/deploy.md.
"""

from __future__ import annotations

from .build import SiteError, build_site

__all__ = ["SiteError", "build_site"]
