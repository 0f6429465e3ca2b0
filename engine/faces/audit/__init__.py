"""``claimlaw audit``: one claim put to the rules (claims.py), the runners and the driver, local processes
or a Dask cluster (run.py), and the SQLite store of rows (store.py)."""
