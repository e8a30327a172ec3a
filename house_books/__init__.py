"""Other books of the casino: orphans (LU art. 8), approvals of staff and direction
(LU art. 51, 54, 63) and tips (LU art. 57). Under FR they are the casino's internal books."""
