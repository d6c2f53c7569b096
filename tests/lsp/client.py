"""A synchronous LSP client for the tests: pygls's LanguageClient driving
`rulespec lsp` in a subprocess over stdio, on an event loop of its own.

Positions are 0-based (line, character), as on the wire.
"""
from __future__ import annotations

import asyncio
import os
import sys

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path, to_fs_path

from tests.paths import ROOT


class Client:
    """One server process; open files, ask questions, read the diagnostics it sends."""

    def __init__(self, root=ROOT, debounce: float = 0.02):
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("rulespec-tests", "1")
        self.diagnostics: dict[str, list] = {}
        self.arrived: dict[str, asyncio.Event] = {}
        self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(
            lambda params: self._diagnostics(params))   # pygls tags the function: no bound method
        self.versions: dict[str, int] = {}
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.run(self.client.start_io(sys.executable, "-m", "interpreter.cli", "lsp", env=env,
                                      cwd=str(root)))
        self.run(self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(root)),
            initialization_options={"debounce": debounce})))
        self.client.initialized(lsp.InitializedParams())

    def run(self, awaitable, timeout=60):
        return self.loop.run_until_complete(asyncio.wait_for(awaitable, timeout))

    def _diagnostics(self, params: lsp.PublishDiagnosticsParams):
        self.diagnostics[params.uri] = list(params.diagnostics)
        self.arrived.setdefault(params.uri, asyncio.Event()).set()

    def _event(self, uri):
        event = self.arrived.setdefault(uri, asyncio.Event())
        event.clear()
        return event

    def open(self, path, text: str | None = None) -> list:
        """Open a file (with `text` instead of its own); return its diagnostics."""
        uri = from_fs_path(os.path.abspath(path))
        text = open(path, encoding="utf-8").read() if text is None else text
        event = self._event(uri)
        self.versions[uri] = 1
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "yaml", 1, text)))
        self.run(event.wait())
        return self.diagnostics[uri]

    def change(self, path, text: str) -> list:
        """Replace the whole text (as an edit); return the diagnostics that follow."""
        uri = from_fs_path(os.path.abspath(path))
        event = self._event(uri)
        self.versions[uri] += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(self.versions[uri], uri),
            [lsp.TextDocumentContentChangeWholeDocument(text)]))
        self.run(event.wait())
        return self.diagnostics[uri]

    def close(self, path):
        uri = from_fs_path(os.path.abspath(path))
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(
            lsp.TextDocumentIdentifier(uri)))

    def _doc(self, path, line, char) -> dict:
        return {"text_document": lsp.TextDocumentIdentifier(from_fs_path(os.path.abspath(path))),
                "position": lsp.Position(line, char)}

    def completion(self, path, line, char) -> list[lsp.CompletionItem]:
        result = self.run(self.client.text_document_completion_async(
            lsp.CompletionParams(**self._doc(path, line, char))))
        return result.items if isinstance(result, lsp.CompletionList) else (result or [])

    def hover(self, path, line, char) -> str | None:
        result = self.run(self.client.text_document_hover_async(
            lsp.HoverParams(**self._doc(path, line, char))))
        return result.contents.value if result else None

    def definition(self, path, line, char):
        result = self.run(self.client.text_document_definition_async(
            lsp.DefinitionParams(**self._doc(path, line, char))))
        return _where(result) if isinstance(result, lsp.Location) else None

    def references(self, path, line, char, declaration=True) -> list:
        result = self.run(self.client.text_document_references_async(lsp.ReferenceParams(
            **self._doc(path, line, char), context=lsp.ReferenceContext(declaration))))
        return sorted(_where(r) for r in result or [])

    def symbols(self, path) -> list:
        return self.run(self.client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(from_fs_path(os.path.abspath(path))))))

    def prepare_rename(self, path, line, char):
        return self.run(self.client.text_document_prepare_rename_async(
            lsp.PrepareRenameParams(**self._doc(path, line, char))))

    def rename(self, path, line, char, new: str) -> dict:
        """{file: [(line, start, end, new text)]} of the edits the server proposes."""
        edit = self.run(self.client.text_document_rename_async(
            lsp.RenameParams(**self._doc(path, line, char), new_name=new)))
        return {to_fs_path(uri): sorted((e.range.start.line, e.range.start.character,
                                         e.range.end.character, e.new_text) for e in edits)
                for uri, edits in (edit.changes or {}).items()}

    def stop(self):
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.close()


def _where(location: lsp.Location):
    r = location.range
    return (to_fs_path(location.uri), r.start.line, r.start.character, r.end.character)


def apply_edits(text: str, edits: list) -> str:
    """Apply single-line edits [(line, start, end, new)] to a text."""
    lines = text.split("\n")
    for line, start, end, new in sorted(edits, reverse=True):
        lines[line] = lines[line][:start] + new + lines[line][end:]
    return "\n".join(lines)


def find(text: str, needle: str, nth: int = 0, offset: int = 0) -> tuple[int, int]:
    """(line, character) of the nth occurrence of needle (plus offset characters)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)
