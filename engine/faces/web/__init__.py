"""The web page: ``claimlaw serve`` (engine/faces/web/app.py) and its bundled static files."""
