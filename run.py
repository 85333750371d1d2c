"""Entry point: `python run.py` runs the default town live with the viewer at 127.0.0.1:5000.

`python run.py --help` lists the other commands (the same CLI as the `town` script).
"""

import sys

if __name__ == "__main__":
    try:
        from web.cli import main
    except KeyboardInterrupt:  # Ctrl-C while the libraries load: nothing was started yet
        print("town: interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(main())
