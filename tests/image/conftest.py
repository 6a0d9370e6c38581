"""The image tests: the image built from the Dockerfile, run with podman. deploy/image-test.sh
(``make image-test``) builds it and names it in MEJA_IMAGE, with the podman command of its
container storage in MEJA_PODMAN; without them (``make test``) there is no image, and nothing
here is collected.
"""

from __future__ import annotations

import os
import uuid

import pytest

from tests.image.podman import Podman
from tests.ops.conftest import database  # noqa: F401 - a fresh schema in this machine's Postgres

collect_ignore_glob = [] if os.environ.get("MEJA_IMAGE") else ["test_*.py"]


@pytest.fixture
def podman():
    """The image's containers; every one a test started is removed after it, failed or not."""
    pod = Podman(os.environ["MEJA_PODMAN"], os.environ["MEJA_IMAGE"])
    yield pod
    pod.remove_all()


@pytest.fixture
def image_env(live_redis_url, live_prefix, database):  # noqa: F811 - the fixture imported above
    """What compose gives the app's containers, pointed at this machine's services (the
    containers share the host's network): Redis, a database of the test's own, a secret."""
    return {
        "REDIS_URL": live_redis_url,
        "DATABASE_URL": database,
        "MEJA_KEY_PREFIX": live_prefix,
        "MEJA_SECRET_KEY": "image-test-" + uuid.uuid4().hex,
        "MEJA_RATE_PER_SECOND": "1000",
        "MEJA_RATE_BURST": "1000",
        "MEJA_ROUND_PAUSE": "60",
    }
