from tests.db.fixtures import engine, redis, redis_url_or_socket, sessions  # noqa: F401
