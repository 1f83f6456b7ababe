"""The gradguard language server (pygls), a thin adapter over `gradguard.rules`.

    gradguard server                  # stdio, what editors start
    gradguard server --tcp 127.0.0.1:2087
    python -m gradguard.server --log-file /tmp/gradguard.log --log-level debug
"""
from __future__ import annotations

import argparse
import logging
import sys

from gradguard.rules import __version__


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.version:
        print(f"gradguard {__version__}")
        return 0
    tcp = _host_port(args.tcp) if args.tcp else None
    _configure_logging(args.log_file, args.log_level)
    from .server import start  # pygls is imported only when a server really starts; the analyzer
                               # at the first analysis (analysis.py), which tunes the garbage collector
    start(tcp)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradguard server",
        description="Run the gradguard language server (JSON-RPC over stdio unless --tcp is given).",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead of stdio")
    parser.add_argument("--log-file", metavar="PATH", help="also write the server's log to this file")
    # Editors show a server's stderr as errors (Neovim's lsp.log does): say little there by default;
    # what the server does reaches the client as window/logMessage anyway.
    parser.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"],
                        help="how much to log to stderr and --log-file (default: warning)")
    return parser


def _host_port(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        print(f"gradguard server: --tcp expects HOST:PORT (e.g. 127.0.0.1:2087), got {value!r}", file=sys.stderr)
        raise SystemExit(2)
    return host, int(port)


def _configure_logging(log_file: str | None, level: str) -> None:
    # stdout carries the protocol: logs go to stderr (editors show it) and the optional file.
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file:
        try:
            handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
        except OSError as error:
            print(f"gradguard server: cannot write the log file {log_file}: {error.strerror or error}",
                  file=sys.stderr)
            raise SystemExit(2) from None
    logging.basicConfig(level=level.upper(), handlers=handlers,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls").setLevel(max(logging.WARNING, logging.getLogger().level))
