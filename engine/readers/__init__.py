"""Readers: what the table and the records say, read into facts. The claimer's statement in English
(statement.py), a case as the facts the rules match on (facts_in.py), and BBO LIN and PBN hand records
(records/). They stand on facts/ only."""
