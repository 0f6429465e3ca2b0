"""The faces: the command line (cli.py), the web page (web/) and the audit of hand records (audit/). They
stand on the engine (engine/api.py and its neighbours); nothing below imports them."""
