"""``unoengine.rl.policy_bot``: any policy (a callable, a torch module, an SB3 model, a file) as a bot."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from unoengine.bots.base import BotError, make_bot
from unoengine.core.action_ids import NUM_ACTIONS, PASS_ID
from unoengine.core.views import view_for
from unoengine.play.simulate import simulate
from unoengine.rl import SingleAgentEnv, policy_bot
from unoengine.rl.encoding import Encoding
from unoengine.rl.policy import WEIGHTS
from unoengine.rl.policy_bot import PolicyBot


def random_legal(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
    """A callable policy: a legal id drawn from the observation's entries (deterministic)."""
    legal = np.flatnonzero(mask)
    return int(legal[int(observation.sum() * 7) % len(legal)])


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_a_callable_plays_every_game_when_no_game_is_given() -> None:
    bot = policy_bot(random_legal, name="mine")
    for rules, seats in (("classic", 2), ("classic", 4), ("duo", 2), ("flex", 3)):
        result = simulate(rules, seats, games=2, bot=[bot] + ["heuristic"] * (seats - 1), seed=1)
        assert result.games == 2
        assert result.bots[0] == "mine"


def test_a_bot_made_for_one_game_refuses_another_by_name() -> None:
    made = policy_bot(random_legal, rules="classic", seats=2, name="mine")
    message = "mine was made for classic with 2 seats; it cannot play flex with 3 seats"
    with pytest.raises(BotError, match=message):
        simulate("flex", 3, games=1, bot=[made, "heuristic", "heuristic"], seed=0)
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv("flex", 3, [made])
    assert simulate("classic", 2, games=2, bot=[made, "heuristic"], seed=0).games == 2


