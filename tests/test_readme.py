r"""The README shows generated content only: its rules table is the one derivations.commands.properties prints."""

from pathlib import Path

from posproof.derivations.commands.properties import table_markdown

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_rules_table_is_the_generated_one():
    assert table_markdown().strip() in README.read_text(encoding="utf-8"), (
        "README's rules table is stale: paste the output of "
        "python -c 'from posproof.derivations.commands.properties import table_markdown; print(table_markdown())'"
    )
