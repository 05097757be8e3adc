"""Where the build's jobs run: a local pool (the default) or a ``dask.distributed`` cluster.

Both runners take the same jobs (:mod:`production.render.jobs`, :mod:`production.render.join`) and hand back
futures. The local pool runs each job in a thread of the build; the job's
render is a manim process, so the pool is a pool of processes with no set-up.
The dask runner sends the jobs to a scheduler (``--scheduler tcp://HOST:PORT``
or ``DASK_SCHEDULER_ADDRESS``): a job that raises is retried (``RETRIES``),
and a job whose worker dies is given to another worker by the scheduler
itself. Progress comes back from the workers as dask events.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import socket
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from production.options import RenderError
from production.progress import Event, Report, Stage
from production.render import manim_run

__all__ = ["Runner", "LocalRunner", "DaskRunner", "DaskReport", "connect", "RETRIES", "CONNECT_TIMEOUT"]

RETRIES = 2
"""Times the cluster retries a job that raised (a dead worker's jobs are moved on by the scheduler)."""
CONNECT_TIMEOUT = 5.0
"""Seconds to reach the scheduler before giving up."""


class Runner:
    """What the build needs of a runner."""

    workers: int = 1

    def reporter(self, show: Report) -> Report:
        """A progress callback for the jobs that ends in ``show`` on this machine."""
        raise NotImplementedError

    def submit(self, key: str, fn: Callable[..., Any], *args: Any, priority: float = 0) -> Any:
        """Start ``fn(*args)``; arguments may be futures of this runner, or lists of them."""
        raise NotImplementedError

    def wait_any(self, futures: Iterable[Any]) -> set[Any]:
        """Block until at least one of ``futures`` is finished; return the finished ones."""
        raise NotImplementedError

    def check(self, future: Any) -> None:
        """Raise the job's error, if it failed (without fetching its result)."""
        raise NotImplementedError

    def result(self, future: Any) -> Any:
        """The job's result, here."""
        return future.result()

    def stop(self, futures: Iterable[Any]) -> None:
        """Give up ``futures`` (a job failed, or the build was interrupted)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the runner."""


class LocalRunner(Runner):
    """``jobs`` threads of this process, each driving one manim process at a time."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self.pool = cf.ThreadPoolExecutor(max_workers=jobs)

    def reporter(self, show: Report) -> Report:
        """Progress goes straight to ``show`` (same process)."""
        return show

    def submit(self, key: str, fn: Callable[..., Any], *args: Any, priority: float = 0) -> cf.Future:
        """Run ``fn`` in a pool thread; futures among ``args`` are finished, so their results are passed."""
        return self.pool.submit(fn, *(_resolve(a) for a in args))

    def wait_any(self, futures: Iterable[Any]) -> set[Any]:
        """The finished futures, once there is one."""
        return set(cf.wait(list(futures), return_when=cf.FIRST_COMPLETED).done)

    def check(self, future: Any) -> None:
        """Raise the job's error, if any."""
        future.result()

    def stop(self, futures: Iterable[Any]) -> None:
        """Cancel queued jobs and stop the manim processes of running ones."""
        with manim_run.stopping():  # a render about to start stops at once
            self.pool.shutdown(wait=False, cancel_futures=True)
            manim_run.terminate_children()
            self.pool.shutdown(wait=True)

    def close(self) -> None:
        """Wait for the pool's threads."""
        self.pool.shutdown()


def _resolve(arg: Any) -> Any:
    """A finished future's result in place of the future (also inside a list)."""
    if isinstance(arg, cf.Future):
        return arg.result()
    if isinstance(arg, list):
        return [_resolve(a) for a in arg]
    return arg


@dataclass(frozen=True)
class DaskReport:
    """Progress from a job on a dask worker, sent to the build as an event on ``topic``."""

    topic: str

    def __call__(self, label: str, event: Event) -> None:
        """Send ``event`` of ``label`` to the build (nothing outside a worker)."""
        from distributed import get_worker

        try:
            worker = get_worker()
        except ValueError:  # not on a worker (a job run in-process)
            return
        if event.stage is Stage.RENDERING:
            event = event.on(worker.address)
        worker.log_event(self.topic, [label, event.stage.value, event.text])  # plain values: msgpack


class DaskRunner(Runner):
    """Jobs on a ``dask.distributed`` cluster: the client end of the build."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.workers = max(1, sum(client.nthreads().values()))

    def reporter(self, show: Report) -> Report:
        """Subscribe ``show`` to a topic of this build's own; jobs send events to it."""
        topic = f"lecture-progress-{uuid.uuid4().hex}"

        def received(sent: Any) -> None:
            label, stage, text = sent[1]
            show(label, Event(Stage(stage), text))

        self.client.subscribe_topic(topic, received)
        return DaskReport(topic)

    def submit(self, key: str, fn: Callable[..., Any], *args: Any, priority: float = 0) -> Any:
        """Submit ``fn`` to the cluster, retried on errors; dask resolves futures among ``args``."""
        key = f"{key}-{uuid.uuid4().hex[:8]}"
        return self.client.submit(fn, *args, key=key, retries=RETRIES, pure=False, priority=priority)

    def wait_any(self, futures: Iterable[Any]) -> set[Any]:
        """The finished futures, once there is one."""
        from distributed import wait

        with self.client.as_current():  # wait() asks for the current client
            return set(wait(list(futures), return_when="FIRST_COMPLETED").done)

    def check(self, future: Any) -> None:
        """Raise the job's error (fetched from the cluster) if it failed or was cancelled."""
        if future.status == "error":
            future.result()  # raises the job's own error
        if future.status == "cancelled":
            raise RenderError(f"the cluster cancelled job {future.key} (was the scheduler restarted?)")

    def stop(self, futures: Iterable[Any]) -> None:
        """Cancel the jobs on the cluster."""
        self.client.cancel(list(futures))

    def close(self) -> None:
        """Disconnect from the scheduler."""
        self.client.close()


def check_scheduler(scheduler: str) -> None:
    """Refuse, in one line and at once, an address that is malformed or where nothing listens.

    Both are checked before a ``distributed.Client`` exists: a client made for a
    malformed address fails, and then its finaliser waits 10 s and prints a
    traceback. A TCP address whose port refuses the connection is refused
    without waiting for the client's connect timeout.

    >>> check_scheduler("nonsense")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    production.options.RenderError: --scheduler nonsense is not a scheduler address (...); give it as ...
    """
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port
    from distributed.comm.registry import backends

    try:
        scheme, location = parse_address(scheduler)
        host, port = parse_host_port(location)
        if scheme not in backends:
            raise ValueError(f"unknown protocol {scheme!r}")
    except (ValueError, TypeError) as exc:
        raise RenderError(
            f"--scheduler {scheduler} is not a scheduler address ({exc}); give it as tcp://HOST:PORT"
        ) from None
    if scheme in ("tcp", "tls"):
        try:
            socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
        except OSError as exc:
            raise RenderError(
                f"cannot reach the Dask scheduler at {scheduler} ({exc.strerror or type(exc).__name__}); "
                "start it (`dask scheduler`) or fix --scheduler / DASK_SCHEDULER_ADDRESS"
            ) from None


def connect(scheduler: str | None, jobs: int) -> Runner:
    """A local pool of ``jobs``, or a client of ``scheduler``; one clear line if it cannot be reached."""
    if not scheduler:
        return LocalRunner(jobs)
    check_scheduler(scheduler)
    from distributed import Client

    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # its own retry messages would bury our one line
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RenderError(
            f"cannot reach the Dask scheduler at {scheduler} ({reason}); start it "
            "(`dask scheduler`) or fix --scheduler / DASK_SCHEDULER_ADDRESS"
        ) from None
    finally:
        quiet.setLevel(level)
    return DaskRunner(client)
