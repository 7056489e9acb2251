"""The scheduler of the tables' thinking: a person's table first, every table in its turn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from osteria.server.scheduler import Scheduler


class HeldExecutor(Executor):
    """Starts nothing by itself: the test ends each job it was given, in the order it chooses."""

    def __init__(self) -> None:
        self.started: list[tuple[str, Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.started.append((fn(), future))  # a job of the test only names itself
        return future

    def names(self) -> list[str]:
        return [name for name, _ in self.started]

    async def finish(self, name: str) -> None:
        future = next(f for n, f in self.started if n == name)
        future.set_result(name)
        for _ in range(5):  # the wrapped future and the scheduler's callback run on the loop
            await asyncio.sleep(0)


def job(scheduler: Scheduler, table: str, name: str, person: bool) -> asyncio.Task[str]:
    return asyncio.ensure_future(scheduler.run(table, lambda: name, lambda: person))


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_persons_table_goes_before_the_queued_bot_only_jobs() -> None:
    async def scenario() -> None:
        executor = HeldExecutor()
        scheduler = Scheduler(executor, workers=2, spare=1)
        # A bot-only table is thinking, and two more bot-only jobs wait behind it.
        watched = [job(scheduler, "bots", "bots 1", False), job(scheduler, "bots", "bots 2", False),
                   job(scheduler, "others", "others 1", False)]
        await settle()
        assert executor.names() == ["bots 1"]  # the last thread stays free for a person
        person = job(scheduler, "person", "person 1", True)
        await settle()
        assert executor.names() == ["bots 1", "person 1"]  # at once, though the others came first
        later = job(scheduler, "person", "person 2", True)
        await executor.finish("bots 1")
        assert executor.names() == ["bots 1", "person 1", "person 2"]  # before "bots 2" and "others 1"
        await executor.finish("person 1")
        await executor.finish("person 2")
        # Then the bot-only tables in turn, one at a time: "others" before "bots" has its second.
        assert executor.names() == ["bots 1", "person 1", "person 2", "others 1"]
        await executor.finish("others 1")
        assert executor.names()[-1] == "bots 2"
        await executor.finish("bots 2")
        assert [t.result() for t in [*watched, person, later]] == [
            "bots 1", "bots 2", "others 1", "person 1", "person 2"]

    asyncio.run(scenario())


def test_tables_take_turns_and_urgency_is_asked_when_a_thread_frees() -> None:
    async def scenario() -> None:
        executor = HeldExecutor()
        scheduler = Scheduler(executor, workers=1)
        connected = {"a": False, "b": False, "c": False}
        tasks = [asyncio.ensure_future(scheduler.run(table, lambda name=name: name, lambda t=table: connected[t]))
                 for table, name in [("a", "a 1"), ("a", "a 2"), ("a", "a 3"), ("b", "b 1"), ("c", "c 1")]]
        await settle()
        assert executor.names() == ["a 1"]
        await executor.finish("a 1")
        assert executor.names() == ["a 1", "b 1"]  # table b's turn, though table a asked first
        connected["c"] = True  # a person sits down at table c while b's job runs
        await executor.finish("b 1")
        assert executor.names() == ["a 1", "b 1", "c 1"]
        await executor.finish("c 1")
        await executor.finish("a 2")
        await executor.finish("a 3")
        assert executor.names() == ["a 1", "b 1", "c 1", "a 2", "a 3"]
        assert [t.result() for t in tasks] == ["a 1", "a 2", "a 3", "b 1", "c 1"]

    asyncio.run(scenario())


def test_a_closed_scheduler_cancels_what_waits() -> None:
    async def scenario() -> None:
        executor = HeldExecutor()
        scheduler = Scheduler(executor, workers=1)
        running, waiting = job(scheduler, "a", "a 1", True), job(scheduler, "b", "b 1", True)
        await settle()
        scheduler.close()
        await executor.finish("a 1")
        await settle()
        assert running.result() == "a 1" and waiting.cancelled()
        late = job(scheduler, "a", "a 2", True)
        await settle()
        assert late.cancelled()  # cancelled, not failed: a failed bot would still play a card
        assert executor.names() == ["a 1"]

    asyncio.run(scenario())
