"""Entry point: `python run.py` starts the default town with the live viewer at
http://127.0.0.1:5000; `python run.py --help` lists the other commands."""

import sys

from town.cli import main

if __name__ == "__main__":
    sys.exit(main())
