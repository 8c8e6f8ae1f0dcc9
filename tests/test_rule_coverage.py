"""Every rule of docs/RULES.md has a test named after it, and docs/RULE_TESTS.md is current."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
RULE_RE = re.compile(r"\*\*([CDFNHGR]-\d+)\*\*")
TEST_RE = re.compile(r"def (test_\w+)")


def load_script() -> ModuleType:
    path = ROOT / "scripts" / "rule_table.py"
    spec = importlib.util.spec_from_file_location("rule_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rule_table", module)
    spec.loader.exec_module(module)
    return module


def rules_in_rulebook() -> list[str]:
    return list(dict.fromkeys(RULE_RE.findall((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8"))))


def rules_named_by_tests() -> set[str]:
    named: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for name in TEST_RE.findall(path.read_text(encoding="utf-8")):
            for part in name.split("_")[1:]:
                match = re.fullmatch(r"([cdfnhgr])(\d+)", part)
                if match:
                    named.add(f"{match.group(1).upper()}-{int(match.group(2))}")
    return named


def test_the_rulebook_numbers_its_rules() -> None:
    rules = rules_in_rulebook()
    for letter, last in (("C", 22), ("D", 20), ("F", 29), ("N", 28), ("G", 6)):
        assert [r for r in rules if r.startswith(letter + "-")] == [f"{letter}-{n}" for n in range(1, last + 1)]


def test_every_classic_duo_flex_and_shared_rule_has_a_test() -> None:
    named = rules_named_by_tests()
    missing = [rule for rule in rules_in_rulebook() if rule[0] in "CDFNHG" and rule not in named]
    assert not missing, f"rules without a test named after them: {', '.join(missing)}"


def test_tests_name_only_rules_of_the_rulebook() -> None:
    unknown = sorted(rules_named_by_tests() - set(rules_in_rulebook()))
    assert not unknown, f"tests name rules that docs/RULES.md does not define: {unknown}"


def test_the_script_reads_ids_from_test_names() -> None:
    script = load_script()
    assert script.ids_in_name("test_c16_wild_draw_four") == ["C-16"]
    assert script.ids_in_name("test_c18_c19_catch") == ["C-18", "C-19"]
    assert script.ids_in_name("test_g6_r5_play_resets") == ["G-6", "R-5"]
    assert script.ids_in_name("test_d13_volley_of_6") == ["D-13"]
    assert script.ids_in_name("test_replay_round_trips") == []
    assert script.rule_ids("- **C-1** x\n- **R-10** y **C-1** again") == ["C-1", "R-10"]


def test_the_script_agrees_with_the_plain_scan() -> None:
    script = load_script()
    assert set(script.collect_tests(ROOT)) == rules_named_by_tests()


def test_rule_tests_md_is_up_to_date() -> None:
    script = load_script()
    assert not script.is_stale(ROOT), "docs/RULE_TESTS.md is stale: run scripts/rule_table.py"
    assert script.main(["--check"]) == 0
