"""The table's layers: the controller uses vision, display and hardware; none of them uses the
controller. vision/calibrate.py imported controller.plain_file (to save into config.toml), the
one import pointing outward: vision could not be used, tested or benchmarked without the
table's controller, and a change in the controller's file helpers could break the reader.
Every import statement of those packages is looked at, those inside functions too."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INNER = ("vision", "display", "hardware")


def controller_imports(path: Path) -> list[str]:
    """Each import of the controller in the file at `path`, as "line N: the statement"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(name == "controller" or name.startswith("controller.") for name in names):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("package", INNER)
def test_no_inner_package_imports_the_controller(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no Python files in {package}/"
    wrong = {str(f.relative_to(ROOT)): found for f in files if (found := controller_imports(f))}
    assert not wrong, f"{package}/ imports the controller: {wrong}"


def test_the_check_sees_an_import_of_the_controller(tmp_path):
    """(The check itself: it must not pass for want of seeing anything.)"""
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom controller.plain_file import read_plain\n\ndef f():\n"
                      "    import controller.config as c\n    from .types import Die\n", encoding="utf-8")
    assert controller_imports(sample) == ["line 2: from controller.plain_file import read_plain",
                                          "line 5: import controller.config as c"]
