"""The report model and its renderers (JSON, Markdown, terminal)."""
