"""The README's Python example runs, on an archive of the corpus."""

from __future__ import annotations

import re
import tarfile

from conftest import CORPUS, ROOT, corpus_logs


def test_the_readme_example_runs_on_an_archive(tmp_path, capsys):
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) == 5
    archive = tmp_path / "archive.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for log in corpus_logs():
            tar.add(log, arcname=str(log.relative_to(CORPUS)))
    exec(code.replace('"archive.tar.zst"', repr(str(archive))), {})
    printed = capsys.readouterr().out
    assert "survival-chess" in printed and "1-0" in printed
