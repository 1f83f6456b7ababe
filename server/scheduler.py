"""Analysis off the event loop, newest first, one at a time, stale results dropped.

Every open document or notebook (a *target*) asks for analysis when it changes. Requests for the
same target coalesce: however many edits arrive while an analysis runs, one more analysis of the
newest text follows it. There is no fixed delay, so the first edit after a pause is answered as
soon as the analysis is done. The most recently edited target goes first: that is where the user
is looking.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

Snap = TypeVar("Snap")
Res = TypeVar("Res")
log = logging.getLogger(__name__)


class Scheduler(Generic[Snap, Res]):
    def __init__(
        self,
        take_snapshot: Callable[[str], Snap | None],   # None: the target is gone
        run: Callable[[Snap], Res],                    # runs in the worker thread
        is_current: Callable[[Snap], bool],            # the target still has this snapshot's text
        deliver: Callable[[Res], None],
        fail: Callable[[str, BaseException], None],
    ):
        self._take_snapshot = take_snapshot
        self._run = run
        self._is_current = is_current
        self._deliver = deliver
        self._fail = fail
        self._pending: dict[str, None] = {}   # insertion-ordered: the last is the newest request
        self._wake = asyncio.Event()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gradguard-analysis")
        self._task: asyncio.Task | None = None
        self.busy_with: str | None = None

    def request(self, target: str) -> None:
        self._pending.pop(target, None)
        self._pending[target] = None
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._work())

    def forget(self, target: str) -> None:
        self._pending.pop(target, None)

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                target, _ = self._pending.popitem()
                await self._analyze(loop, target)

    async def _analyze(self, loop: asyncio.AbstractEventLoop, target: str) -> None:
        try:
            snap = self._take_snapshot(target)
            if snap is None:
                return
            self.busy_with = target
            started = time.perf_counter()
            result = await loop.run_in_executor(self._executor, self._run, snap)
            log.debug("analysed %s in %.1f ms", target, (time.perf_counter() - started) * 1000)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the server must outlive any analyzer bug
            self._fail(target, error)
            return
        finally:
            self.busy_with = None
        if self._is_current(snap):  # else a newer request is already pending
            self._deliver(result)

    def shutdown(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)
