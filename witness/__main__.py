"""The witness's manage entry: ``python -m witness <command>`` (migrate, runserver,
witness_keygen, witness_add_log, …), with the witness's own settings."""

import os
import sys


def main() -> None:
    # always the witness's own settings, never a casino's left in the environment
    os.environ["DJANGO_SETTINGS_MODULE"] = "witness.settings"
    from django.core.management import execute_from_command_line

    execute_from_command_line([f"{sys.executable} -m witness", *sys.argv[1:]])


if __name__ == "__main__":
    main()
