"""mkdocs hooks of the docs site (mkdocs.yml; ``make docs``).

- Three Markdown files that live outside docs/ are pages of the site, read where they are:
  README.md (the home page), CONTRIBUTING.md and bench/README.md (the benchmarks' how-to and
  record). Their relative links are rewritten to the site's pages, so a link that names neither
  a page nor one of these files still fails the strict build.
- The settings reference (docs/operations/settings.md) must be what tools/settings_page.py
  renders from app/config.py: a stale page stops the build.
"""

from __future__ import annotations

import posixpath
import re

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from tools import settings_page

ROOT = settings_page.ROOT
# Repository path -> the page it becomes.
OUTSIDE = {"README.md": "index.md", "CONTRIBUTING.md": "contributing.md"}
OUTSIDE["bench/README.md"] = "benchmarks.md"
# A Markdown link or image target: ](target) or ](target "title").
LINK = re.compile(r"(\]\()([^)\s]+)")


def site_link(target: str, source: str) -> str:
    """``target``, written in the repository file ``source``, as a link from a page at the
    site's root."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
        return target
    path, hash_, anchor = target.partition("#")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
    if resolved in OUTSIDE:
        resolved = OUTSIDE[resolved]
    elif resolved.startswith("docs/"):
        resolved = resolved.removeprefix("docs/")
    return resolved + hash_ + anchor


def on_pre_build(config: MkDocsConfig) -> None:
    if settings_page.PAGE.read_text() != settings_page.render():
        raise PluginError(
            "docs/operations/settings.md differs from app/config.py's Settings: "
            "run python -m tools.settings_page --write"
        )


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for source, page in OUTSIDE.items():
        text = (ROOT / source).read_text()
        text = LINK.sub(lambda m, s=source: m.group(1) + site_link(m.group(2), s), text)
        files.append(File.generated(config, page, content=text))
    return files
