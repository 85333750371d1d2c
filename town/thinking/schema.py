r"""The JSON schema of one request's answer, and how each server dialect is sent it.

The shape of an answer is known before the request: places and objects come from the options the
question offers, importance is 1-10, memory ids come from those shown. :func:`model_schema`
turns a question's pydantic answer model into a JSON schema, and each question narrows it to
its request (``Question.answer_schema``, with :func:`enum_at` and :func:`ids_among`: enums of
the offered places, objects and ids; bounded lists), so a server that decodes under a schema
can only produce a valid answer.

Schemas use only what the common grammar converters (llama.cpp's ``json-schema-to-grammar``, its
Python port in llama-cpp-python, vLLM's and Ollama's) handle: objects with ``properties`` and
``required``, arrays with ``items``/``minItems``/``maxItems``, ``enum``, strings with
``minLength``/``maxLength`` or a ``pattern`` of ``[0-9]`` classes (never ``\d``: one converter
crashes on escapes), integers and booleans. :func:`portable_problems` lists any other construct.

Dialects (``--structured``), each server's own way to receive the schema:

- ``json_schema``: OpenAI's ``response_format`` ``{"type": "json_schema", "json_schema": {...}}``;
- ``json_object_schema``: llama-cpp-python's ``response_format`` ``{"type": "json_object",
  "schema": {...}}``;
- ``grammar``: a GBNF ``grammar`` (llama.cpp's servers), written by :func:`to_gbnf`;
- ``json_object``: JSON mode without a schema; ``none``: no constraint at all.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from pydantic import BaseModel

from ..config import Dialect

__all__ = [
    "CONSTRAINED",
    "model_schema",
    "enum_at",
    "ids_among",
    "request_fields",
    "portable_problems",
    "to_gbnf",
]


#: The dialects that constrain decoding to the schema, in the order ``auto`` tries them.
CONSTRAINED = (Dialect.JSON_SCHEMA, Dialect.JSON_OBJECT_SCHEMA, Dialect.GRAMMAR)

#: Schema keywords every supported converter understands.
PORTABLE_KEYS = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
     "enum", "minLength", "maxLength", "pattern", "title", "description"}
)

#: A portable pattern: anchored, literals and ``[0-9]``-style classes with ``{n}`` or ``{m,n}``
#: counts (a class holds letters, digits, spaces, braces, parentheses, ``'``, ``,``, ``.``, ``!``,
#: ``?``, ``:`` and ``-``; no escapes: each is itself in a regular expression's class and a GBNF one).
_PORTABLE_PATTERN = re.compile(
    r"^\^(?:[A-Za-z0-9:_ -]|\[[A-Za-z0-9{}()' ,.!?:-]+\](?:\{[0-9]+(?:,[0-9]+)?\})?)*\$$"
)

#: Longest string a schema allows a field (characters): one or two sentences; grammars grow with it.
MAX_STRING = 160
#: Most sentences a field may ask for (its ``json_schema_extra={"sentences": n}``): its bound is
#: n x :data:`MAX_STRING`, so an interview answer of three sentences is not cut at 160 characters.
MAX_SENTENCES = 3


def _clean(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Inline ``$ref`` s, keep portable keywords, make every non-optional property required."""
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    out: dict[str, Any] = {}
    kind = node.get("type")
    if kind == "object":
        props = {}
        for name, sub in node.get("properties", {}).items():
            if "anyOf" in sub:  # X | None: optional, left out of the request's shape
                continue
            props[name] = _clean(sub, defs)
        out = {"type": "object", "properties": props, "required": list(props),
               "additionalProperties": False}
    elif kind == "array":
        out = {"type": "array", "items": _clean(node["items"], defs)}
        for key in ("minItems", "maxItems"):
            if key in node:
                out[key] = node[key]
    elif kind == "integer":
        low, high = node.get("minimum"), node.get("maximum")
        out = {"type": "integer"}
        if low is not None and high is not None and high - low <= 20:
            out["enum"] = list(range(low, high + 1))  # converters ignore minimum/maximum
    elif kind == "string":
        out = {"type": "string"}
        if "pattern" in node:
            out["pattern"] = node["pattern"].replace("\\d", "[0-9]")
        elif "minLength" in node:
            out["minLength"] = node["minLength"]
        if "maxLength" in node and "pattern" not in node:  # a bound keeps answers short
            out["maxLength"] = min(node["maxLength"], MAX_STRING * min(node.get("sentences", 1), MAX_SENTENCES))
    else:
        out = {"type": kind}
    return out


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The portable JSON schema of an answer model (no per-request enums), a fresh copy.

    pydantic builds a model's schema anew on every call (about a millisecond, holding the GIL,
    once per request); it is built once per model and copied.
    """
    return json.loads(_model_schema_text(model))


@functools.cache
def _model_schema_text(model: type[BaseModel]) -> str:
    raw = model.model_json_schema()
    return json.dumps(_clean(raw, raw.get("$defs", {})))


def enum_at(schema: dict[str, Any], path: tuple[str, ...], values: list) -> None:
    """Give the string or integer at ``path`` (property names; "[]" = array items) an enum of
    ``values`` (repeats dropped), in place, instead of its length or pattern bounds."""
    node = schema
    for part in path:
        node = node["items"] if part == "[]" else node["properties"][part]
    for key in ("minLength", "maxLength", "pattern"):
        node.pop(key, None)
    node["enum"] = list(dict.fromkeys(values))


def ids_among(array: dict[str, Any], ids: list[int]) -> None:
    """Make ``array`` (a list of memory ids) a list of ``ids`` only, at most one each, in place;
    with no ids it must stay empty."""
    if ids:
        array["items"] = {"type": "integer", "enum": list(dict.fromkeys(ids))}
        array["maxItems"] = min(array.get("maxItems", len(ids)), len(ids))
    else:
        array["maxItems"] = 0
        array["minItems"] = 0


def request_fields(dialect: Dialect, schema: dict[str, Any] | None) -> dict[str, Any]:
    """The request body's fields that carry ``schema`` in ``dialect`` (merged into the body).

    ``json_object`` and ``none`` carry no schema; without a schema the constrained dialects fall
    back to plain JSON mode.
    """
    if dialect is Dialect.NONE:
        return {}
    if dialect is Dialect.JSON_OBJECT or schema is None:
        return {"response_format": {"type": "json_object"}}
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title") or "answer"))[:64]
    if dialect is Dialect.JSON_SCHEMA:
        return {"response_format": {"type": "json_schema",
                                    "json_schema": {"name": name, "schema": schema, "strict": True}}}
    if dialect is Dialect.JSON_OBJECT_SCHEMA:
        return {"response_format": {"type": "json_object", "schema": schema}}
    return {"grammar": to_gbnf(schema)}


def portable_problems(schema: Any, where: str = "$") -> list[str]:
    """Constructs in ``schema`` that a common grammar converter may not handle (empty: none)."""
    problems: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key not in PORTABLE_KEYS:
                problems.append(f"{where}: keyword {key!r}")
            if key == "pattern" and not _PORTABLE_PATTERN.match(value):
                problems.append(f"{where}: pattern {value!r} (use [0-9]-style classes)")
            if key == "properties":
                for name, sub in value.items():
                    problems += portable_problems(sub, f"{where}.{name}")
            elif key == "items":
                problems += portable_problems(value, f"{where}[]")
        if schema.get("type") == "string" and schema.get("maxLength", 0) > MAX_STRING * MAX_SENTENCES:
            problems.append(f"{where}: maxLength {schema['maxLength']} (grammars grow with it)")
    return problems


# ---------------------------------------------------------------- GBNF (llama.cpp grammars)
_GBNF_BASE = r'''
ws ::= [ \t\n]?
string ::= "\"" ( [^"\\\x7F\x00-\x1F] | "\\" ["\\/bfnrt] )* "\"" ws
char ::= [^"\\\x7F\x00-\x1F] | "\\" ["\\/bfnrt]
integer ::= "-"? [0-9]+ ws
boolean ::= ("true" | "false") ws
'''.strip()


def _literal(value: Any) -> str:
    return json.dumps(json.dumps(value))


def _repeat(item: str, low: int, high: int | None, sep: str = "") -> str:
    """GBNF for ``item`` ``low``..``high`` times (None: unbounded), separated by ``sep``."""
    head = (f" {sep} " if sep else " ").join([item] * low)
    more = f"{sep} {item}" if sep else item  # one more item after at least one
    if high is None:
        tail = f"({more})*" if low else f"({item} ({more})*)?"
    elif high <= low:
        tail = ""
    else:
        tail = ""
        for _ in range(high - low - (0 if low else 1)):
            tail = f"({more} {tail})?".replace(" )", ")")
        if not low:
            tail = f"({item} {tail})?".replace(" )", ")")
    return f"{head} {tail}".strip()


def to_gbnf(schema: dict[str, Any]) -> str:
    """A llama.cpp GBNF grammar accepting exactly the JSON texts ``schema`` describes.

    Handles the portable subset ``Question.answer_schema`` produces (see :func:`portable_problems`).
    """
    rules: list[str] = []

    def visit(node: dict[str, Any], name: str) -> str:
        if "enum" in node:
            body = " | ".join(_literal(v) for v in node["enum"]) or '"null"'
            rules.append(f"{name} ::= ({body}) ws")
            return name
        kind = node.get("type", "")
        if kind == "object":
            parts = []
            for i, (prop, sub) in enumerate(node.get("properties", {}).items()):
                ref = visit(sub, f"{name}-{re.sub(r'[^a-z0-9]', '-', prop.lower())}")
                comma = '"," ws ' if i else ""
                parts.append(f'{comma}{_literal(prop)} ws ":" ws {ref}')
            rules.append(f'{name} ::= "{{" ws {" ".join(parts)} "}}" ws')
            return name
        if kind == "array":
            item = visit(node["items"], f"{name}-item")
            low, high = node.get("minItems", 0), node.get("maxItems")
            inner = _repeat(item, low, high, '"," ws')
            rules.append(f'{name} ::= "[" ws {inner} "]" ws')
            return name
        if kind == "string" and "pattern" in node:
            pattern = node["pattern"][1:-1]
            tokens = re.findall(r"\[[^\]]+\](?:\{[0-9]+(?:,[0-9]+)?\})?|.", pattern)
            out = []
            for tok in tokens:
                if tok.startswith("["):
                    cls, count = tok[: tok.index("]") + 1], tok[tok.index("]") + 1 :]
                    low, _, high = count.strip("{}").partition(",")
                    low = low or "1"
                    out.append(_repeat(cls, int(low), int(high or low)))
                else:
                    out.append(json.dumps(tok))
            rules.append(f'{name} ::= "\\"" {" ".join(out)} "\\"" ws')
            return name
        if kind == "string" and ("minLength" in node or "maxLength" in node):
            body = _repeat("char", node.get("minLength", 0), node.get("maxLength"))
            rules.append(f'{name} ::= "\\"" {body} "\\"" ws')
            return name
        return {"string": "string", "integer": "integer", "boolean": "boolean"}[kind]

    visit(schema, "root")
    return "\n".join(rules) + "\n" + _GBNF_BASE + "\n"
