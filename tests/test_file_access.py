"""Files are touched in one place: no module outside ``artibot/store/`` (and the hook path's
own ``artibot/hookpath/store/``, the same primitives on string paths) opens, renames,
deletes, globs or looks at a file (exists, is it a file, its size or times), or reaches
for the store's low-level file primitives. Looking counts: a check made beside the
store's back can race the store's own locks and atomic renames.

Checked on the source (like tests/router/test_purity.py): every call and import of every
module under ``artibot/`` except ``artibot/store/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import artibot

PACKAGE = Path(artibot.__file__).parent

# module.function calls that touch the file system
MODULE_CALLS = {
    "os": {"open", "replace", "rename", "renames", "unlink", "remove", "removedirs", "rmdir", "mkdir", "makedirs",
           "listdir", "scandir", "walk", "link", "symlink", "truncate", "chmod", "stat", "lstat", "access"},
    "os.path": {"exists", "lexists", "isfile", "isdir", "islink", "getsize", "getmtime", "getatime", "getctime",
                "samefile"},
    "shutil": {"move", "copy", "copy2", "copyfile", "copytree", "rmtree"},
    "glob": {"glob", "iglob"},
    "tempfile": {"mkdtemp", "mkstemp", "NamedTemporaryFile", "TemporaryDirectory"},
}
# pathlib.Path methods that touch the file system (``replace`` only with one argument:
# ``str.replace`` takes two)
PATH_METHODS = {"open", "read_text", "write_text", "read_bytes", "write_bytes", "unlink", "rename", "glob",
                "rglob", "iterdir", "mkdir", "rmdir", "touch", "symlink_to", "hardlink_to", "chmod", "exists",
                "is_file", "is_dir", "is_symlink", "is_fifo", "is_socket", "stat", "lstat", "samefile"}
# the store's primitives: whoever imports them is writing files by hand
STORE_PRIMITIVES = {"artibot.store.fs": {"atomic_write_bytes", "read_bytes", "ensure_dir", "check_regular",
                                         "append_bytes"},
                    "artibot.store.documents": {"read_document", "write_document", "parse_document",
                                                "dump_document"},
                    "artibot.hookpath.store.files": {"open_regular", "read_bytes", "write_atomic", "fsync_dir", "lock"}}

ALLOWED = {
    # the store's string-path primitives (open, atomic writer, lock), shared by the hooks'
    # artibot.hookpath.store.hookio and the library's artibot.store.fs; nothing else imports them
    # (STORE_PRIMITIVES)
    "hookpath/store/files.py": "the store's primitives, on the hook path's lean floor",
    # configuration, not data: the shipped defaults and the user's config file, read only
    "config/__init__.py": "reads configuration files",
    # Claude Code's own settings and command files, outside the data home, with backups
    "integrations/claude_code/installer.py": "writes Claude Code's settings",
    # every client's planned install or uninstall: backups, modes, atomic writes, removals
    "integrations/install_files.py": "applies an install plan to the clients' files",
    # points stdout at /dev/null when the client stops reading
    "hookpath/turns/call.py": "opens os.devnull",
    # asks check_regular whether a review is pending (artibot.store.round.rounds.has_pending is the
    # store's way)
    "hookpath/turns/spawn_learner.py": "checks for a pending review",
    # pip's record of where the installed artibot came from (importlib.metadata's
    # direct_url.json), for the install command `artibot report` names; not data
    "cli/install_source.py": "reads the install's metadata",
    # the shipped /learn command template, not data
    "integrations/claude_code/templates.py": "reads the shipped template",
    # whether the project folder a project-scope install edits exists: the user's project,
    # not artibot's data (the client's own files are written through artibot.store.fs)
    "integrations/json_hooks.py": "checks that the project directory exists",
    # the demo makes a temporary home, writes its config there, and removes it at the end
    "demo.py": "creates and removes the demo's temporary home",
    # points stdout at /dev/null when the reader of a pipe goes away (`artibot demo | head`)
    "cli/render.py": "opens os.devnull",
}


def touches(path: Path) -> list[str]:
    """Each file-system call or primitive import in the module at ``path``, as ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        what = None
        if isinstance(node, ast.ImportFrom) and node.module in STORE_PRIMITIVES:
            names = {a.name for a in node.names} & STORE_PRIMITIVES[node.module]
            what = f"imports {', '.join(sorted(names))} from {node.module}" if names else None
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id == "open":
                what = "open()"
            elif isinstance(f, ast.Attribute):
                owner = ast.unparse(f.value) if isinstance(f.value, (ast.Name, ast.Attribute)) else None
                if owner in MODULE_CALLS:
                    what = f"{owner}.{f.attr}()" if f.attr in MODULE_CALLS[owner] else None
                elif f.attr in PATH_METHODS or (f.attr == "replace" and len(node.args) == 1):
                    what = f".{f.attr}()"
        if what:
            found.append(f"{node.lineno}: {what}")
    return found


def test_no_module_outside_the_store_touches_files() -> None:
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(("store/", "hookpath/store/")) or rel in ALLOWED:
            continue
        if found := touches(path):
            offenders[rel] = found
    assert offenders == {}, "file access outside artibot/store/: " + "; ".join(
        f"{rel} ({', '.join(found)})" for rel, found in offenders.items())


def test_the_check_sees_file_access(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom artibot.store.fs import atomic_write_bytes, FileLock\n"
                      "def f(p, q):\n    os.replace(p, q)\n    p.read_text()\n    q.replace('a', 'b')\n"
                      "    p.replace(q)\n    open(p)\n    list(p.glob('*.json'))\n    os.path.isfile(p)\n"
                      "    os.stat(p)\n    p.exists()\n    p.is_dir()\n    os.path.join(p, q)\n")
    assert sorted(touches(sample), key=lambda found: int(found.split(":")[0])) == ["2: imports atomic_write_bytes from artibot.store.fs", "4: os.replace()",
                               "5: .read_text()", "7: .replace()", "8: open()", "9: .glob()", "10: os.path.isfile()",
                               "11: os.stat()", "12: .exists()", "13: .is_dir()"]


def test_the_allowlist_names_real_modules() -> None:
    missing = [rel for rel in ALLOWED if not (PACKAGE / rel).exists()]
    assert missing == [], f"allowlisted modules that no longer exist (remove them): {missing}"
