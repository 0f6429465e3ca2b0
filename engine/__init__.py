"""claimlaw's engine, in layers (each imports only its own or a lower one): readers/ (statements, case facts,
LIN and PBN records), play/ (the play core and normal play), the engine itself in this folder (the rule host,
questions, api, packs), and faces/ (CLI, web page, audit). The laws and the rule vocabulary are in rules/."""
