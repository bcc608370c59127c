r"""Output for programs: the shipped JSON Schemas and the JUnit XML writer (:mod:`posproof.derivations.machine`)."""

import io
import subprocess
import sys

import jsonschema
import pytest
from posproof.derivations import machine

junitparser = pytest.importorskip("junitparser", reason="junitparser (a test dependency) reads --junit files")


@pytest.mark.parametrize("command", machine.SCHEMAS)
def test_each_command_ships_a_valid_schema_naming_its_version(command):
    schema = machine.schema(command)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema"]["const"] == machine.schema_id(command)
    assert "schema" in schema["required"]


def test_a_document_without_its_schema_field_is_invalid():
    with pytest.raises(jsonschema.ValidationError):
        machine.validate({"results": []}, "check")


def test_an_unknown_command_has_no_schema():
    with pytest.raises(ValueError, match="command must be one of"):
        machine.schema("nope")


def test_the_schemas_ship_in_the_installed_package():
    from importlib import resources

    names = {p.name for p in resources.files("posproof.derivations").joinpath("schemas").iterdir()}
    assert {f"{c}.schema.json" for c in machine.SCHEMAS} <= names


def test_junit_xml_is_read_by_a_junit_parser(tmp_path):
    cases = [
        machine.Case("ok-claim", "posproof.check.rope", 0.25),
        machine.Case("bad-claim", "posproof.check.rope", 1.5, failure="numeric line: 3 points differ", detail="x <y>"),
        machine.Case("skipped-one", "posproof.check.rope", skipped="interrupted"),
    ]
    path = tmp_path / "report.xml"
    machine.write_junit(path, "check", cases)
    xml = junitparser.JUnitXml.fromfile(str(path))
    (suite,) = list(xml)
    assert (suite.name, suite.tests, suite.failures, suite.skipped) == ("check", 3, 1, 1)
    by_name = {c.name: c for c in suite}
    assert by_name["ok-claim"].is_passed and by_name["ok-claim"].time == 0.25
    (failure,) = by_name["bad-claim"].result
    assert failure.message == "numeric line: 3 points differ" and failure.text == "x <y>"
    assert by_name["skipped-one"].is_skipped


def test_python_dash_m_posproof_is_the_command():
    p = subprocess.run([sys.executable, "-m", "posproof", "--version"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("posproof ")


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_draws_only_on_a_terminal_and_erases_itself():
    from posproof.derivations.progress import Progress

    piped = io.StringIO()
    with Progress(3, "checking", stream=piped) as bar:
        bar.advance(note="a")
    assert piped.getvalue() == ""
    tty = _Terminal()
    with Progress(2, "checking", stream=tty) as bar:
        bar.advance(note="a")
        bar.advance(note="b")
        drawn = tty.getvalue()
    assert "checking [" in drawn and "2/2 b" in drawn
    assert tty.getvalue().endswith("\r") and tty.getvalue().rsplit("\r", 2)[-2].strip() == ""
    quiet = _Terminal()
    with Progress(2, "checking", quiet=True, stream=quiet) as bar:
        bar.advance()
    assert quiet.getvalue() == ""
