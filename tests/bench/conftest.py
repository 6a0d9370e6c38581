from tests.db.fixtures import prefix, redis, redis_url_or_socket  # noqa: F401
