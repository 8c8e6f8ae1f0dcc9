"""Reviews of finished games (``GET /api/tables/{code}/games/{n}/review``): the steps, and analyses in a pool.

A review is two things. Its steps (:func:`unoengine.play.review.review_steps`: every
hand face up, the narrator's lines, the spectator's view) are built once per game in a
thread and kept as JSON text. Its analysis (:func:`unoengine.analysis.analyze`) is
slow — a search per decision — so it never runs in the server's process: a
:class:`concurrent.futures.ProcessPoolExecutor` of ``ServerConfig.review_workers``
processes (default 1, at nice 10) runs them, at most that many at once, at most one per
table at a time (a table's second game waits its turn), the others queued in order of
request. The event loop only hands a record over and reads the answer, so live tables keep
their pace (docs/PROTOCOL.md, "Reviews", has the measurement).

Progress: each running job owns one slot of a shared array (``done``, ``total``) that the
worker process writes from ``analyze``'s ``progress`` callback; the loop reads it when a
client asks. Results are kept in memory, the last :data:`KEEP` games' (least recently
asked first out); a restarted server analyses a game again when it is asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
from collections import OrderedDict, deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from unoengine.core.record import parse_record
from unoengine.i18n import DEFAULT
from unoengine.play.review import review_steps

__all__ = ["KEEP", "Review", "Reviews", "analyse_in_worker", "steps_json"]

KEEP = 300
"""Games whose steps and analysis stay in memory (least recently asked leave first)."""

_progress: Any = None
"""In a worker process: the shared array of (done, total) pairs, one pair per slot (set by :func:`_init_worker`)."""


def _init_worker(progress: Any) -> None:
    """A worker's start: the shared progress array, and a lower priority (nice 10), so that on a
    machine with few cores the server's event loop gets a core before an analysis does."""
    global _progress
    _progress = progress
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def analyse_in_worker(record_text: str, iterations: int, slot: int) -> dict[str, Any]:
    """In a worker process: analyse one record and return ``Analysis.to_json()``; progress goes to ``slot``."""
    from unoengine.analysis import analyze

    shared = _progress

    def progress(done: int, total: int) -> None:
        if shared is not None:
            shared[2 * slot] = done
            shared[2 * slot + 1] = total

    progress(0, 0)
    analysis = analyze(parse_record(record_text), iterations=iterations or None, progress=progress)
    result: dict[str, Any] = analysis.to_json()
    return result


def steps_json(record_text: str, names: list[str], lang: str = DEFAULT) -> str:
    """The review's ``steps`` as JSON text: the deal and one step per action, every hand face up;
    their lines and words in ``lang``."""
    steps = review_steps(parse_record(record_text), names)
    return json.dumps([step.to_json(lang) for step in steps], separators=(",", ":"), ensure_ascii=lang == DEFAULT)


@dataclass(eq=False)
class Review:
    """One finished game's review: its steps (JSON text, once built) and its analysis's state."""

    code: str
    number: int
    record: str
    names: list[str]
    steps: str | None = None
    status: str = "queued"
    """``queued``, ``running``, ``done``, ``failed``, or ``off`` (reviews are not analysed on this server)."""
    slot: int | None = None
    """The progress slot while running."""
    done: int = 0
    total: int | None = None
    result: dict[str, Any] | None = None
    building: asyncio.Future[str] | None = field(default=None, repr=False)
    said_in: dict[str, asyncio.Future[str]] = field(default_factory=dict, repr=False)
    """The steps in another language than English, built when first asked (``?lang=``), kept with the review."""


