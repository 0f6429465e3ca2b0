"""The web page: ``claimlaw serve`` (engine/web/app.py) and its bundled static files."""
