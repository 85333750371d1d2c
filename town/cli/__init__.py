"""The `town` command line (also `python run.py`).

Sub-commands: simulate, resume, fork, inspect, interview, evaluate, stats, compare, study, sweep,
generate (a module each); the viewer's serve (the default of ``python run.py``) and replay are
added by ``web.cli``, because the engine never imports the web layer. Any :class:`TownError` ends
the command with exit code 2 and one line naming the file/field and the fix.
"""

from ..runner import STOP_GRACE_S
from .drive import build_simulation, remove_run, saved_line
from .main import COMMANDS, main
from .parser import add_model_choice, add_sim_options, build_parser
from .simulate import cmd_resume, cmd_simulate

__all__ = ["main", "COMMANDS", "build_parser", "add_sim_options", "add_model_choice", "build_simulation", "saved_line",
           "remove_run", "cmd_simulate", "cmd_resume", "STOP_GRACE_S"]
