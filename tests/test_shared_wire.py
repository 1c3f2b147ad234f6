"""The lean script path to one Redis server (:mod:`robotkit.shared.wire`): calls of
several tasks share one connection and each gets its own replies; a server that lost
its scripts, a dropped connection, a password and a database are handled as redis-py
handles them; an error reply is an exception."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis
from support.redis_server import RedisServer

from robotkit.shared.connection import (
    Runner,
    ScriptCall,
    SharedStateUnavailable,
    async_client,
    talking_to,
)

ECHO = "return {KEYS[1], ARGV[1], redis.call('INCR', KEYS[1])}"


def _echo(key: str, word: str) -> ScriptCall:
    return ScriptCall(ECHO, [key], [word])


def test_calls_of_many_tasks_share_one_connection_in_order(redis_url: str, crawl_id: str) -> None:
    async def scenario() -> None:
        client = async_client(redis_url)
        runner = Runner(client)
        assert runner.wire is not None
        key = f"{crawl_id}:n"
        answers = await asyncio.gather(
            *(runner.one(_echo(key, str(n))) for n in range(50)),
            runner.many([_echo(key, "a"), _echo(key, "b")], whole=1),
        )
        singles, pair = answers[:50], answers[50]
        assert [a[1] for a in singles] == [str(n).encode() for n in range(50)]
        counts = sorted(int(a[2]) for a in [*singles, *pair])
        assert counts == list(range(1, 53)), "each call ran once"
        assert [a[1] for a in pair] == [b"a", b"b"]
        await client.aclose()
        assert runner.wire._link is None, "closed with its client"

    asyncio.run(scenario())


def test_scripts_lost_and_a_dropped_connection_are_recovered(redis_url: str, crawl_id: str) -> None:
    async def scenario() -> None:
        client = async_client(redis_url)
        runner = Runner(client)
        key = f"{crawl_id}:n"
        await runner.one(_echo(key, "x"))
        admin = redis.Redis.from_url(redis_url)
        admin.script_flush()
        assert (await runner.one(_echo(key, "y")))[2] == 2, "loaded again and run once"
        admin.script_flush()
        assert [a[2] for a in await runner.many([_echo(key, "z"), _echo(key, "w")])] == [3, 4]
        admin.client_kill_filter(_type="normal", skipme=True)  # drops the wire's connection
        assert (await runner.one(_echo(key, "v")))[2] == 5, "reconnected and retried"
        admin.close()
        await client.aclose()

    asyncio.run(scenario())


def test_a_client_without_the_wire_runs_the_same_calls_by_redis_py(
    redis_url: str, crawl_id: str
) -> None:
    """A client made elsewhere (here redis-py's own, as TLS or a Unix socket would be)
    has no wire: the same commands go in a redis-py pipeline, the first ``whole`` with
    their text, and a script the server lost is loaded and run again."""

    async def scenario() -> None:
        client = redis.asyncio.Redis.from_url(redis_url)
        runner = Runner(client)
        assert runner.wire is None
        key = f"{crawl_id}:n"
        admin = redis.Redis.from_url(redis_url)
        admin.script_flush()
        pair = await runner.many([_echo(key, "a"), _echo(key, "b")], whole=1)
        assert [(a[1], a[2]) for a in pair] == [(b"a", 1), (b"b", 2)]
        admin.script_flush()
        pair = await runner.many([_echo(key, "c"), _echo(key, "d")])
        assert [(a[1], a[2]) for a in pair] == [(b"c", 3), (b"d", 4)]
        admin.close()
        await client.aclose()

    asyncio.run(scenario())


def test_an_error_reply_is_raised_and_the_connection_stays_in_step(
    redis_url: str, crawl_id: str
) -> None:
    async def scenario() -> None:
        client = async_client(redis_url)
        runner = Runner(client)
        bad = ScriptCall("return redis.call('NOSUCHCOMMAND')", [f"{crawl_id}:k"], [])
        with pytest.raises(SharedStateUnavailable, match="Redis error"), talking_to("k"):
            await runner.one(bad)
        assert (await runner.one(_echo(f"{crawl_id}:n", "after")))[1] == b"after"
        await client.aclose()

    asyncio.run(scenario())


def test_a_password_and_a_database_from_the_url(tmp_path: Path) -> None:
    server = RedisServer(tmp_path)
    redis.Redis(port=server.port).config_set("requirepass", "s3cret")
    url = f"redis://:s3cret@127.0.0.1:{server.port}/2"

    async def scenario() -> None:
        client = async_client(url)
        await Runner(client).one(_echo("counted", "x"))
        await client.aclose()
        wrong = async_client(f"redis://:nope@127.0.0.1:{server.port}/2")
        with pytest.raises(SharedStateUnavailable), talking_to("k"):
            await Runner(wrong).one(_echo("counted", "x"))
        await wrong.aclose()

    try:
        asyncio.run(scenario())
        admin = redis.Redis(port=server.port, password="s3cret", db=2)
        assert admin.get("counted") == b"1", "in the URL's database"
        admin.close()
    finally:
        server.stop()


def test_a_server_that_does_not_answer_times_out(tmp_path: Path) -> None:
    server = RedisServer(tmp_path)

    async def scenario() -> None:
        client = async_client(server.url, socket_timeout=0.3)
        runner = Runner(client)
        await runner.one(_echo("k", "x"))
        server.process.send_signal(19)  # SIGSTOP: connected, silent
        try:
            with pytest.raises(SharedStateUnavailable, match="unreachable"), talking_to("k"):
                await runner.one(_echo("k", "y"))
        finally:
            server.process.send_signal(18)  # SIGCONT
        await client.aclose()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()
