"""Prompt templates: one Jinja2 file per question (``prompts/<template>.j2``), user-overridable.

A template renders the user message of a chat completion from ``question.context()``. Templates
in a user folder (``--prompts DIR``) take precedence, file by file, over the packaged ones, so a
user can edit one question's prompt and keep the rest. The prompts are written after the
questions of Park et al. 2023 (importance §4.1, reflection §4.2, planning and dialogue §4.3).
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from ..errors import ConfigError, ThinkingError
from .questions import Question

__all__ = ["PromptSet", "SYSTEM_PROMPT", "PACKAGED_PROMPTS"]

#: The packaged templates' folder.
PACKAGED_PROMPTS = Path(__file__).parent / "prompts"

#: The system message sent with every question.
SYSTEM_PROMPT = (
    "You are a character in a small-town simulation. Answer as that character. "
    "Reply with a single JSON object exactly in the requested shape, and nothing else."
)


class PromptSet:
    """Renders questions through Jinja2 templates.

    Args:
        user_dir: folder of ``<template>.j2`` files overriding the packaged ones, or None.

    Raises:
        ConfigError: when ``user_dir`` is given but is not a folder, or one of its templates
            does not compile (naming the file and the line) or is not UTF-8.
    """

    def __init__(self, user_dir: str | Path | None = None):
        self.user_dir = None if user_dir is None else Path(user_dir)
        loaders: list[jinja2.BaseLoader] = []
        if self.user_dir is not None:
            if not self.user_dir.is_dir():
                raise ConfigError(
                    f"{self.user_dir} is not a folder of .j2 templates", field="--prompts"
                )
            loaders.append(jinja2.FileSystemLoader(str(self.user_dir)))
        loaders.append(jinja2.FileSystemLoader(str(PACKAGED_PROMPTS)))
        self._env = jinja2.Environment(
            loader=jinja2.ChoiceLoader(loaders),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            trim_blocks=False,
            keep_trailing_newline=False,
        )
        for path in sorted(self.user_dir.glob("*.j2")) if self.user_dir is not None else ():
            try:  # compiled now: a broken one failed its first question, the run file made
                self._env.get_template(path.name)
            except jinja2.TemplateSyntaxError as exc:
                raise ConfigError(f"line {exc.lineno}: {exc.message}", file=path, field="--prompts") from None
            except UnicodeDecodeError as exc:
                raise ConfigError(f"is not UTF-8 text ({exc.reason})", file=path, field="--prompts") from None

    def source_of(self, template: str) -> Path:
        """The file a template is loaded from (the user's override if there is one)."""
        if self.user_dir is not None and (self.user_dir / f"{template}.j2").is_file():
            return self.user_dir / f"{template}.j2"
        return PACKAGED_PROMPTS / f"{template}.j2"

    def render(self, question: Question) -> str:
        """The user message for ``question``: its template rendered with ``question.context()``.

        Blank-line runs are squeezed to one blank line, so optional sections leave no gaps.

        Raises:
            ThinkingError: naming the template file when it is missing or fails to render.
        """
        name = f"{question.template}.j2"
        try:
            text = self._env.get_template(name).render(**question.context())
        except jinja2.TemplateNotFound as exc:
            raise ThinkingError(
                f"no prompt template {name} (looked in {self.user_dir or ''} {PACKAGED_PROMPTS})"
            ) from exc
        except jinja2.TemplateError as exc:
            raise ThinkingError(
                f"prompt template {self.source_of(question.template)} failed to render: {exc}"
            ) from exc
        lines, blank = [], False
        for line in text.strip().splitlines():
            line = line.rstrip()
            if not line and blank:
                continue
            blank = not line
            lines.append(line)
        return "\n".join(lines)
