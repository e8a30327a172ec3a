# Only what differs from Django's French formats; the rest (input formats…) is Django's.
DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "d/m/Y H:i"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\u202f"  # the narrow no-break space of the printed registers
NUMBER_GROUPING = 3
