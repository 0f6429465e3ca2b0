"""Normal play's one home: the table of licences, the claimer's view, the licences and ties as functions of the
view, and the stated-line follower. The search (engine/play/search.py) only searches over what these allow."""