@pytest.mark.parametrize("discards", [False, True])
def test_it_sees_what_the_learner_sees(discards: bool) -> None:
    """At every decision the bot's observation and mask are the SingleAgentEnv's (out-of-turn offers: with pass),
    with the same layout options (``discards``)."""
    seen: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = []

    def recording(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        seen.append((observation.copy(), mask.copy()))
        return random_legal(observation, mask)

    bot = policy_bot(recording, rules="classic", seats=3, discards=discards)(random.Random(0))
    env = SingleAgentEnv("classic", 3, ["heuristic:forget_uno=0.5"], discards=discards)
    assert env.encoding.size == Encoding("classic", 3).size + discards * len(env.encoding.kinds)
    offers = 0
    for seed in range(6):
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            match = env.match
            view = view_for(match.state, env.seat)
            if match.is_out_of_turn:
                offers += 1
                reaction = bot.react(view, match.choices[1:])
                action = PASS_ID if reaction is None else _id(reaction, view)
            else:
                action = _id(bot.choose(view, match.choices), view)
            np.testing.assert_array_equal(seen[-1][0], observation["observation"])
            np.testing.assert_array_equal(seen[-1][1], observation["action_mask"])
            observation, _, done, _, _ = env.step(action)
    assert offers > 0
    assert seen[-1][1][PASS_ID] in (0, 1)


def _id(action: Any, view: Any) -> int:
    from unoengine.core.action_ids import action_id

    return action_id(action, view.seat, view.seats)


def test_an_illegal_choice_is_refused_not_replaced() -> None:
    def wrong(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(BotError, match="wrong chose action id"):
        simulate("classic", 2, games=1, bot=[policy_bot(wrong, name="wrong"), "heuristic"], seed=0)


def test_the_ppo_weights_file_as_a_policy() -> None:
    factory = policy_bot(WEIGHTS, name="weights")
    assert (factory.rules, factory.seats) == ("classic", 2)
    assert simulate("classic", 2, games=2, bot=[factory, "heuristic"], seed=0).games == 2
    with pytest.raises(ValueError, match="weights was made for classic with 2 seats; it cannot play duo"):
        factory(random.Random(0)).check_game("duo", 2)


def test_not_a_policy() -> None:
    with pytest.raises(ValueError, match="a policy must be"):
        policy_bot(42)
    with pytest.raises(ValueError, match=r"not a \.zip"):
        policy_bot(Path(__file__))
    with pytest.raises(ValueError, match=r"policy nowhere\.zip"):
        policy_bot("nowhere.zip")


@pytest.mark.usefixtures("one_torch_thread")
def test_a_torch_module_and_its_exported_file_by_spec(tmp_path: Path) -> None:
    import torch
    from click.testing import CliRunner

    from unoengine.cli.main import cli

    size = Encoding("classic", 2).size
    module = torch.nn.Sequential(torch.nn.Linear(size, 16), torch.nn.Tanh(), torch.nn.Linear(16, NUM_ACTIONS))
    factory = policy_bot(module, rules="classic", seats=2, name="net")
    assert simulate("classic", 2, games=2, bot=[factory, "random"], seed=0).games == 2
    path = tmp_path / "net.pt2"
    torch.export.save(torch.export.export(module, (torch.zeros(1, size),)), path)
    spec = f"unoengine.rl.policy_bot:load:path={path},seats=2"
    bot = make_bot(spec, random.Random(0))
    assert bot.name == "net"
    result = CliRunner().invoke(cli, ["simulate", "--seats", "2", "--bot", f"{spec},heuristic", "--games", "2"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["simulate", "--seats", "3", "--bot", f"{spec},heuristic,heuristic"])
    assert result.exit_code == 1
    assert "net was made for any rules with 2 seats; it cannot play classic with 3 seats" in result.output


@pytest.mark.usefixtures("one_torch_thread")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_torchscript_file(tmp_path: Path) -> None:
    import torch

    size = Encoding("duo", 2).size
    path = tmp_path / "duo.pt"
    torch.jit.script(torch.nn.Linear(size, NUM_ACTIONS)).save(str(path))
    factory = policy_bot(path, rules="duo", seats=2)
    assert simulate("duo", 2, games=1, bot=[factory, "heuristic"], seed=0).games == 1


@pytest.mark.usefixtures("one_torch_thread")
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_sb3_models_of_both_observation_kinds(tmp_path: Path) -> None:
    """A MaskablePPO of the Gymnasium env (Dict observations) and a PPO without masks (Box), by object and by file."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    from unoengine.rl.sb3 import vec_env

    masked = MaskablePPO("MultiInputPolicy", SingleAgentEnv("classic", 2), n_steps=64, batch_size=64, device="cpu")
    unmasked = PPO("MlpPolicy", vec_env(2, "classic", 2), n_steps=32, batch_size=64, device="cpu")
    for model in (masked, unmasked):
        factory = policy_bot(model, rules="classic", seats=2)
        assert factory.input_size == Encoding("classic", 2).size
        assert simulate("classic", 2, games=2, bot=[factory, "heuristic"], seed=0).games == 2
    unmasked.save(tmp_path / "plain.zip")
    loaded = policy_bot(tmp_path / "plain.zip", algorithm="PPO", name="plain")
    assert simulate("classic", 2, games=1, bot=[loaded, "heuristic"], seed=0).games == 1
    size = Encoding("classic", 2).size
    with pytest.raises(ValueError, match=f"plain takes {size} observation entries; classic with 4 seats"):
        loaded(random.Random(0)).check_game("classic", 4)
    with pytest.raises(ValueError, match="no Stable-Baselines3 algorithm 'Nope'"):
        policy_bot(tmp_path / "plain.zip", algorithm="Nope")


def test_no_torch_is_needed_for_a_callable() -> None:
    import subprocess

    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import numpy as np\n"
        "from unoengine.rl import policy_bot\n"
        "from unoengine.play.simulate import simulate\n"
        "bot = policy_bot(lambda o, m: int(np.flatnonzero(m)[0]), rules='classic', seats=2)\n"
        "print(simulate('classic', 2, games=2, bot=[bot, 'heuristic'], seed=0).games)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "2"


def test_a_policy_bot_is_a_bot() -> None:
    bot = policy_bot(random_legal)(random.Random(0))
    assert isinstance(bot, PolicyBot)
    assert bot.needs_view and bot.reacts and bot.name == "policy"


def _python_blocks(section: str) -> list[str]:
    """The ```python blocks of a section of docs/RL.md (from its heading to the next)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "RL.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {section}\n")
    end = text.index("\n## ", start + 1)
    body = text[start:end]
    return [block.split("```", 1)[0] for block in body.split("```python\n")[1:]]


@pytest.mark.usefixtures("one_torch_thread")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_documented_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/RL.md's SB3 example trains and saves a model; its policy-bot example and commands play it."""
    pytest.importorskip("sb3_contrib")
    from click.testing import CliRunner

    from unoengine.cli.main import cli

    monkeypatch.chdir(tmp_path)
    (train,) = _python_blocks("Stable-Baselines3: `unoengine.rl.sb3.vec_env`")
    exec(compile(train, "RL.md", "exec"), {})
    assert (tmp_path / "uno_maskable_ppo.zip").exists()
    (play,) = _python_blocks("A policy as a bot")
    scope: dict[str, Any] = {}
    exec(compile(play, "RL.md", "exec"), scope)
    assert scope["result"].games == 20
    (tmp_path / "mybots.py").write_text(
        "from unoengine.rl import policy_bot\n\n"
        'mine = policy_bot("uno_maskable_ppo.zip", rules="classic", seats=2, name="mine")\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    runner = CliRunner()
    result = runner.invoke(cli, ["simulate", "--seats", "2", "--bot", "mybots:mine,heuristic", "--games", "3"])
    assert result.exit_code == 0, result.output
    spec = "unoengine.rl.policy_bot:load:path=uno_maskable_ppo.zip,seats=2"
    result = runner.invoke(cli, ["tournament", "--seats", "2", "--bots", f"{spec},heuristic", "--games", "2"])
    assert result.exit_code == 0, result.output
    assert "uno_maskable_ppo" in result.output
