"""rulespec's language server: diagnostics, completion, hover and navigation for
spec and scenario files, in any editor that speaks the Language Server Protocol.

    rulespec lsp          # serves over stdin/stdout

project.py knows the files (their problems and every named thing), features.py
answers an editor's questions from that, server.py speaks LSP through pygls
(the optional extra `lsp`: pip install -e '.[lsp]'). Only project.py and features.py run
without pygls, so benchmarks and tests can call them directly too.
"""
