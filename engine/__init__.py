"""claimlaw's engine: the rule host, the play core, the hand-record readers and the CLI."""
