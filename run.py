"""Entry point: `python run.py` runs the default town live with the viewer at 127.0.0.1:5000.

`python run.py --help` lists the other commands (the same CLI as the `town` script).
"""

import sys

from web.cli import main

if __name__ == "__main__":
    sys.exit(main())
