"""`rulespec lsp`: the language server, over stdio, on pygls and lsprotocol.

Each handler turns LSP's types into a question for rulespec.lsp.features and
its answer back into LSP's types. Diagnostics are computed on open and save
at once, and on change after a pause in typing (DEBOUNCE seconds), so a fast
typist does not queue a check per keystroke.
"""
from __future__ import annotations

import asyncio
import os
import re
import sys

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..limits import LSP_HEADER_BYTES, LSP_MESSAGE_BYTES
from . import features
from .project import Project

DEBOUNCE = 0.15   # seconds of quiet after a change before the file is checked again
INDEX_DELAY = 0.2   # ... and after its diagnostics, before its names are indexed


class RulespecServer(LanguageServer):
    """A LanguageServer with a Project (the files' analyses) and pending checks."""

    def __init__(self):
        super().__init__("rulespec", "0.1.0",
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.project = Project()
        self.pending: dict[str, asyncio.TimerHandle] = {}    # checks waiting for a pause
        self.indexing: dict[str, asyncio.TimerHandle] = {}   # indexing waiting for a pause
        self.debounce = DEBOUNCE


server = RulespecServer()


def _file(uri: str) -> str:
    return os.path.abspath(to_fs_path(uri) or uri)


def _range(line, start, end_line=None, end=None) -> lsp.Range:
    return lsp.Range(lsp.Position(line, start), lsp.Position(line if end_line is None else end_line,
                                                             end))


def _location(occ) -> lsp.Location:
    return lsp.Location(from_fs_path(occ.file), _range(occ.line, occ.start, occ.line, occ.end))


# ----------------------------------------------------------------- lifecycle
@server.feature(lsp.INITIALIZED)
def initialized(ls: RulespecServer, params: lsp.InitializedParams):
    roots = [to_fs_path(f.uri) for f in ls.workspace.folders.values()]
    if not roots and ls.workspace.root_path:
        roots = [ls.workspace.root_path]
    ls.project.roots = [os.path.abspath(r) for r in roots if r]
    options = getattr(ls, "_init_options", None) or {}
    if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
        ls.debounce = float(options["debounce"])


@server.feature(lsp.INITIALIZE)
def initialize(ls: RulespecServer, params: lsp.InitializeParams):
    ls._init_options = params.initialization_options


def publish(ls: RulespecServer, uri: str) -> None:
    """Check the file now and send its diagnostics (and those of open scenario files on it)."""
    ls.pending.pop(uri, None)
    file = _file(uri)
    doc = ls.workspace.get_text_document(uri)
    ls.project.set_text(file, doc.source)
    a = ls.project.analysis(file)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=uri, version=doc.version,
        diagnostics=[lsp.Diagnostic(range=_range(d.line, d.start, d.end_line, d.end),
                                    message=d.message, severity=lsp.DiagnosticSeverity.Error,
                                    source="rulespec") for d in a.diagnostics]))
    try:   # index the names once typing pauses: the next question finds the index ready
        ls.indexing[uri] = asyncio.get_running_loop().call_later(INDEX_DELAY, lambda: a.occurrences)
    except RuntimeError:
        pass


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulespecServer, params: lsp.DidOpenTextDocumentParams):
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulespecServer, params: lsp.DidSaveTextDocumentParams):
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: RulespecServer, params: lsp.DidChangeTextDocumentParams):
    uri = params.text_document.uri
    ls.project.set_text(_file(uri), ls.workspace.get_text_document(uri).source)
    for waiting in (ls.pending.pop(uri, None), ls.indexing.pop(uri, None)):
        if waiting is not None:
            waiting.cancel()
    ls.pending[uri] = asyncio.get_running_loop().call_later(ls.debounce, publish, ls, uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulespecServer, params: lsp.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    pending = ls.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    ls.project.set_text(_file(uri), None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# --------------------------------------------------------------- the answers
def _current(ls: RulespecServer, uri: str):
    file = _file(uri)
    ls.project.set_text(file, ls.workspace.get_text_document(uri).source)
    return ls.project.usable(file)


_KINDS = {name: getattr(lsp.CompletionItemKind, name) for name in lsp.CompletionItemKind.__members__}


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=[".", " ", ","]))
def completion(ls: RulespecServer, params: lsp.CompletionParams):
    uri = params.text_document.uri
    a = _current(ls, uri)
    pos = params.position
    text = ls.workspace.get_text_document(uri).source
    items = features.completion(a, pos.line, pos.character, text)
    return lsp.CompletionList(is_incomplete=False, items=[
        lsp.CompletionItem(label=i.label, kind=_KINDS.get(i.kind, lsp.CompletionItemKind.Text),
                           detail=i.detail or None,
                           documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, i.documentation)
                           if i.documentation else None)
        for i in items])


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: RulespecServer, params: lsp.HoverParams):
    a = _current(ls, params.text_document.uri)
    occ = a.at(params.position.line, params.position.character)
    text = features.hover(a, params.position.line, params.position.character)
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(lsp.MarkupKind.Markdown, text),
                     range=_range(occ.line, occ.start, occ.line, occ.end))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulespecServer, params: lsp.DefinitionParams):
    a = _current(ls, params.text_document.uri)
    found = features.definition(a, params.position.line, params.position.character)
    return _location(found) if found is not None else None


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: RulespecServer, params: lsp.ReferenceParams):
    a = _current(ls, params.text_document.uri)
    occ = a.at(params.position.line, params.position.character)
    if occ is None:
        return []
    family = ls.project.family(a.file)
    return [_location(o) for o in features.references(
        family, occ.symbol, params.context.include_declaration)]


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RulespecServer, params: lsp.DocumentSymbolParams):
    a = _current(ls, params.text_document.uri)
    kinds = {"phase": lsp.SymbolKind.Module, "action": lsp.SymbolKind.Event,
             "trigger": lsp.SymbolKind.Event, "procedure": lsp.SymbolKind.Method,
             "function": lsp.SymbolKind.Function, "signal": lsp.SymbolKind.Event,
             "end": lsp.SymbolKind.Boolean, "invariant": lsp.SymbolKind.Boolean}
    out = []
    for section, category, entries in features.outline(a):
        children = [lsp.DocumentSymbol(
            name=str(name), kind=kinds[category],
            range=_range(o.line, o.start, o.line, o.end),
            selection_range=_range(o.line, o.start, o.line, o.end)) for name, o in entries]
        first, last = children[0].range, children[-1].range
        out.append(lsp.DocumentSymbol(name=section, kind=lsp.SymbolKind.Namespace,
                                      range=lsp.Range(first.start, last.end),
                                      selection_range=first, children=children))
    return out


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: RulespecServer, params: lsp.PrepareRenameParams):
    a = _current(ls, params.text_document.uri)
    occ = a.at(params.position.line, params.position.character)
    if occ is None or occ.symbol[0] not in features.RENAMABLE:
        return None
    return _range(occ.line, occ.start, occ.line, occ.end)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: RulespecServer, params: lsp.RenameParams):
    a = _current(ls, params.text_document.uri)
    occ = a.at(params.position.line, params.position.character)
    if occ is None:
        return None
    family = ls.project.family(a.file)
    problem = features.rename_check(a, occ.symbol, params.new_name, family)
    if problem:
        raise ValueError(problem)   # pygls answers it as an error response
    edits: dict[str, list] = {}
    for o in features.references(family, occ.symbol):
        edits.setdefault(from_fs_path(o.file), []).append(
            lsp.TextEdit(_range(o.line, o.start, o.line, o.end), params.new_name))
    return lsp.WorkspaceEdit(changes=edits)


