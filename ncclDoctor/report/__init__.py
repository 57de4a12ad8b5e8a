"""The report and its views, in layers that point one way:

``model`` (Report; imports findings and errors only) -> ``views`` (tables as data, one
registry from results key to view) -> ``console``, ``markdown``, ``html``, ``junit`` ->
``write`` (render any format, write the run directory). JSON is ``Report.to_json``.
"""
