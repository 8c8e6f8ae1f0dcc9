"""Train the ``ppo`` bot: imitate ``heuristic``, then ``ismcts``'s decisions, then PPO against ``heuristic``.

Needs the ``train`` extra (``pip install -e '.[train]'``: PyTorch). Every step is
reproducible from ``--seed`` (game seeds, bot seeds, the network's initialisation,
the order of the batches); the run prints its wall time and machine, and trains
on a GPU when PyTorch sees one (nothing requires one). The network sees the
observation with the discard pile's counts by kind (``--discards``, on by
default: ``Encoding(discards=True)``; the teacher's search knows which cards are
still out, and without them the same run ends about half a point weaker).

1. *Warm start*: ``--warm`` decisions of ``heuristic`` bots playing each other,
   cross-entropy on the masked logits (``--warm-epochs``).
2. *The expert's decisions*: ``--games`` Classic heads-up games of
   ``ismcts:iterations=N`` (``--iterations``) against ``heuristic``, seats
   alternating; every decision of the ``ismcts`` seat (its observation, its
   legal ids, the id it chose) is kept.
3. *DAgger* (``--dagger`` rounds of ``--dagger-games`` games): the network
   itself plays against ``heuristic`` and an ``ismcts`` bot beside it labels
   each of its decisions (what ``ismcts`` would have played from that view), so
   the labels cover the positions the network's own play leads to.
4. After each round the network is fitted again on all the expert's labels so far
   (``--epochs``), starting from the previous round's weights, and measured
   against ``heuristic`` (``--eval-deals`` deals, each played twice with the
   seats swapped). The last round's network (after step 5: the best PPO actor)
   is exported (``--out``) to the ``.npz`` that
   :class:`unoengine.rl.policy.PPOBot` plays with NumPy only.
5. *PPO fine-tuning* (``--ppo-updates``; 0: none): the exported network (or
   ``--init``'s, skipping steps 1-4) is the actor of a masked PPO against
   ``heuristic`` on :class:`unoengine.rl.VectorEnv`, beside a fresh critic that
   is fitted alone first (``--ppo-critic-updates``). Every ``--ppo-eval-every``
   updates the greedy actor is measured as in step 4 and the best one is kept.
   The phase ends by a number of updates, not by wall time, so it is
   reproducible from ``--seed``.

The expert's positions are cached (``--cache``, keyed by the arguments that make
them), so a second run with other training settings skips the games.

    nice -n 19 python examples/train_expert.py --seed 0
    nice -n 19 python examples/train_expert.py --seed 0 --init imitation.npz   # step 5 alone
    uno tournament --rules classic --seats 2 --bots ppo,heuristic --games 20000 --jobs 1
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from unoengine.bots.heuristic import HeuristicBot
from unoengine.bots.ismcts import IsmctsBot
from unoengine.core.action_ids import ACTION_IDS_VERSION, NUM_ACTIONS
from unoengine.core.actions import Action
from unoengine.rl.batch import bot_decision
from unoengine.rl.encoding import ENCODING_VERSION, Encoding
from unoengine.rl.match import Match
from unoengine.rl.policy import WEIGHTS, Policy, PPOBot
from unoengine.rl.vector_env import VectorEnv

RULES, SEATS = "classic", 2
CHUNK = 500
"""The expert's games are played (and cached) in chunks of this many."""
LAYOUT = {"action_ids_version": ACTION_IDS_VERSION, "encoding_version": ENCODING_VERSION}
"""Part of every cache key: positions saved with another action table or observation layout (masks of another
width) are made again, not fed to a network of this one."""
UNRECORDED = ("cache", "out", "init", "ppo_keep")
"""The options that do not change the weights, left out of the ``trained`` record in the exported file's meta."""
MACHINE = f"{platform.platform()}, {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs"
Data = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]
"""Observations (float32), masks (int8, one row of ``NUM_ACTIONS`` per decision), the ids taken."""


