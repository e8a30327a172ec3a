# Only what differs from Django's English formats; the rest is Django's.
DATE_FORMAT = "m/d/Y"
DATETIME_FORMAT = "m/d/Y H:i"
SHORT_DATE_FORMAT = "m/d/Y"
SHORT_DATETIME_FORMAT = "m/d/Y H:i"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
# What a date field shows and reads first: the same month/day/year as every English page (the
# admin's date fields and its calendar take the first; ISO 2026-11-30 is still read, as Django
# always reads it).
DATE_INPUT_FORMATS = ["%m/%d/%Y", "%m/%d/%y"]
DATETIME_INPUT_FORMATS = [
    "%m/%d/%Y %H:%M:%S",
    "%m/%d/%Y %H:%M:%S.%f",
    "%m/%d/%Y %H:%M",
    "%m/%d/%Y",
    "%m/%d/%y %H:%M:%S",
    "%m/%d/%y %H:%M",
    "%m/%d/%y",
]
