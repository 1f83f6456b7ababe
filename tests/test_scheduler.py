"""The analysis scheduler: requests coalesce, the newest text is analysed, stale results are dropped."""
from __future__ import annotations

import asyncio
import threading

from gradguard.server.scheduler import Scheduler


async def test_edits_during_an_analysis_coalesce_into_one_analysis_of_the_newest_text():
    versions = {"doc": 0}
    analysed, delivered = [], []
    running = threading.Event()
    release = threading.Event()

    def run(snapshot):
        analysed.append(snapshot)
        running.set()
        release.wait(10)  # hold the first analysis while a hundred edits arrive
        return snapshot

    scheduler = Scheduler(lambda target: (target, versions[target]), run,
                          lambda snapshot: snapshot[1] == versions[snapshot[0]], delivered.append,
                          lambda target, error: None)
    scheduler.request("doc")
    await asyncio.get_running_loop().run_in_executor(None, running.wait, 10)
    for _ in range(100):
        versions["doc"] += 1
        scheduler.request("doc")
    release.set()
    for _ in range(500):
        if delivered:
            break
        await asyncio.sleep(0.01)
    scheduler.shutdown()
    assert [version for _, version in analysed] == [0, 100]  # one more analysis, of the newest text
    assert delivered == [("doc", 100)]  # the stale result of version 0 was dropped


async def test_the_most_recently_edited_document_goes_first():
    order, release = [], threading.Event()

    def run(snapshot):
        order.append(snapshot)
        release.wait(10)
        return snapshot

    scheduler = Scheduler(lambda target: target, run, lambda snapshot: True, lambda result: None,
                          lambda target, error: None)
    scheduler.request("busy")
    await asyncio.sleep(0.05)
    for target in ("a", "b", "c"):
        scheduler.request(target)
    scheduler.request("a")  # edited again: now the newest
    release.set()
    for _ in range(500):
        if len(order) == 4:
            break
        await asyncio.sleep(0.01)
    scheduler.shutdown()
    assert order == ["busy", "a", "c", "b"]


async def test_an_analyzer_crash_is_reported_and_the_scheduler_goes_on():
    failures, delivered = [], []

    def run(snapshot):
        if snapshot == "bad":
            raise RuntimeError("analyzer bug")
        return snapshot

    scheduler = Scheduler(lambda target: target, run, lambda snapshot: True, delivered.append,
                          lambda target, error: failures.append((target, str(error))))
    scheduler.request("bad")
    await asyncio.sleep(0.05)
    scheduler.request("good")
    for _ in range(500):
        if delivered:
            break
        await asyncio.sleep(0.01)
    scheduler.shutdown()
    assert failures == [("bad", "analyzer bug")] and delivered == ["good"]