class BoundedInput:
    """stdin as pygls reads it (readline, read), with the lengths the client sends
    bounded: a header line over LSP_HEADER_BYTES or a Content-Length over
    LSP_MESSAGE_BYTES ends the input (pygls would read that far, or fail on a
    length no buffer can hold), and `problem` says why."""

    _LENGTH = re.compile(rb"content-length:\s*(\d+)\s*", re.IGNORECASE)

    def __init__(self, raw):
        self.raw, self.problem = raw, None

    def readline(self) -> bytes:
        line = self.raw.readline(LSP_HEADER_BYTES + 1)
        if len(line) > LSP_HEADER_BYTES and not line.endswith(b"\n"):
            return self._stop(f"a header line longer than {LSP_HEADER_BYTES} bytes")
        length = self._LENGTH.fullmatch(line)
        if length and int(length.group(1)) > LSP_MESSAGE_BYTES:
            return self._stop(f"a message of {length.group(1).decode()} bytes (its Content-Length), "
                              f"over the limit of {LSP_MESSAGE_BYTES // 2**20} MB")
        return line

    def read(self, n: int) -> bytes:
        return self.raw.read(n)     # n: a Content-Length readline let through

    def _stop(self, problem: str) -> bytes:
        self.problem = problem
        return b""      # end of input: pygls's loop stops


def main(stdin=None, stdout=None, stderr=None) -> int:
    """Serve on stdin/stdout until the client says exit; 1 when the client sent a
    message too long to read (said on stderr)."""
    bounded = BoundedInput(stdin or sys.stdin.buffer)
    server.start_io(bounded, stdout or sys.stdout.buffer)
    if bounded.problem:
        print(f"rulespec lsp: error: the client sent {bounded.problem}: stopped",
              file=stderr or sys.stderr)
        return 1
    return 0
