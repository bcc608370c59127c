r"""Output for programs: every JSON document a command prints carries ``"schema": "posproof.<command>/<version>"``,
and the JSON Schema of each (``derivations/schemas/<command>.schema.json``) ships in the package; ``--junit FILE``
writes JUnit XML, one test case per claim or finding, for CI systems to show natively.

The version is raised when a field is removed or changes meaning; fields are only ever added within a version.

>>> document("check", {"results": []})["schema"]
'posproof.check/1'
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from xml.etree import ElementTree as ET

#: The version of every command's JSON document.
SCHEMA_VERSION = 1
#: The commands whose JSON output has a shipped schema.
SCHEMAS = ("check", "audit", "list", "extend", "properties", "claim", "export", "sweep")


def schema_id(command: str) -> str:
    r"""The value of the ``schema`` field of ``command``'s JSON document."""
    return f"posproof.{command}/{SCHEMA_VERSION}"


def document(command: str, body: dict) -> dict:
    r"""``body`` with the ``schema`` field first: the JSON document ``command`` prints."""
    return {"schema": schema_id(command), **body}


def schema(command: str) -> dict:
    r"""The shipped JSON Schema of ``command``'s document."""
    if command not in SCHEMAS:
        raise ValueError(f"command must be one of {', '.join(SCHEMAS)}, got {command!r}")
    text = resources.files("posproof.derivations").joinpath(f"schemas/{command}.schema.json").read_text("utf-8")
    return json.loads(text)


def validate(doc: dict, command: str) -> None:
    r"""Raise ``jsonschema.ValidationError`` unless ``doc`` is a valid document of ``command`` (needs
    ``jsonschema``, a test dependency)."""
    import jsonschema

    jsonschema.validate(doc, schema(command), cls=jsonschema.Draft202012Validator)


@dataclass(frozen=True)
class Case:
    r"""One JUnit test case: a claim or a finding. ``failure`` is the one-line message of a failure (``None``
    passes); ``detail`` the longer text under it; ``skipped`` a reason it did not run."""

    name: str
    classname: str
    seconds: float = 0.0
    failure: str | None = None
    detail: str = ""
    skipped: str | None = None


def junit_xml(suite: str, cases: Iterable[Case]) -> bytes:
    r"""A JUnit XML document (``<testsuites>`` holding one ``<testsuite name=suite>``) of ``cases``.

    >>> print(junit_xml("check", [Case("a", "posproof.check", 0.5)]).decode().splitlines()[1])
    <testsuites name="posproof" tests="1" failures="0" errors="0" skipped="0" time="0.500">
    """
    cases = list(cases)
    counts = {
        "tests": str(len(cases)),
        "failures": str(sum(c.failure is not None for c in cases)),
        "errors": "0",
        "skipped": str(sum(c.skipped is not None for c in cases)),
        "time": f"{sum(c.seconds for c in cases):.3f}",
    }
    root = ET.Element("testsuites", {"name": "posproof", **counts})
    node = ET.SubElement(root, "testsuite", {"name": suite, **counts})
    for c in cases:
        case = ET.SubElement(node, "testcase", {"name": c.name, "classname": c.classname, "time": f"{c.seconds:.3f}"})
        if c.failure is not None:
            ET.SubElement(case, "failure", {"message": c.failure, "type": "failure"}).text = c.detail or c.failure
        elif c.skipped is not None:
            ET.SubElement(case, "skipped", {"message": c.skipped})
    ET.indent(root)
    body = ET.tostring(root, encoding="utf-8", xml_declaration=False)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + body + b"\n"


def write_junit(path: Path, suite: str, cases: Iterable[Case]) -> None:
    r"""Write :func:`junit_xml` to ``path`` atomically (``path`` checked before the work by ``args.output_file``)."""
    from posproof.numeric import _io

    _io.write_atomic(path, junit_xml(suite, cases))