class Net(nn.Module):
    """The policy: ``squash``, dense ``tanh`` layers, one logit per action id (what :class:`Policy` runs)."""

    def __init__(self, size: int, hidden: int, depth: int) -> None:
        super().__init__()
        sizes = [size] + [hidden] * depth
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
        self.out = nn.Linear(hidden, NUM_ACTIONS)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = torch.sign(x) * torch.log1p(torch.abs(x))  # unoengine.rl.policy.squash
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return self.out(x).masked_fill(mask == 0, -1e9)

    def export(self, meta: dict[str, Any]) -> Policy:
        layers = [*self.layers, self.out]
        arrays = [
            (layer.weight.detach().cpu().numpy().T.copy(), layer.bias.detach().cpu().numpy().copy()) for layer in layers
        ]
        return Policy({**meta, "layers": len(arrays)}, arrays)


class Recorder:
    """Decisions kept as (observation, legal ids, id taken), with the decision kinds met."""

    def __init__(self, discards: bool) -> None:
        self.encoding = Encoding(RULES, SEATS, discards=discards)
        self.observations: list[np.ndarray[Any, Any]] = []
        self.legal: list[list[int]] = []
        self.taken: list[int] = []
        self.kinds: set[str] = set()

    def keep(self, match: Match, seat: int, action: Action) -> None:
        self.observations.append(self.encoding.observe_state(match.state, seat))
        self.legal.append(list(match.ids))
        self.taken.append(match.ids[match.choices.index(action)])
        self.kinds.add(match.state.pending.kind)

    def arrays(self) -> Data:
        masks = np.zeros((len(self.taken), NUM_ACTIONS), np.int8)
        for row, ids in enumerate(self.legal):
            masks[row, ids] = 1
        return np.array(self.observations, np.float32), masks, np.array(self.taken, np.int64)


def heuristic_games(decisions: int, seed: int, recorder: Recorder) -> None:
    """``decisions`` decisions of two ``heuristic`` bots playing each other."""
    match = Match(RULES, SEATS)
    game = 0
    while len(recorder.taken) < decisions:
        match.reset(seed * 1_000_003 + game)
        bots = [HeuristicBot(random.Random(f"warm:{seed}:{game}:{seat}")) for seat in range(SEATS)]
        game += 1
        while not match.is_over and len(recorder.taken) < decisions:
            seat = match.seat
            assert seat is not None
            action = bot_decision(bots[seat], match)
            recorder.keep(match, seat, action)
            match.take(action)


def expert_games(
    games: int, first: int, seed: int, iterations: int, recorder: Recorder, student: Policy | None = None
) -> dict[str, int]:
    """Games ``first…first+games-1`` of the learner's seat against ``heuristic``, seats alternating; every
    decision of the learner's seat is labelled with ``ismcts``'s choice. The learner's seat is played by
    ``ismcts`` itself, or (``student``) by the network, ``ismcts`` beside it labelling. Returns the wins."""
    match = Match(RULES, SEATS)
    wins = {"games": 0, "learner": 0}
    for game in range(first, first + games):
        match.reset(seed * 7_000_003 + 500_000 + game)
        me = game % SEATS
        expert = IsmctsBot(random.Random(f"expert:{seed}:{game}"), iterations=iterations)
        opponent = HeuristicBot(random.Random(f"opponent:{seed}:{game}"))
        actor = None if student is None else PPOBot(random.Random(0), policy=student)
        while not match.is_over:
            seat = match.seat
            assert seat is not None
            if seat != me:
                match.take(bot_decision(opponent, match))
                continue
            label = bot_decision(expert, match)
            recorder.keep(match, seat, label)
            match.take(label if actor is None else bot_decision(actor, match))
        wins["games"] += 1
        wins["learner"] += int(match.state.outcome is not None and match.state.outcome.winner == me)
    return wins


