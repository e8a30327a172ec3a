"""The casino's formats per language (FORMAT_MODULE_PATH): one short form of a day, a moment
and an amount on every screen, the admin's included. French as the registers print them,
02/12/2026 01:30 and 30 000,00; English as the English locale writes them, 12/02/2026 01:30
and 30,000.00 (times on 24 hours in both, as the casino's books keep them)."""
