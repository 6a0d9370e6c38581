from tests.db.fixtures import engine, prefix, redis, redis_url_or_socket, sessions  # noqa: F401
