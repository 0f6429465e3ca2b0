"""``@clause("70C", ...)``: the law clauses a test covers (read by ``claimlaw law`` and the coverage test)."""

from __future__ import annotations

import pytest

clause = pytest.mark.clause
