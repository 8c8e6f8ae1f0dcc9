"""Masked PPO in one file, CleanRL style, on ``unoengine.rl.VectorEnv``: one learner seat against ``random``.

Classic heads-up, one round a game: the learner plays one seat (drawn per game)
against the ``random`` bot, which moves inside ``VectorEnv.step``. The layout
follows CleanRL's ``ppo.py``: the arguments, an ``Agent`` MLP with an actor and a
critic, rollout tensors, GAE, the clipped PPO loss over minibatch epochs. Illegal
action ids get a logit of -1e8 before the ``Categorical``. At the end (and every
``--eval-every`` updates) the greedy policy (the most likely legal id, as
``PPOBot`` plays) is evaluated on ``--eval-games`` games against ``random``, each
deal played twice with the seats swapped, with a 95% Wilson interval.

    python examples/cleanrl_ppo.py --eval-match --export ppo_random.npz
    uno simulate --seats 2 --bot unoengine.rl.policy_bot:load:path=ppo_random.npz,random --games 1000

``--eval-match`` also evaluates whole games to the target score. ``--save`` writes the
PyTorch ``state_dict``; ``--export`` the NumPy ``.npz`` of ``unoengine.rl.policy.Policy``
(a bot: ``PPOBot(rng, policy=Policy.load(path))``, or the spec above).
A run is a function of ``--seed`` when it ends by ``--total-timesteps`` (on one device
and thread count); ``--time-limit`` stops it earlier on a slow machine.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import deque
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributions.categorical import Categorical

from unoengine.core.action_ids import ACTION_IDS_VERSION, NUM_ACTIONS
from unoengine.rl import VectorEnv
from unoengine.rl.encoding import ENCODING_VERSION
from unoengine.rl.policy import Policy, squash


@dataclass
class Args:
    seed: int = 1
    """seed of the experiment (torch, NumPy and the games)"""
    cuda: str = "auto"
    """auto: a GPU when torch sees one; yes; no"""
    threads: int = 1
    """torch.set_num_threads (1 or 2)"""
    total_timesteps: int = 4_500_000
    """environment steps (num_envs per step; a step that starts a new game counts too)"""
    time_limit: float = 840.0
    """stop training after this many seconds (the final evaluation comes after)"""
    num_envs: int = 256
    """games stepped at once"""
    num_steps: int = 64
    """steps of each game per rollout"""
    learning_rate: float = 1e-3
    anneal_lr: bool = True
    gamma: float = 0.995
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    norm_adv: bool = True
    clip_coef: float = 0.2
    clip_vloss: bool = True
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.0
    """stop the epochs of an update past this KL (0: never)"""
    hidden: int = 128
    """units of each of the two hidden layers (actor and critic)"""
    eval_games: int = 2000
    """evaluation games (half with each seat, over the same deals)"""
    eval_every: int = 50
    """evaluate every this many updates too (0: at the end only)"""
    eval_match: bool = False
    """at the end, also evaluate whole games to the target score (rule option single_round=False)"""
    save: str = ""
    """write the agent's state_dict here"""
    export: str = ""
    """write the policy here as a NumPy .npz that unoengine.rl.policy.Policy.load reads"""


def parse_args() -> Args:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for field in fields(Args):
        default = field.default
        flag = "--" + field.name.replace("_", "-")
        if isinstance(default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default)
        else:
            parser.add_argument(flag, type=type(default), default=default, metavar=field.name.upper())
    return Args(**vars(parser.parse_args()))


