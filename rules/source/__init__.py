"""Layer 1, source: text, lines, parsing, imports, notebooks and the editor's incremental parse."""
