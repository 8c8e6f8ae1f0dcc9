"""Train the ``ppo`` bot: masked PPO on the CPU (PyTorch) against ``random``, ``heuristic`` and itself.

Needs the ``train`` extra (``pip install -e '.[train]'``: PyTorch CPU, matplotlib).
First the network imitates ``heuristic`` (``--imitate`` decisions of heuristic
bots playing each other, cross-entropy on the masked logits: a warm start; PPO
from scratch plateaued at about 38% against ``heuristic`` in 16 minutes). Then
the learner plays Classic heads-up in a :class:`unoengine.rl.VectorEnv`: a third
of the games against each of ``random``, ``heuristic`` and a frozen copy of
itself (refreshed every ``--refresh`` updates), its seat drawn per game. Every
update it logs the win rate of the games that ended against each opponent; at
the end it plots them (``--plot``) and exports the network to a NumPy ``.npz``
(``--out``) that :class:`unoengine.rl.policy.PPOBot` plays without PyTorch.

    nice -n 10 python examples/train_ppo.py --minutes 30
    uno simulate --rules classic --seats 2 --bot ppo,heuristic --games 2000

The run is bounded by ``--minutes`` (wall time) and ``--updates``.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from unoengine.core.action_ids import ACTION_IDS_VERSION, NUM_ACTIONS
from unoengine.rl import VectorEnv
from unoengine.rl.encoding import DECISIONS, ENCODING_VERSION
from unoengine.rl.policy import WEIGHTS, Policy, PPOBot

OPPONENTS = ("random", "heuristic", "self")


class Net(nn.Module):
    """The policy and value network; the policy part is what is exported."""

    def __init__(self, size: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, NUM_ACTIONS)
        self.value_body = nn.Sequential(nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.value = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.sign(x) * torch.log1p(torch.abs(x))  # the same squash as unoengine.rl.policy.squash
        logits = self.policy(self.body(x)).masked_fill(mask == 0, -1e9)
        return logits, self.value(self.value_body(x)).squeeze(-1)

    def export(self, meta: dict[str, Any]) -> Policy:
        layers = [self.body[0], self.body[2], self.policy]
        arrays = [(layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy()) for layer in layers]
        return Policy(meta, arrays)


def imitation_data(decisions: int, seed: int) -> tuple[np.ndarray[Any, Any], ...]:
    """``decisions`` decisions of ``heuristic`` bots playing each other: observations, masks, ids taken."""
    from unoengine.bots.heuristic import HeuristicBot
    from unoengine.core.action_ids import action_id
    from unoengine.core.views import view_for
    from unoengine.rl.aec_env import choice_ids
    from unoengine.rl.batch import bot_decision
    from unoengine.rl.decisions import DECLINE, DECLINE_ID
    from unoengine.rl.encoding import Encoding
    from unoengine.rl.match import Match

    encoding = Encoding("classic", 2)
    observations = np.zeros((decisions, encoding.size), np.float32)
    masks = np.zeros((decisions, NUM_ACTIONS), np.int8)
    taken = np.zeros(decisions, np.int64)
    match = Match("classic", 2)
    count = 0
    game = 0
    while count < decisions:
        match.reset(seed * 1_000_003 + game)
        bots = [HeuristicBot(random.Random(f"{game}:{seat}")) for seat in range(2)]
        game += 1
        while not match.is_over and count < decisions:
            seat = match.seat
            assert seat is not None
            view = view_for(match.state, seat)
            action = bot_decision(bots[seat], match)
            encoding.write(view, observations[count])
            masks[count, choice_ids(match, view)] = 1
            taken[count] = DECLINE_ID if action is DECLINE and match.is_out_of_turn else action_id(action, seat, 2)
            count += 1
            match.take(action)
    return observations, masks, taken


def imitate(net: Net, data: tuple[np.ndarray[Any, Any], ...], epochs: int, rng: np.random.Generator) -> None:
    """Behaviour cloning: the policy learns to pick what ``heuristic`` picks (cross-entropy, masked)."""
    observations, masks, taken = (torch.from_numpy(array) for array in data)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        order = torch.from_numpy(rng.permutation(len(taken)))
        correct = 0
        for start in range(0, len(taken), 512):
            idx = order[start : start + 512]
            logits, _ = net(observations[idx], masks[idx])
            loss = nn.functional.cross_entropy(logits, taken[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += int((logits.argmax(-1) == taken[idx]).sum())
        print(f"imitation epoch {epoch}: agrees with heuristic on {correct / len(taken):.3f}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=30.0, help="wall-time budget")
    p.add_argument("--updates", type=int, default=100_000, help="at most this many updates")
    p.add_argument("--envs", type=int, default=16, help="games per opponent kind")
    p.add_argument("--steps", type=int, default=64, help="steps per game per update")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--refresh", type=int, default=20, help="updates between refreshes of the frozen self")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--imitate", type=int, default=200_000, help="heuristic decisions to clone first (0: none)")
    p.add_argument("--imitate-epochs", type=int, default=6)
    p.add_argument("--out", type=Path, default=WEIGHTS, help="the exported .npz")
    p.add_argument("--plot", type=Path, default=Path("docs/ppo_win_rate.png"))
    p.add_argument("--log", type=Path, default=Path("docs/ppo_training.csv"))
    args = p.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    decisions = list(DECISIONS)  # filled in below with the ones met
    seen: set[str] = set()
    meta: dict[str, Any] = {
        "rules": "classic",
        "seats": 2,
        "history": 0,
        "encoding_version": ENCODING_VERSION,
        "action_ids_version": ACTION_IDS_VERSION,
        "decisions": decisions,
    }
    frozen: list[Policy] = []

    def frozen_self(bot_rng: random.Random) -> PPOBot:
        return PPOBot(bot_rng, policy=frozen[0], sample=True)

    kinds: dict[str, Any] = {"random": "random", "heuristic": "heuristic", "self": frozen_self}
    envs = {name: VectorEnv(args.envs, "classic", 2, opponents=[kinds[name]], seat=None) for name in OPPONENTS}
    size = envs["random"].encoding.size
    net = Net(size, args.hidden)
    if args.imitate:
        imitate(net, imitation_data(args.imitate, args.seed), args.imitate_epochs, rng)
    frozen.append(net.export(meta))
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)
    observations = {}
    for k, (name, env) in enumerate(envs.items()):
        obs, _ = env.reset(seed=args.seed * 1000 + k * 100)
        observations[name] = obs
    total = args.envs * len(OPPONENTS)
    horizon = args.steps
    results: dict[str, deque[float]] = {name: deque(maxlen=400) for name in OPPONENTS}
    history: list[dict[str, float]] = []
    started = time.time()
    steps_done = 0
    gamma, lam, clip = 0.995, 0.95, 0.2
    for update in range(args.updates):
        if time.time() - started > args.minutes * 60:
            break
        buf_obs = np.zeros((horizon, total, size), np.float32)
        buf_mask = np.zeros((horizon, total, NUM_ACTIONS), np.int8)
        buf_act = np.zeros((horizon, total), np.int64)
        buf_logp = np.zeros((horizon, total), np.float32)
        buf_val = np.zeros((horizon + 1, total), np.float32)
        buf_rew = np.zeros((horizon, total), np.float32)
        buf_done = np.zeros((horizon, total), np.float32)
        buf_valid = np.ones((horizon, total), np.float32)  # a NEXT_STEP reset step is not a decision
        resetting = {name: np.zeros(args.envs, bool) for name in OPPONENTS}
        for t in range(horizon):
            for k, name in enumerate(OPPONENTS):
                obs = observations[name]
                cols = slice(k * args.envs, (k + 1) * args.envs)
                buf_obs[t, cols] = obs["observation"]
                buf_mask[t, cols] = obs["action_mask"]
                buf_valid[t, cols] = ~resetting[name]
            with torch.no_grad():
                logits, values = net(torch.from_numpy(buf_obs[t]), torch.from_numpy(buf_mask[t]))
                dist = torch.distributions.Categorical(logits=logits)
                actions = dist.sample()
                buf_logp[t] = dist.log_prob(actions).numpy()
                buf_val[t] = values.numpy()
            buf_act[t] = actions.numpy()
            for k, name in enumerate(OPPONENTS):
                cols = slice(k * args.envs, (k + 1) * args.envs)
                env = envs[name]
                obs, rewards, terminated, _, _ = env.step(buf_act[t, cols])
                observations[name] = obs
                buf_rew[t, cols] = rewards
                buf_done[t, cols] = terminated
                for index in np.flatnonzero(terminated):
                    results[name].append(1.0 if rewards[index] > 0 else 0.0)
                resetting[name] = terminated.copy()
                for match in env.matches:
                    if match.seat is not None:
                        seen.add(match.state.pending.kind)
            steps_done += total
        with torch.no_grad():
            last = np.concatenate([observations[name]["observation"] for name in OPPONENTS])
            last_mask = np.concatenate([observations[name]["action_mask"] for name in OPPONENTS])
            buf_val[horizon] = net(torch.from_numpy(last), torch.from_numpy(last_mask))[1].numpy()
        # GAE over the decisions; a reset step (not valid) carries nothing across games.
        advantages = np.zeros((horizon, total), np.float32)
        running = np.zeros(total, np.float32)
        for t in reversed(range(horizon)):
            next_value = buf_val[t + 1] * (1.0 - buf_done[t])
            delta = buf_rew[t] + gamma * next_value - buf_val[t]
            running = delta + gamma * lam * (1.0 - buf_done[t]) * running
            running = running * buf_valid[t] + (1.0 - buf_valid[t]) * 0.0
            advantages[t] = running
        returns = advantages + buf_val[:horizon]
        valid = buf_valid.reshape(-1) > 0
        b_obs = torch.from_numpy(buf_obs.reshape(-1, size)[valid])
        b_mask = torch.from_numpy(buf_mask.reshape(-1, NUM_ACTIONS)[valid])
        b_act = torch.from_numpy(buf_act.reshape(-1)[valid])
        b_logp = torch.from_numpy(buf_logp.reshape(-1)[valid])
        b_adv = torch.from_numpy(advantages.reshape(-1)[valid])
        b_ret = torch.from_numpy(returns.reshape(-1)[valid])
        count = b_obs.shape[0]
        for _epoch in range(4):
            order = torch.from_numpy(rng.permutation(count))
            for start in range(0, count, 1024):
                idx = order[start : start + 1024]
                logits, values = net(b_obs[idx], b_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(b_act[idx])
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = torch.exp(logp - b_logp[idx])
                loss_pi = -torch.min(ratio * adv, torch.clamp(ratio, 1 - clip, 1 + clip) * adv).mean()
                loss_v = ((values - b_ret[idx]) ** 2).mean()
                loss = loss_pi + 0.5 * loss_v - 0.01 * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                optimizer.step()
        if update % args.refresh == args.refresh - 1:
            frozen[0] = net.export(meta)
        row = {"update": update, "steps": steps_done, "minutes": (time.time() - started) / 60}
        row |= {name: float(np.mean(results[name])) if results[name] else float("nan") for name in OPPONENTS}
        history.append(row)
        if update % 10 == 0:
            rates = " ".join(f"{name} {row[name]:.3f}" for name in OPPONENTS)
            print(f"update {update} steps {steps_done} {row['minutes']:.1f} min  win rate: {rates}", flush=True)
    meta["decisions"] = sorted(seen)
    meta["trained"] = {"steps": steps_done, "updates": len(history), "minutes": round(history[-1]["minutes"], 1)}
    net.export(meta).save(args.out)
    print(f"exported {args.out} ({args.out.stat().st_size} bytes): {json.dumps(meta)}")
    args.log.parent.mkdir(parents=True, exist_ok=True)
    with args.log.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(history[0]))
        writer.writeheader()
        writer.writerows(history)
    plot(history, args.plot)


def plot(history: list[dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    steps = [row["steps"] / 1e6 for row in history]
    for name in OPPONENTS:
        axes.plot(steps, [row[name] for row in history], label=f"vs {name}")
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    axes.set_xlabel("learner steps (millions)")
    axes.set_ylabel("win rate (last 400 games)")
    axes.set_title("ppo bot, Classic heads-up: win rate while learning")
    axes.set_ylim(0, 1)
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    print(f"plot: {path}")


if __name__ == "__main__":
    main()