def layer_init(layer: nn.Linear, std: float = math.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """Actor and critic MLPs (tanh) over the squashed observation; the actor is what ``--export`` writes."""

    def __init__(self, obs_size: int, hidden: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, 1), std=1.0),
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, NUM_ACTIONS), std=0.01),
        )

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        value: torch.Tensor = self.critic(x)
        return value.flatten()

    def masked_logits(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.actor(x)
        return logits.masked_fill(~mask, -1e8)  # illegal ids: never drawn, no gradient

    def get_action_and_value(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        probs = Categorical(logits=self.masked_logits(x, mask))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.get_value(x)


def to_tensors(obs: dict[str, np.ndarray[Any, Any]], device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """The squashed observations and the boolean masks, as new tensors (VectorEnv rewrites its arrays in place)."""
    x = torch.tensor(squash(obs["observation"]), dtype=torch.float32, device=device)
    return x, torch.tensor(obs["action_mask"], dtype=torch.bool, device=device)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``wins / games``."""
    p, n = wins / games, games
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(
    agent: Agent, games: int, seed: int, device: torch.device, options: dict[str, Any] | None = None
) -> tuple[int, int]:
    """(wins, games) of the greedy policy against ``random``: each deal once as seat 0 and once as seat 1.

    With a fixed seat, slot ``i`` of ``reset(seed=s)`` deals the same games whatever the seat,
    so two envs (seat 0 and seat 1) with one seed play the same deals; each slot counts its
    first ``per_slot`` games.
    """
    per_seat = (games + 1) // 2
    slots = min(200, per_seat)
    per_slot = -(-per_seat // slots)
    wins = played = 0
    for seat in (0, 1):
        envs = VectorEnv(slots, "classic", 2, options, opponents=["random"], seat=seat, illegal="raise")
        obs, _ = envs.reset(seed=seed)
        counted = np.zeros(slots, dtype=np.int64)
        while (counted < per_slot).any():
            with torch.no_grad():
                action = agent.masked_logits(*to_tensors(obs, device)).argmax(dim=1)
            obs, reward, terminations, _, _ = envs.step(action.cpu().numpy())
            for i in np.flatnonzero(terminations & (counted < per_slot)):
                wins += int(reward[i] > 0)  # a blocked round (nobody wins) counts as not won
                counted[i] += 1
        played += int(counted.sum())
    return wins, played


def report(
    agent: Agent, args: Args, device: torch.device, global_step: int, started: float, whole_games: bool = False
) -> float:
    """Print the greedy policy's win rate against ``random`` (one round a game, or whole games to 500 points)."""
    what, options = ("whole games", {"single_round": False}) if whole_games else ("one round", None)
    wins, games = evaluate(agent, args.eval_games, args.seed + 1_000_000, device, options)
    low, high = wilson(wins, games)
    print(
        f"eval ({what}): global_step={global_step} greedy vs random {wins}/{games} = {100 * wins / games:.1f}% "
        f"[95% Wilson {100 * low:.1f}-{100 * high:.1f}%] ({time.time() - started:.0f} s)",
        flush=True,
    )
    return wins / games


def main() -> None:
    args = parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = True
    torch.set_num_threads(max(1, min(args.threads, 2)))
    use_cuda = torch.cuda.is_available() if args.cuda == "auto" else args.cuda == "yes"
    device = torch.device("cuda" if use_cuda else "cpu")

    envs = VectorEnv(args.num_envs, "classic", 2, opponents=["random"], seat=None, illegal="raise")
    obs_size = envs.encoding.size
    pending = envs.encoding.piece(np.arange(obs_size, dtype=np.float32), "pending").astype(np.int64)  # decision kind
    agent = Agent(obs_size, args.hidden).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    # Rollout storage. ``ended[t]``: the action at step t ended the game. ``valid[t]``: step t is a
    # decision of the learner. The step after a game's end is not (NEXT_STEP auto-reset: the env
    # ignores the action there, deals a new game and returns reward 0), so it is left out of the loss.
    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros((*shape, obs_size), device=device)
    masks = torch.zeros((*shape, NUM_ACTIONS), dtype=torch.bool, device=device)
    actions = torch.zeros(shape, dtype=torch.long, device=device)
    logprobs = torch.zeros(shape, device=device)
    rewards = torch.zeros(shape, device=device)
    ended = torch.zeros(shape, device=device)
    valid = torch.zeros(shape, dtype=torch.bool, device=device)
    values = torch.zeros(shape, device=device)

    global_step = 0
    started = time.time()
    next_obs_np, _ = envs.reset(seed=args.seed)
    next_obs, next_mask = to_tensors(next_obs_np, device)
    resetting = np.zeros(args.num_envs, dtype=np.bool_)  # the next step of these games is a reset
    results: deque[float] = deque(maxlen=1000)  # 1 per game won, 0 per game lost or blocked
    seen: set[str] = set()  # the decision kinds the learner met (the export's "decisions")
    batch = args.num_envs * args.num_steps
    num_iterations = max(1, args.total_timesteps // batch)
    for iteration in range(1, num_iterations + 1):
        if time.time() - started > args.time_limit:
            print(f"time limit: stopping after {iteration - 1} updates", flush=True)
            break
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = (1.0 - (iteration - 1.0) / num_iterations) * args.learning_rate

        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step], masks[step] = next_obs, next_mask
            valid[step] = torch.from_numpy(~resetting).to(device)
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_mask)
            actions[step], logprobs[step], values[step] = action, logprob, value
            kinds = next_obs_np["observation"][~resetting][:, pending].any(axis=0)
            seen.update(envs.encoding.decisions[k] for k in np.flatnonzero(kinds))
            next_obs_np, reward, terminations, truncations, _ = envs.step(action.cpu().numpy())
            done = terminations | truncations  # VectorEnv never truncates
            rewards[step] = torch.tensor(reward, device=device)
            ended[step] = torch.tensor(done, dtype=torch.float32, device=device)
            results.extend(float(r > 0) for r in reward[done])
            resetting = done.copy()
            next_obs, next_mask = to_tensors(next_obs_np, device)

        # GAE. A game's last decision (ended) does not bootstrap; a reset step gets no advantage and
        # passes nothing back (the step before it ended its game), so nothing crosses games.
        with torch.no_grad():
            next_value = agent.get_value(next_obs)
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(args.num_envs, device=device)
            for t in reversed(range(args.num_steps)):
                nextvalues = next_value if t == args.num_steps - 1 else values[t + 1]
                nextnonterminal = 1.0 - ended[t]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                lastgaelam = (delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam) * valid[t]
                advantages[t] = lastgaelam
            returns = advantages + values

        # Flatten the batch and keep the learner's decisions only.
        keep = valid.reshape(-1)
        b_obs, b_masks = obs.reshape(-1, obs_size)[keep], masks.reshape(-1, NUM_ACTIONS)[keep]
        b_actions, b_logprobs, b_advantages, b_returns, b_values = (
            x.reshape(-1)[keep] for x in (actions, logprobs, advantages, returns, values)
        )
        count = b_obs.shape[0]
        minibatch_size = -(-count // args.num_minibatches)

        clipfracs = []
        for _epoch in range(args.update_epochs):
            b_inds = torch.randperm(count, device=device)
            for start in range(0, count, minibatch_size):
                mb = b_inds[start : start + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_masks[mb], b_actions[mb])
                logratio = newlogprob - b_logprobs[mb]
                ratio = logratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())
                mb_advantages = b_advantages[mb]
                if args.norm_adv:
                    mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
                pg_loss1 = -mb_advantages * ratio
                pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(pg_loss1, pg_loss2).mean()
                if args.clip_vloss:
                    v_loss_unclipped = (newvalue - b_returns[mb]) ** 2
                    v_clipped = b_values[mb] + torch.clamp(newvalue - b_values[mb], -args.clip_coef, args.clip_coef)
                    v_loss = 0.5 * torch.max(v_loss_unclipped, (v_clipped - b_returns[mb]) ** 2).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
            if args.target_kl and approx_kl > args.target_kl:
                break

        elapsed = time.time() - started
        win_rate = float(np.mean(results)) if results else float("nan")
        print(
            f"update {iteration}/{num_iterations} global_step={global_step} SPS={int(global_step / elapsed)} "
            f"decisions={count} win_rate(last {len(results)})={win_rate:.3f} pg_loss={pg_loss.item():.3f} "
            f"v_loss={v_loss.item():.3f} entropy={entropy.mean().item():.3f} approx_kl={approx_kl.item():.4f} "
            f"clipfrac={np.mean(clipfracs):.3f}",
            flush=True,
        )
        if args.eval_every and iteration % args.eval_every == 0:
            report(agent, args, device, global_step, started)

    minutes = (time.time() - started) / 60
    print(f"trained: {global_step} steps in {minutes:.1f} min ({int(global_step / (60 * minutes))} SPS)", flush=True)
    win_rate = report(agent, args, device, global_step, started)
    if args.eval_match:
        report(agent, args, device, global_step, started, whole_games=True)
    if args.save:
        torch.save(agent.state_dict(), args.save)
        print(f"saved {args.save}")
    if args.export:
        meta = {
            "rules": "classic",
            "seats": 2,
            "history": 0,
            "decisions": sorted(seen),
            "encoding_version": ENCODING_VERSION,
            "action_ids_version": ACTION_IDS_VERSION,
            "trained": {"steps": global_step, "minutes": round(minutes, 1), "vs_random": round(win_rate, 4)},
        }
        linears = [module for module in agent.actor if isinstance(module, nn.Linear)]
        weights = [(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy()) for m in linears]
        Policy(meta, weights).save(args.export)  # float16 weights; meta gets layers, inputs, actions
        print(f"exported {args.export}")


if __name__ == "__main__":
    main()
