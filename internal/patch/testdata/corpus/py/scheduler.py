"""A small job scheduler: test input for the patch corpus."""

from __future__ import annotations

import heapq
import itertools
import logging
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

log = logging.getLogger(__name__)


class SchedulerError(Exception):
    """Raised when a job cannot be scheduled."""


@dataclass(order=True)
class Job:
    due: float
    seq: int
    name: str = field(compare=False)
    run: Callable[[], None] = field(compare=False)
    every: Optional[float] = field(default=None, compare=False)
    cancelled: bool = field(default=False, compare=False)


class Scheduler:
    """Runs jobs at or after their due time, in due order."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._queue: list[Job] = []
        self._seq = itertools.count()
        self._by_name: dict[str, Job] = {}

    def __len__(self) -> int:
        return sum(1 for j in self._queue if not j.cancelled)

    def at(self, when: float, name: str, run: Callable[[], None]) -> Job:
        if name in self._by_name:
            raise SchedulerError(f"job {name!r} is already scheduled")
        job = Job(when, next(self._seq), name, run)
        heapq.heappush(self._queue, job)
        self._by_name[name] = job
        return job

    def after(self, delay: float, name: str, run: Callable[[], None]) -> Job:
        if delay < 0:
            raise SchedulerError(f"delay {delay} is negative")
        return self.at(self._clock() + delay, name, run)

    def every(self, period: float, name: str, run: Callable[[], None]) -> Job:
        if period <= 0:
            raise SchedulerError(f"period {period} is not positive")
        job = self.at(self._clock() + period, name, run)
        job.every = period
        return job

    def cancel(self, name: str) -> bool:
        job = self._by_name.pop(name, None)
        if job is None:
            return False
        job.cancelled = True
        return True

    def run_pending(self) -> int:
        """Runs every job that is due; returns how many ran."""
        ran = 0
        now = self._clock()
        while self._queue and self._queue[0].due <= now:
            job = heapq.heappop(self._queue)
            if job.cancelled:
                continue
            del self._by_name[job.name]
            try:
                job.run()
            except Exception:
                log.exception("job %s failed", job.name)
            ran += 1
            if job.every is not None:
                self.every(job.every, job.name, job.run)
        return ran

    def next_due(self) -> Optional[float]:
        """The due time of the next job, or None."""
        while self._queue and self._queue[0].cancelled:
            heapq.heappop(self._queue)
        if not self._queue:
            return None
        return self._queue[0].due


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    s = Scheduler()
    s.after(0.1, "hello", lambda: print("hello"))
    s.every(0.5, "tick", lambda: print("tick"))
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        s.run_pending()
        time.sleep(0.05)


if __name__ == "__main__":
    main()