def fit(net: Net, data: Data, epochs: int, lr: float, rng: np.random.Generator, device: torch.device) -> None:
    """Behaviour cloning: cross-entropy of the masked logits on the ids taken (Adam, a cosine schedule)."""
    observations, masks, taken = (torch.from_numpy(array).to(device) for array in data)
    count = len(taken)
    batch = 256
    steps = epochs * ((count + batch - 1) // batch)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, max(1, steps))
    for epoch in range(epochs):
        order = torch.from_numpy(rng.permutation(count)).to(device)
        correct = 0
        total_loss = 0.0
        for start in range(0, count, batch):
            idx = order[start : start + batch]
            logits = net(observations[idx], masks[idx])
            loss = nn.functional.cross_entropy(logits, taken[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total_loss += loss.item() * len(idx)
            correct += int((logits.argmax(-1) == taken[idx]).sum())
        print(f"  epoch {epoch}: loss {total_loss / count:.4f}, agrees on {correct / count:.4f}", flush=True)


def evaluate(policy: Policy, deals: int, seed: int) -> tuple[float, float, float]:
    """The policy's win rate against ``heuristic`` over ``deals`` deals, each played twice with the seats
    swapped, and a 95% interval that resamples the deals."""
    match = Match(RULES, SEATS)
    per_deal = np.zeros(deals)
    for deal in range(deals):
        for me in range(SEATS):
            match.reset(seed * 9_000_011 + deal)
            bots: list[Any] = [HeuristicBot(random.Random(f"eval:{deal}:{me}")) for _ in range(SEATS)]
            bots[me] = PPOBot(random.Random(0), policy=policy)
            while not match.is_over:
                seat = match.seat
                assert seat is not None
                match.take(bot_decision(bots[seat], match))
            outcome = match.state.outcome
            per_deal[deal] += int(outcome is not None and outcome.winner == me) / SEATS
    boot = np.random.default_rng(seed).choice(per_deal, (2000, deals)).mean(1)
    return float(per_deal.mean()), float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))


def actor_of(policy: Policy, device: torch.device) -> Net:
    """A :class:`Net` holding ``policy``'s weights (the inverse of :meth:`Net.export`)."""
    (first, _), *_ = policy.layers
    net = Net(first.shape[0], first.shape[1], len(policy.layers) - 1)
    with torch.no_grad():
        for layer, (weight, bias) in zip([*net.layers, net.out], policy.layers, strict=True):
            layer.weight.copy_(torch.from_numpy(weight.T.copy()))
            layer.bias.copy_(torch.from_numpy(bias.copy()))
    return net.to(device)


def ppo_finetune(policy: Policy, args: argparse.Namespace, device: torch.device, clock: Any) -> Policy:
    """Masked PPO of ``policy`` against ``heuristic`` (``--ppo-*``); the best greedy actor measured."""
    torch.manual_seed(args.seed)  # the same from --init as after the imitation
    actor = actor_of(policy, device)
    discards = policy.encoding.discards  # the layout the policy was made for (with --init too)
    size, hidden = policy.layers[0][0].shape
    critic = nn.Sequential(
        nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1)
    ).to(device)
    actor_opt = torch.optim.Adam(actor.parameters(), lr=args.ppo_lr, eps=1e-5)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=args.ppo_critic_lr, eps=1e-5)
    envs = VectorEnv(
        args.ppo_envs, RULES, SEATS, opponents=["heuristic"], seat=None, illegal="raise", discards=discards
    )
    pending = envs.encoding.piece(np.arange(envs.encoding.size, dtype=np.float32), "pending").astype(np.int64)
    known = torch.tensor([kind in policy.decisions for kind in envs.encoding.decisions], device=device)
    steps, count = args.ppo_steps, args.ppo_envs
    obs = torch.zeros((steps, count, size), device=device)
    masks = torch.zeros((steps, count, NUM_ACTIONS), dtype=torch.int8, device=device)
    actions = torch.zeros((steps, count), dtype=torch.long, device=device)
    logprobs, rewards, ended, values = (torch.zeros((steps, count), device=device) for _ in range(4))
    valid = torch.zeros((steps, count), dtype=torch.bool, device=device)
    trainable = torch.zeros((steps, count), dtype=torch.bool, device=device)

    def value(x: torch.Tensor) -> torch.Tensor:
        return critic(torch.sign(x) * torch.log1p(torch.abs(x))).flatten()

    def snapshot() -> Policy:
        return actor.export(policy.meta)

    best = policy
    best_rate, low, high = evaluate(policy, args.eval_deals, args.seed + 1000) if args.eval_deals else (0.0, 0.0, 0.0)
    print(f"{clock()} PPO: start {best_rate:.4f} ({low:.4f}-{high:.4f}) against heuristic", flush=True)
    next_np, _ = envs.reset(seed=args.seed * 11_000_027)
    resetting = np.zeros(count, dtype=np.bool_)
    results: list[float] = []
    for update in range(1, args.ppo_updates + 1):
        for step in range(steps):
            x = torch.tensor(next_np["observation"], dtype=torch.float32, device=device)
            mask = torch.tensor(next_np["action_mask"], dtype=torch.int8, device=device)
            obs[step], masks[step] = x, mask
            valid[step] = torch.from_numpy(~resetting).to(device)
            kinds = torch.from_numpy(next_np["observation"][:, pending] > 0).to(device)
            trainable[step] = valid[step] & (kinds & known).any(1)
            with torch.no_grad():
                logits = actor(x, torch.where(valid[step, :, None], mask, torch.ones_like(mask)))
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
                logprobs[step], values[step] = dist.log_prob(action), value(x)
            actions[step] = action
            next_np, reward, terminations, truncations, _ = envs.step(action.cpu().numpy())
            done = terminations | truncations
            rewards[step] = torch.tensor(reward, device=device)
            ended[step] = torch.tensor(done, dtype=torch.float32, device=device)
            results.extend(float(r > 0) for r in reward[done])
            resetting = done.copy()
        with torch.no_grad():
            next_value = value(torch.tensor(next_np["observation"], dtype=torch.float32, device=device))
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(count, device=device)
            for t in reversed(range(steps)):
                following = next_value if t == steps - 1 else values[t + 1]
                going = 1.0 - ended[t]
                delta = rewards[t] + args.ppo_gamma * following * going - values[t]
                last = (delta + args.ppo_gamma * args.ppo_lambda * going * last) * valid[t]
                advantages[t] = last
            returns = advantages + values
        keep = valid.reshape(-1)
        b_obs, b_masks = obs.reshape(-1, size)[keep], masks.reshape(-1, NUM_ACTIONS)[keep]
        b_actions, b_logprobs, b_adv, b_returns, b_train = (
            a.reshape(-1)[keep] for a in (actions, logprobs, advantages, returns, trainable)
        )
        b_adv = (b_adv - b_adv[b_train].mean()) / (b_adv[b_train].std() + 1e-8)
        frozen = update <= args.ppo_critic_updates
        total = len(b_actions)
        batch = -(-total // 4)
        kl = torch.zeros(())
        stopped = False
        for _epoch in range(4):
            order = torch.randperm(total, device=device)
            for start in range(0, total, batch):
                mb = order[start : start + batch]
                v_loss = 0.5 * ((value(b_obs[mb]) - b_returns[mb]) ** 2).mean()
                critic_opt.zero_grad()
                v_loss.backward()
                nn.utils.clip_grad_norm_(critic.parameters(), 0.5)
                critic_opt.step()
                if frozen or stopped:
                    continue
                train = b_train[mb]
                dist = torch.distributions.Categorical(logits=actor(b_obs[mb][train], b_masks[mb][train]))
                ratio_log = dist.log_prob(b_actions[mb][train]) - b_logprobs[mb][train]
                ratio = ratio_log.exp()
                with torch.no_grad():
                    kl = ((ratio - 1) - ratio_log).mean()
                if kl > args.ppo_kl:
                    stopped = True
                    continue
                adv = b_adv[mb][train]
                clip = args.ppo_clip
                pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - clip, 1 + clip)).mean()
                loss = pg_loss - args.ppo_entropy * dist.entropy().mean()
                actor_opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(actor.parameters(), 0.5)
                actor_opt.step()
        recent = results[-2000:]
        print(
            f"{clock()} PPO update {update}{' (critic only)' if frozen else ''}: {total} decisions, "
            f"won {np.mean(recent) if recent else float('nan'):.3f} of the last {len(recent)}, "
            f"v_loss {v_loss.item():.4f}, kl {kl.item():.4f}{' (stopped)' if stopped else ''}",
            flush=True,
        )
        results = recent
        if args.eval_deals and not frozen and (update % args.ppo_eval_every == 0 or update == args.ppo_updates):
            candidate = snapshot()
            rate, low, high = evaluate(candidate, args.eval_deals, args.seed + 1000)
            mark = ""
            if rate > best_rate:
                best, best_rate, mark = candidate, rate, " (best)"
                if args.ppo_keep is not None:
                    best.save(args.ppo_keep)
            print(
                f"{clock()} PPO update {update}: {rate:.4f} ({low:.4f}-{high:.4f}) against heuristic{mark}", flush=True
            )
    return best if args.eval_deals else snapshot()


