# Only what differs from Django's English formats; the rest (input formats…) is Django's.
DATE_FORMAT = "m/d/Y"
DATETIME_FORMAT = "m/d/Y H:i"
SHORT_DATE_FORMAT = "m/d/Y"
SHORT_DATETIME_FORMAT = "m/d/Y H:i"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
