"""The commands the tests start write no bytecode into the checkout.

Tests run ``python -m gammon ...`` where a write past N bytes fails (RLIMIT_FSIZE, as on a full
disk). Such a child also rewrote the checkout's stale ``.pyc`` files, cut at N bytes (Python does
not check that the whole file was written), and every later ``import gammon`` in that checkout
failed with ``EOFError: marshal data too short`` until the files were deleted.
"""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from pathlib import Path


def _file_size_limit() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))


def test_a_child_under_a_file_size_limit_leaves_no_cut_bytecode(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("".join(f"def f{i}():\n    return {i}\n" for i in range(100)))
    done = subprocess.run([sys.executable, "-c", "import pkg"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, preexec_fn=_file_size_limit)
    assert done.returncode == 0, done.stderr
    assert not (package / "__pycache__").exists()
    again = subprocess.run([sys.executable, "-c", "import pkg; print(pkg.f99())"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
    assert again.stdout == "99\n", again.stderr
