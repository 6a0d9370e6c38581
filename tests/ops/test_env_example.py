""".env.example, read as an operator uses it (``cp .env.example .env``): every value it shows is
the default of the Settings class or of docker-compose.yml, so the file cannot drift from the
code; and copied as it is, it starts nothing with an example password (Postgres keeps the
password of its first start in its volume, so a stack once started with one keeps it)."""

from __future__ import annotations

import re
import shutil

import pytest
from sqlalchemy.engine import make_url

from app.config import Settings
from tests.ops.deploy import ROOT, compose

LINE = re.compile(r"^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$")


def example_values() -> dict[str, str]:
    """``NAME -> value`` of every line ``NAME=value`` or ``# NAME=value`` of .env.example."""
    found: dict[str, str] = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        match = LINE.match(line)
        if match:
            name, value = match.groups()
            assert name not in found, f"{name} is in .env.example twice"
            found[name] = value
    return found


def setting_names() -> dict[str, str]:
    """``environment variable -> field`` of every setting."""
    names = {}
    for field, info in Settings.model_fields.items():
        alias = info.validation_alias
        names[alias.choices[0] if alias is not None else f"MEJA_{field.upper()}"] = field
    return names


@pytest.fixture
def clean_env(monkeypatch):
    """No setting from the environment this test runs in (CI's REDIS_URL, DATABASE_URL)."""
    for name in setting_names():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("MEJA_REDIS_URL", raising=False)
    monkeypatch.delenv("MEJA_DATABASE_URL", raising=False)
    monkeypatch.delenv("MEJA_PORT", raising=False)
    return monkeypatch


def test_every_value_shown_is_the_settings_default(clean_env):
    """Each setting is listed, and what it shows is what the server does without it: read
    through the settings' own parsing (``4.0`` and ``4`` are the same number), compared with
    the default. A setting without a value (no default, or an empty list) shows none, and its
    example goes in the comment above it."""
    values, names = example_values(), setting_names()
    missing = sorted(set(names) - set(values))
    assert not missing, f"not in .env.example: {missing}"
    defaults = Settings()
    for name in names:
        if values[name]:  # an empty value is an unset variable
            clean_env.setenv(name, values[name])
    shown = Settings()
    wrong = {
        name: (values[name], getattr(defaults, field))
        for name, field in names.items()
        if getattr(shown, field) != getattr(defaults, field)
    }
    assert not wrong, f".env.example shows (value, default): {wrong}"


def test_every_other_name_is_a_compose_variable_with_its_default():
    """The names that are not settings are docker-compose.yml's own ``${NAME}`` variables,
    and a value shown is the compose file's default (``${NAME:-default}``)."""
    compose_file = (ROOT / "docker-compose.yml").read_text()
    variables = dict(re.findall(r"\$\{([A-Z0-9_]+)(?::[-?]([^}]*))?\}", compose_file))
    settings = setting_names()
    for name, value in example_values().items():
        if name in settings:
            continue
        assert name in variables, f".env.example lists {name}, neither a setting nor compose's"
        if value:
            assert value == variables[name], f"{name}={value}: compose's default is different"


def test_copied_as_is_it_starts_no_stack(tmp_path):
    """``cp .env.example .env`` then ``docker compose up``: compose refuses before creating
    anything, naming the secrets to set (an example password would already be in Postgres's
    volume by the time the app refused it)."""
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    done = compose(tmp_path, "config", "-q")
    assert done.returncode != 0
    assert "POSTGRES_PASSWORD" in done.stderr or "MEJA_SECRET_KEY" in done.stderr, done.stderr


def test_the_required_secrets_are_shown_empty():
    values = example_values()
    assert values["POSTGRES_PASSWORD"] == "" and values["MEJA_SECRET_KEY"] == ""


STRONG = "9f3c0e2a51d7b6e48c2f1a9d0b7e3c5a"


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("secret_key", "change-me"),
        ("secret_key", "change-me-to-a-long-random-key-please"),
        ("database_password", "change-me"),
        ("database_password", "CHANGEME-before-going-live"),
    ],
)
def test_an_example_secret_is_refused_at_start_up(setting, value):
    """What an operator may leave of .env.example's instructions, as the secret key or as the
    Postgres password compose hands the app (MEJA_DATABASE_PASSWORD): serve and the outbox
    worker refuse to start with it (app/process.py), naming the setting."""
    settings = Settings(
        redis_url="redis://redis:6379/0",
        database_url="postgresql://meja@postgres:5432/meja",
        **{"secret_key": STRONG, "database_password": STRONG + "-pw", setting: value},
    )
    assert make_url(settings.database_url).password  # the password is in the URL it uses
    [problem] = settings.insecure_defaults()
    assert ("MEJA_SECRET_KEY" if setting == "secret_key" else "database password") in problem
