"""Arena runs and self-play on Ray: the same tasks as on this machine's cores, spread over a
local Ray or a cluster. Results are those of the default backend, task for task: a board
depends only on the run's configuration and its number, never on where it was played.

    with RayBackend("local", workers=2) as backend:      # or RayBackend("ray://head:10001")
        report = run(config, backend=backend)

A cluster's nodes need the same Python and Ray as this machine (and any outside engine a
player runs); the osteria package itself is shipped with the job. Ray is an optional extra
(``osteria[ray]``); only this module imports it.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, TypeVar

import osteria

Item = TypeVar("Item")
Result = TypeVar("Result")

# Chunks per CPU: enough that the last chunks finish close together, few enough that Ray's cost
# per task (about a millisecond) stays small beside a deal's.
CHUNKS_PER_CPU = 8
# Chunks in flight per CPU: keeps every CPU busy without queueing a whole run's arguments at once.
IN_FLIGHT_PER_CPU = 2
# Seconds to wait for a cluster's head to answer.
CONNECT_TIMEOUT = 10


def _ray() -> Any:
    """The ray module, typed loosely: Ray's own annotations are partial."""
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'osteria[ray]'") from None
    return ray


def _check_reachable(address: str, where: str) -> None:
    """Fail at once on an address nothing answers at: Ray itself would wait minutes."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return  # "auto" and the like: Ray finds the cluster
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise ValueError(f"cannot reach {where}: {exc.strerror or exc}") from None


def _play_chunk(function: Callable[[Item], Result], chunk: Sequence[Item]) -> list[Result]:
    return [function(item) for item in chunk]


class RayBackend:
    """Maps tasks over Ray workers. ``address`` ``"local"`` (or None) starts a Ray on this
    machine with ``workers`` CPUs (all of them when None); any other address is a cluster's,
    as ``ray.init`` takes it (``ray://HOST:10001``, ``HOST:6379``, ``auto``). A Ray that this
    process already started is used as it is. The Ray started here stops on ``close``."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.ray = _ray()
        self.address = None if address in (None, "", "local") else address
        self.workers = workers
        self._started = False

    def _start(self) -> None:
        ray = self.ray
        if ray.is_initialized():
            return
        where = "a local Ray" if self.address is None else f"the Ray cluster at {self.address}"
        if self.address is not None:
            _check_reachable(self.address, where)
        try:
            if self.address is None:
                ray.init(address="local", num_cpus=self.workers, include_dashboard=False,
                         logging_level=logging.WARNING, log_to_driver=False)
            else:
                ray.init(address=self.address, logging_level=logging.WARNING, log_to_driver=False,
                         runtime_env={"py_modules": [osteria]})
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ValueError(f"cannot start {where}: {first_line}") from None
        self._started = True

    def cpus(self) -> int:
        """The CPUs that Ray can give this run's tasks."""
        self._start()
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def map(self, function: Callable[[Item], Result], items: Sequence[Item]) -> Iterator[Result]:
        """``function`` over ``items`` in chunks, each chunk's results as it finishes."""
        ray = self.ray
        if not items:
            return
        cpus = self.cpus()
        size = max(1, len(items) // (cpus * CHUNKS_PER_CPU))
        chunks = [items[start:start + size] for start in range(0, len(items), size)]
        play_chunk = ray.remote(_play_chunk)
        shipped = ray.put(function)  # once, not with every chunk
        waiting = iter(chunks)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < cpus * IN_FLIGHT_PER_CPU and (chunk := next(waiting, None)) is not None:
                    pending.append(play_chunk.remote(shipped, list(chunk)))
                if not pending:
                    return
                finished, pending = ray.wait(pending, num_returns=1)
                yield from ray.get(finished[0])
        finally:
            for ref in pending:  # an interrupted run leaves nothing running
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started:
            self.ray.shutdown()
            self._started = False

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