class Reviews:
    """The server's reviews: kept steps and results, the queue, and the pool of analysis processes."""

    def __init__(self, workers: int = 1, iterations: int = 0, keep: int = KEEP) -> None:
        self.workers = workers
        self.iterations = iterations
        self.keep = keep
        self.kept: OrderedDict[tuple[str, int], Review] = OrderedDict()
        self.waiting: deque[Review] = deque()
        self.running: set[str] = set()
        """The tables with an analysis running now (one at a time per table)."""
        self.free: list[int] = list(range(workers))
        self._pool: ProcessPoolExecutor | None = None
        self._progress: Any = None

    def _executor(self) -> ProcessPoolExecutor:
        """The pool, started on first use ("spawn": a fork of a running event loop's process is not safe)."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._progress = context.Array("q", 2 * self.workers, lock=False)
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_init_worker, initargs=(self._progress,)
            )
        return self._pool

    async def review(self, code: str, number: int, record: str, names: list[str]) -> Review:
        """The game's review, its steps built; the first ask queues its analysis."""
        key = (code, number)
        review = self.kept.get(key)
        if review is None:
            review = Review(code, number, record, names, status="queued" if self.workers > 0 else "off")
            self.kept[key] = review
            while len(self.kept) > self.keep:
                _, old = self.kept.popitem(last=False)
                if old.status == "queued":
                    self.waiting.remove(old)
            if self.workers > 0:
                self.waiting.append(review)
                self._pump()
        else:
            self.kept.move_to_end(key)
        if review.steps is None:
            if review.building is None:  # built once, in a thread: a long game takes tens of milliseconds
                review.building = asyncio.ensure_future(asyncio.to_thread(steps_json, record, names))
            review.steps = await asyncio.shield(review.building)
        return review

    async def steps_in(self, review: Review, lang: str) -> str:
        """The review's steps as JSON text in ``lang`` (English: :attr:`Review.steps`), built once per language."""
        if lang == DEFAULT and review.steps is not None:
            return review.steps
        building = review.said_in.get(lang)
        if building is None:
            building = review.said_in[lang] = asyncio.ensure_future(
                asyncio.to_thread(steps_json, review.record, review.names, lang)
            )
        return await asyncio.shield(building)

    def analysis(self, review: Review) -> dict[str, Any]:
        """The ``analysis`` part of the answer: status, progress and (when done) the result."""
        done, total = review.done, review.total
        if review.status == "running" and review.slot is not None and self._progress is not None:
            done = int(self._progress[2 * review.slot])
            total = int(self._progress[2 * review.slot + 1]) or None  # 0: the worker has not counted yet
        return {"status": review.status, "done": done, "total": total, "result": review.result}

    def _pump(self) -> None:
        """Start queued analyses while a worker is free, skipping tables that have one running."""
        for review in list(self.waiting):
            if not self.free:
                return
            if review.code in self.running:
                continue
            self.waiting.remove(review)
            self._start(review)

    def _start(self, review: Review) -> None:
        slot = self.free.pop()
        pool = self._executor()
        self._progress[2 * slot] = 0
        self._progress[2 * slot + 1] = 0
        review.status, review.slot = "running", slot
        self.running.add(review.code)
        future = asyncio.get_running_loop().run_in_executor(
            pool, analyse_in_worker, review.record, self.iterations, slot
        )
        future.add_done_callback(lambda done: self._finished(review, done))

    def _finished(self, review: Review, future: asyncio.Future[dict[str, Any]]) -> None:
        slot = review.slot
        assert slot is not None
        if not future.cancelled() and future.exception() is None:
            review.result = future.result()
            review.status = "done"
            decisions = review.result.get("decisions", [])
            review.done = review.total = len(decisions)
        else:
            review.status = "failed"
            review.done, review.total = int(self._progress[2 * slot]), int(self._progress[2 * slot + 1]) or None
        review.slot = None
        self.free.append(slot)
        self.running.discard(review.code)
        self._pump()

    def close(self) -> None:
        """Stop the pool: running analyses are abandoned (their workers end), queued ones dropped."""
        self.waiting.clear()
        if self._pool is not None:
            processes = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()  # an analysis may run for minutes: do not wait for it at shutdown
            self._pool = None

    def stats(self) -> dict[str, Any]:
        """For ``GET /api/stats``: the pool's size, what runs and what waits."""
        return {
            "review_workers": self.workers,
            "reviews_running": len(self.running),
            "reviews_queued": len(self.waiting),
        }
