"""The card depot (FR art. 39-40, LU art. 6-7)."""
