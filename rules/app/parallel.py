"""Checking many files on every core: worker processes, results in the order of the files.

The analysis is pure Python, so threads would share one core. Workers are forked where the
platform can (Linux: they start in milliseconds with everything already imported) and spawned
elsewhere. A worker ignores Ctrl-C: the parent stops them all and reports the interruption once.
multiprocessing and concurrent.futures are imported only when workers are started (a check of a
few small files never needs them).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a check need not load it)
if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

MIN_BYTES_PER_WORKER = 64_000  # below this a worker costs more to start than it saves


class WorkerDied(Exception):
    """A worker process ended abruptly (killed, out of memory); `done` results were delivered."""

    def __init__(self, done: int, cause: BaseException) -> None:
        super().__init__(str(cause) or type(cause).__name__)
        self.done = done


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # what this process may use (taskset, containers)
    except AttributeError:
        return os.cpu_count() or 1


def worker_count(requested: int | None, sizes: list[int]) -> int:
    """How many processes to use for files of these sizes: `requested`, or one per core, but
    never more than there are files or than their bytes repay."""
    if requested is not None:
        return max(1, min(requested, len(sizes)))
    return max(1, min(available_cores(), len(sizes), sum(sizes) // MIN_BYTES_PER_WORKER))


def ordered_map(function: Callable, items: list, jobs: int, initializer: Callable, initargs: tuple,
                costs: list[int] | None = None) -> Iterator:
    """`map(function, items)` in `jobs` processes, yielding results in the items' order.

    The items go out most costly first (`costs`, e.g. the files' sizes), in chunks that shrink to
    one item towards the end, so that the workers finish together: with fixed chunks in the
    items' order, one worker could still be busy with its last big chunk while the others wait.

    Raises WorkerDied when a worker ends abruptly; the results before it were yielded."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                               initargs=(initializer, initargs))
    done = 0
    try:
        futures = [(chunk, pool.submit(_map_chunk, function, [items[index] for index in chunk]))
                   for chunk in _chunks(_costliest_first(len(items), costs), jobs)]
        ready: dict[int, object] = {}  # results that arrived before the ones in front of them
        for chunk, future in futures:
            ready.update(zip(chunk, future.result()))
            while done in ready:
                yield ready.pop(done)
                done += 1
    except BrokenProcessPool as error:
        raise WorkerDied(done, error) from error
    except BaseException:  # Ctrl-C, or the consumer stopped: do not wait for the others' work
        _stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _costliest_first(count: int, costs: list[int] | None) -> list[int]:
    """The items' indexes, the most costly first (ties in the items' order)."""
    if costs is None:
        return list(range(count))
    return sorted(range(count), key=lambda index: -costs[index])


def _chunks(order: list[int], jobs: int) -> Iterator[list[int]]:
    """`order` cut into chunks of a 4th of each worker's share of what is left (guided
    scheduling): few messages while much is left, single items at the end."""
    start = 0
    while start < len(order):
        size = max(1, (len(order) - start) // (jobs * 4))
        yield order[start:start + size]
        start += size


def _map_chunk(function: Callable, chunk: list) -> list:
    return [function(item) for item in chunk]


def _start_worker(initializer: Callable, initargs: tuple) -> None:
    import signal  # in a worker process only

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    initializer(*initargs)


def _stop(pool: ProcessPoolExecutor) -> None:
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


M_TOP_PAD = -2  # glibc's mallopt parameter (malloc.h)
KEPT_AT_TOP = 16 << 20


def keep_freed_memory() -> None:
    """Let glibc's malloc keep 16 MiB of freed memory at the top of its heap (M_TOP_PAD) for a run
    of many files, instead of handing it back to the system after each file and having the kernel
    fault in (and zero) fresh pages for the next: on the bench folder (200 files) 43,000 page faults
    become 5,000, a few percent of the run's CPU. The peak memory is the same; the process exits at
    the end. Nothing happens with another C library (no mallopt, or musl's, which ignores it)."""
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        import ctypes

        ctypes.CDLL(None).mallopt(M_TOP_PAD, KEPT_AT_TOP)
    except (AttributeError, ImportError, OSError, ValueError):
        pass


def file_sizes(paths: Iterable[os.PathLike]) -> list[int]:
    sizes = []
    for path in paths:
        try:
            sizes.append(os.path.getsize(path))
        except OSError:
            sizes.append(0)  # reported when the file is read
    return sizes