def cached(path: Path | None, key: dict[str, Any], make: Any) -> tuple[Data, list[str]]:
    """``make()``'s data, or the copy saved at ``path`` under the same ``key``."""
    text = json.dumps(key, sort_keys=True)
    if path is not None and path.exists():
        with np.load(path, allow_pickle=False) as saved:
            if str(saved["key"]) == text:
                print(f"  (cached: {path})", flush=True)
                return (saved["observations"], saved["masks"], saved["taken"]), json.loads(str(saved["kinds"]))
    data, kinds = make()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            path,
            key=np.array(text),
            kinds=np.array(json.dumps(kinds)),
            observations=data[0],
            masks=data[1],
            taken=data[2],
        )
    return data, kinds


def parser() -> argparse.ArgumentParser:
    """The script's options; their defaults are the shipped weights' run."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--warm", type=int, default=300_000, help="heuristic decisions to imitate first")
    p.add_argument("--warm-epochs", type=int, default=4)
    p.add_argument("--games", type=int, default=8000, help="games of ismcts against heuristic to imitate")
    p.add_argument("--iterations", type=int, default=80, help="the expert's search budget (ismcts:iterations=N)")
    p.add_argument("--dagger", type=int, default=0, help="rounds of the network's own games labelled by ismcts")
    p.add_argument("--dagger-games", type=int, default=500)
    p.add_argument("--epochs", type=int, default=25, help="epochs on the expert's labels, each round")
    p.add_argument("--lr", type=float, default=1e-3, help="the learning rate on the expert's labels")
    p.add_argument(
        "--discards",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="observe the discard pile's counts by kind (Encoding(discards=True))",
    )
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--depth", type=int, default=2, help="hidden layers")
    p.add_argument("--eval-deals", type=int, default=2000, help="deals (two games each) against heuristic a round")
    p.add_argument("--cache", type=Path, default=None, help="keep the generated positions here")
    p.add_argument("--out", type=Path, default=WEIGHTS)
    p.add_argument("--init", type=Path, default=None, help="fine-tune this .npz by PPO only (skips steps 1-4)")
    p.add_argument("--ppo-updates", type=int, default=400, help="PPO updates against heuristic (0: no PPO phase)")
    p.add_argument("--ppo-critic-updates", type=int, default=10, help="first updates fitting the critic alone")
    p.add_argument("--ppo-envs", type=int, default=128, help="games stepped at once")
    p.add_argument("--ppo-steps", type=int, default=64, help="steps of each game per update")
    p.add_argument("--ppo-lr", type=float, default=1e-4)
    p.add_argument("--ppo-critic-lr", type=float, default=3e-4)
    p.add_argument("--ppo-clip", type=float, default=0.1)
    p.add_argument("--ppo-kl", type=float, default=0.01, help="stop an update's epochs past this KL")
    p.add_argument("--ppo-entropy", type=float, default=0.001)
    p.add_argument("--ppo-gamma", type=float, default=1.0)
    p.add_argument("--ppo-lambda", type=float, default=0.95)
    p.add_argument("--ppo-eval-every", type=int, default=20, help="measure the actor every this many updates")
    p.add_argument("--ppo-keep", type=Path, default=None, help="save each best actor here too")
    return p


def main() -> None:
    args = parser().parse_args()

    started = time.time()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    threads = int(os.environ.get("TORCH_THREADS", "1"))
    torch.set_num_threads(threads)
    machine = f"{MACHINE}, torch {torch.__version__} on {device} ({threads} thread(s))"
    print(f"machine: {machine}", flush=True)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    def clock() -> str:
        return f"[{(time.time() - started) / 60:.1f} min]"

    if args.init is not None:
        policy = ppo_finetune(Policy.load(args.init), args, device, clock)
        trained = dict(policy.meta.get("trained", {}))
        trained["ppo"] = {
            "args": {
                name: str(value) for name, value in vars(args).items() if name.startswith("ppo_") and name != "ppo_keep"
            },
            "minutes": round((time.time() - started) / 60, 1),
        }
        trained["method"] = str(trained.get("method", "")) + ", then PPO against heuristic"
        Policy({**policy.meta, "trained": trained}, policy.layers).save(args.out)
        print(f"{clock()} exported {args.out} ({args.out.stat().st_size} bytes)", flush=True)
        return

    layout = {**LAYOUT, "discards": True} if args.discards else LAYOUT  # (without: the keys of earlier caches)

    def make_warm() -> tuple[Data, list[str]]:
        recorder = Recorder(args.discards)
        heuristic_games(args.warm, args.seed, recorder)
        return recorder.arrays(), sorted(recorder.kinds)

    print(f"{clock()} warm start: {args.warm} heuristic decisions", flush=True)
    warm, kinds = cached(
        args.cache and args.cache.with_name(args.cache.stem + "-warm.npz"),
        {"warm": args.warm, "seed": args.seed, **layout},
        make_warm,
    )
    net = Net(warm[0].shape[1], args.hidden, args.depth).to(device)
    if args.warm:
        fit(net, warm, args.warm_epochs, 1e-3, rng, device)
    seen = set(kinds)

    print(f"{clock()} the expert's games: {args.games} of ismcts:iterations={args.iterations} vs heuristic", flush=True)
    key = {"iterations": args.iterations, "seed": args.seed, **layout}
    chunks = []
    for first in range(0, args.games, CHUNK):

        def make_chunk(first: int = first) -> tuple[Data, list[str]]:
            recorder = Recorder(args.discards)
            wins = expert_games(min(CHUNK, args.games - first), first, args.seed, args.iterations, recorder)
            print(f"  games {first}+: ismcts won {wins['learner']} of {wins['games']} against heuristic", flush=True)
            return recorder.arrays(), sorted(recorder.kinds)

        path = args.cache and args.cache.with_name(f"{args.cache.stem}-{first}.npz")
        chunk, kinds = cached(path, {**key, "first": first, "games": min(CHUNK, args.games - first)}, make_chunk)
        chunks.append(chunk)
        seen |= set(kinds)
    expert: Data = tuple(np.concatenate(parts) for parts in zip(*chunks, strict=True))  # type: ignore[assignment]
    print(f"  {len(expert[2])} decisions", flush=True)
    meta: dict[str, Any] = {
        "rules": RULES,
        "seats": SEATS,
        "history": 0,
        "discards": args.discards,
        "encoding_version": ENCODING_VERSION,
        "action_ids_version": ACTION_IDS_VERSION,
        "decisions": sorted(seen),
    }
    datasets = [expert]
    for round_ in range(args.dagger + 1):
        data: Data = tuple(np.concatenate(parts) for parts in zip(*datasets, strict=True))  # type: ignore[assignment]
        print(f"{clock()} round {round_}: fitting on {len(data[2])} expert labels", flush=True)
        fit(net, data, args.epochs, args.lr, rng, device)
        policy = net.export({**meta, "decisions": sorted(seen)})
        if args.eval_deals:
            rate, low, high = evaluate(policy, args.eval_deals, args.seed + 1 + round_)
            print(f"{clock()} round {round_}: {rate:.4f} ({low:.4f}-{high:.4f}) against heuristic", flush=True)
        if round_ == args.dagger:
            break
        recorder = Recorder(args.discards)
        first = args.games + round_ * args.dagger_games
        print(f"{clock()} DAgger round {round_ + 1}: {args.dagger_games} games of the network, labelled", flush=True)
        wins = expert_games(args.dagger_games, first, args.seed, args.iterations, recorder, student=policy)
        print(f"  the network won {wins['learner']} of {wins['games']} against heuristic", flush=True)
        datasets.append(recorder.arrays())
        seen |= recorder.kinds
    minutes = round((time.time() - started) / 60, 1)
    meta["decisions"] = sorted(seen)
    meta["trained"] = {
        "method": "expert iteration: imitation of heuristic, then of ismcts",
        "script": "examples/train_expert.py",
        "args": {name: str(value) for name, value in vars(args).items() if name not in UNRECORDED},
        "machine": machine,
        "labels": int(sum(len(part[2]) for part in datasets)),
        "minutes": minutes,
    }
    policy = net.export(meta)
    if args.ppo_updates:
        rounded = [(weight.astype(np.float16), bias.astype(np.float16)) for weight, bias in policy.layers]
        policy = ppo_finetune(Policy(meta, rounded), args, device, clock)  # from the weights --out would hold
        meta["trained"]["method"] += ", then PPO against heuristic"
        meta["trained"]["minutes"] = round((time.time() - started) / 60, 1)
        policy = Policy(meta, policy.layers)
    policy.save(args.out)
    print(f"{clock()} exported {args.out} ({args.out.stat().st_size} bytes)", flush=True)


if __name__ == "__main__":
    main()
