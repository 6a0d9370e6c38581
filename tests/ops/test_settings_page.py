"""The settings reference (docs/operations/settings.md) is generated from the Settings class
(tools/settings_page.py): the committed page is what the class renders, so it cannot drift
from the code, and every setting is on it with its variable and default."""

from __future__ import annotations

from app.config import Settings
from tests.ops.test_env_example import setting_names
from tools import settings_page


def test_the_page_is_what_the_settings_class_renders():
    assert settings_page.PAGE.read_text() == settings_page.render(), (
        "docs/operations/settings.md is stale: run python -m tools.settings_page --write"
    )


def test_every_setting_is_listed_once_with_its_default():
    page = settings_page.PAGE.read_text()
    for env, field in setting_names().items():
        rows = [line for line in page.splitlines() if line.startswith(f"| `{env}` |")]
        assert len(rows) == 1, env
        default = Settings.model_fields[field].default
        assert settings_page.shown(default) in rows[0], (env, rows[0])


def test_a_changed_default_or_bound_changes_the_page(monkeypatch):
    field = Settings.model_fields["turn_seconds"]
    monkeypatch.setattr(field, "default", 25)
    assert "| `MEJA_TURN_SECONDS` | `25` | an integer ≥ 1, ≤ 600 |" in settings_page.render()
    assert settings_page.PAGE.read_text() != settings_page.render()
