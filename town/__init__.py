"""`town`: a generative-agents town (Park et al. 2023) you can watch, replay and inspect."""

__version__ = "0.1.0"
