"""The order in which the tables' thinking (bots' moves, hints, analyses) gets the bots' threads.

Every table has its own queue, and the queues are served in turn, one job at a time, so a table
with much to do cannot hold back the others. A job that a person is waiting on (a move at a table
where a human seat is connected, a hint) is taken before any other, and the others, those of
tables only bots play and perhaps somebody watches, never take the last ``spare`` threads: a
person's next job always finds a thread free instead of waiting for a bot-only table's search to
end. The bots search for a fixed wall time, so sharing the processor with a bot-only table costs
a person's bots some depth, not time.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class Job:
    urgent: Callable[[], bool]  # asked when the job may start: whether a person waits on it
    work: Callable[[], Any]
    done: asyncio.Future[Any]


class Scheduler:
    """Runs jobs on ``executor``, at most ``workers`` at once, of which jobs nobody waits on take at
    most ``workers - spare`` (at least one); per queue in the order given, queues in turn."""

    def __init__(self, executor: Executor, workers: int, spare: int = 1) -> None:
        self.executor = executor
        self.workers = workers
        self.background_workers = max(1, workers - spare)
        self.running = 0
        self.running_background = 0
        self._queues: dict[Hashable, deque[Job]] = {}  # the queues with jobs waiting
        # When each queue last got a thread, so that it goes after those served before it; kept for
        # a queue that empties too, or a table with one job at a time would always be first.
        self._served: dict[Hashable, int] = {}
        self._turn = 0
        self._closed = False

    async def run(self, queue: Hashable, work: Callable[[], T], urgent: Callable[[], bool]) -> T:
        """The result of ``work``, run on a thread once its turn comes; ``queue``: whose job it is
        (a table); ``urgent``: whether a person waits on it, asked when a thread is free."""
        if self._closed:
            # Cancelled, not failed: a bot whose move failed would play its first legal action,
            # and the server is stopping, not the bot.
            raise asyncio.CancelledError("the server is stopping")
        job = Job(urgent, work, asyncio.get_running_loop().create_future())
        self._queues.setdefault(queue, deque()).append(job)
        self._dispatch()
        result: T = await job.done
        return result

    def close(self) -> None:
        """Cancel every job not yet started, and every one asked for from now on."""
        self._closed = True
        for jobs in self._queues.values():
            for job in jobs:
                job.done.cancel()
        self._queues.clear()

    def _next(self) -> tuple[Job, bool] | None:
        """The job to start now and whether it is urgent: of the queues, the one served longest ago
        first, the first urgent job, else the first other one if a thread is free for it."""
        chosen = None
        for queue in sorted(self._queues, key=lambda q: self._served.get(q, 0)):
            if self._queues[queue][0].urgent():
                chosen = queue, True
                break
            if chosen is None and self.running_background < self.background_workers:
                chosen = queue, False
        if chosen is None:
            return None
        queue, urgent = chosen
        self._turn += 1
        self._served[queue] = self._turn
        jobs = self._queues[queue]
        job = jobs.popleft()
        if not jobs:
            del self._queues[queue]
        return job, urgent

    def _dispatch(self) -> None:
        while self.running < self.workers:
            picked = self._next()
            if picked is None:
                return
            job, urgent = picked
            if job.done.cancelled():  # its asker went away while it waited
                continue
            self.running += 1
            self.running_background += not urgent
            future = asyncio.wrap_future(self.executor.submit(job.work))
            future.add_done_callback(functools.partial(self._finished, job=job, urgent=urgent))

    def _finished(self, future: asyncio.Future[Any], *, job: Job, urgent: bool) -> None:
        self.running -= 1
        self.running_background -= not urgent
        if not job.done.done():
            if future.cancelled():
                job.done.cancel()
            elif (exc := future.exception()) is not None:
                job.done.set_exception(exc)
            else:
                job.done.set_result(future.result())
        self._dispatch()
