"""The line readers of the parse stage, one module per family of lines. ``parse.LineParser`` inherits them
(its ``_parse`` dispatches each hit line to them); ``common`` holds the helpers they share."""
