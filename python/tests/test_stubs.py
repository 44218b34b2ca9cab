"""The type stubs (fgn/_fgn.pyi) name what the native module holds, no
more and no less, so that an editor's completions and a type checker see
the package as it is."""

from __future__ import annotations

import ast
from pathlib import Path

import fgn
from fgn import _fgn

STUB = Path(fgn.__file__).with_name("_fgn.pyi")


def public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def test_the_stub_is_installed_with_the_package():
    assert STUB.exists() and STUB.with_name("py.typed").exists()


def test_the_stub_names_every_function_and_class_and_their_members():
    tree = ast.parse(STUB.read_text())
    stubbed = {
        node.name: node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    }
    assert public(stubbed) == public(dir(_fgn))
    for name, node in stubbed.items():
        if not isinstance(node, ast.ClassDef) or issubclass(getattr(_fgn, name), Exception):
            continue
        members = {
            item.name
            for item in node.body
            if isinstance(item, ast.FunctionDef)
        }
        assert public(members) == public(dir(getattr(_fgn, name))), name
