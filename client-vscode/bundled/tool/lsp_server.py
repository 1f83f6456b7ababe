"""Starts the gradguard language server for the VS Code extension.

    python lsp_server.py [server args...]     # the server over stdio
    python lsp_server.py --check              # one JSON line: can this interpreter run it?

GRADGUARD_IMPORT_STRATEGY chooses where gradguard comes from: "useBundled" (the default) puts the
libraries shipped in ../libs first on sys.path; "fromEnvironment" puts them last, so a gradguard
installed in the interpreter's environment wins and the bundled one is the fallback.

This file is run as a script, never with -m: sys.path[0] is this folder, not the workspace, so a
module in the workspace cannot stand in for the server. Keep it runnable by old Pythons (no
f-strings) so that it can say which version is too old.
"""
import json
import os
import sys

MINIMUM = (3, 11)
LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")


def _update_sys_path(strategy):
    if not os.path.isdir(LIBS):
        return
    if strategy == "fromEnvironment":
        sys.path.append(LIBS)
    else:
        sys.path.insert(0, LIBS)


def _check(strategy):
    """What the extension needs to know before it starts the server, as one JSON line."""
    report = {
        "executable": sys.executable,
        "version": "%d.%d.%d" % sys.version_info[:3],
        "importStrategy": strategy,
    }
    if sys.version_info < MINIMUM:
        report["error"] = "Python %d.%d is too old: gradguard needs Python %d.%d or newer" % (
            sys.version_info[0], sys.version_info[1], MINIMUM[0], MINIMUM[1])
        return report, 1
    try:
        import gradguard.rules
        import gradguard.server  # noqa: F401
        import libcst
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401

        libcst.parse_module("x = 1\n")  # the compiled parser: built per Python version and platform
    except Exception as error:  # anything from a broken or foreign install
        report["error"] = "%s: %s" % (type(error).__name__, error)
        return report, 1
    location = os.path.dirname(os.path.abspath(gradguard.rules.__file__))
    report["gradguard"] = gradguard.rules.__version__
    report["location"] = location
    report["bundled"] = os.path.abspath(location).startswith(os.path.abspath(LIBS) + os.sep)
    return report, 0


def main():
    strategy = os.environ.get("GRADGUARD_IMPORT_STRATEGY", "useBundled")
    _update_sys_path(strategy)
    if sys.argv[1:] == ["--check"]:
        report, status = _check(strategy)
        sys.stdout.write(json.dumps(report) + "\n")
        return status
    if sys.version_info < MINIMUM:
        sys.stderr.write("gradguard needs Python %d.%d or newer, not %s\n" % (MINIMUM[0], MINIMUM[1], sys.version))
        return 2
    from gradguard.server import main as server_main

    return server_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
