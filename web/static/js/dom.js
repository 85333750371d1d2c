// Small DOM helpers. Every text goes in through textContent: data is never parsed as HTML.

/** Create an element: el("div", {class: "x", id: "y", data: {seq: 3}, title: "t"}, "text" | [children]). */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else if (key === "style") Object.assign(node.style, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace all children of `node`. */
export function fill(node, children) {
  node.replaceChildren(...[].concat(children).filter((c) => c !== null && c !== undefined));
}

/** A number shown with `digits` decimals ("–" when missing). */
export function num(value, digits = 3) {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "–";
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Split a game time "YYYY-MM-DD HH:MM[:SS]" into {day: "Monday 13 Feb 2023", clock: "07:00:10"}. */
export function gameTime(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text || "");
  if (!m) return { day: "", clock: text || "" };
  const [, y, mo, d, h, mi, s] = m;
  const weekday = DAYS[new Date(Date.UTC(+y, +mo - 1, +d)).getUTCDay()];
  return { day: `${weekday} ${+d} ${MONTHS[+mo - 1]} ${y}`, clock: `${h}:${mi}:${s || "00"}` };
}

/** "HH:MM" of a game time. */
export function hhmm(text) {
  return gameTime(text).clock.slice(0, 5);
}

/** A stable pleasant colour per persona id. */
const PALETTE = ["#e07a5f", "#3d85c6", "#81b29a", "#9b5de5", "#f2a541", "#e56b9f", "#2a9d8f",
  "#c05746", "#5c80bc", "#8d6a9f", "#d1495b", "#00798c"];
export function personaColor(id, index) {
  if (Number.isInteger(index)) return PALETTE[index % PALETTE.length];
  let h = 0;
  for (const ch of String(id)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length];
}

/**
 * Initials of a name ("Isabella Rodriguez" -> "IR"): first and last word, ignoring anything in
 * parentheses or brackets and any character that is not a letter or digit
 * ("Isabella Rodriguez (owner)" -> "IR", "(Klaus) Mueller" -> "MU").
 */
export function initials(name) {
  const parts = nameWords(name);
  if (!parts.length) return "?";
  const [first, last] = [parts[0], parts[parts.length - 1]];
  return (parts.length > 1 ? first[0] + last[0] : first.slice(0, 2).join("")).toUpperCase();
}

/** The words of a name as arrays of characters, without brackets and punctuation. */
function nameWords(name) {
  const bare = String(name || "").replace(/\([^)]*\)?|\[[^\]]*\]?/g, " ");
  return bare.split(/\s+/).map((w) => Array.from(w.replace(/[^\p{L}\p{N}]/gu, ""))).filter((w) => w.length);
}

/**
 * Map badges for a town's personas, unique among them (id -> label): the initials, and where
 * several share them, for that group the first of these that tells them apart: the last word's
 * second letter ("Maria Lopez" "MLo", "Mei Lin" "MLi"), the first word's ("Jane Moreno" "JaM",
 * "Jennifer Moore" "JeM"), else a number in id order ("ML1", "ML2").
 */
export function uniqueInitials(personas) {
  const groups = new Map();
  for (const p of personas) {
    const label = initials(shownName(p));
    groups.set(label, [...(groups.get(label) || []), p]);
  }
  const upper = (c) => (c || "").toUpperCase(), lower = (c) => (c || "").toLowerCase();
  const schemes = [
    (w) => upper(w[0][0]) + upper(w[w.length - 1][0]) + lower(w[w.length - 1][1]),
    (w) => upper(w[0][0]) + lower(w[0][1]) + upper(w[w.length - 1][0]),
  ];
  const out = new Map();
  for (const [label, group] of groups) {
    const words = group.map((p) => nameWords(shownName(p)));
    const scheme = group.length > 1 && words.every((w) => w.length > 1)
      ? schemes.find((f) => new Set(words.map(f)).size === group.length) : null;
    const ids = group.map((p) => p.id).sort();
    group.forEach((p, i) => out.set(p.id, group.length === 1 ? label
      : scheme ? scheme(words[i]) : label + (ids.indexOf(p.id) + 1)));
  }
  return out;
}

// Whether the page's fonts can draw a text. A glyph the fonts lack is drawn as the font's
// "missing glyph" box (or as nothing); a private-use code point that no font draws gives that
// box, so a code point whose pixels equal it, or that draws no pixel, is missing.
const MISSING = "\u{10FFFD}";
const JOINERS = new Set([0x200d, 0xfe0e, 0xfe0f]); // ZWJ and variation selectors draw nothing alone
const drawable = new Map();
let probe = null;

function pixels(ch) {
  const { ctx, size } = probe;
  ctx.clearRect(0, 0, size, size);
  ctx.fillText(ch, size / 2, size / 2);
  return ctx.getImageData(0, 0, size, size).data;
}

function draws(ch) {
  if (!probe) {
    const size = 48;
    const canvas = Object.assign(document.createElement("canvas"), { width: size, height: size });
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    ctx.font = `28px ${getComputedStyle(document.body).fontFamily || "sans-serif"}`;
    ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillStyle = "#000";
    probe = { ctx, size };
    probe.missing = pixels(MISSING);
  }
  const got = pixels(ch);
  let blank = true, same = true;
  for (let i = 3; i < got.length; i += 4) {
    if (got[i]) blank = false;
    if (got[i] !== probe.missing[i]) same = false;
  }
  return !blank && !same;
}

/** Whether the page's fonts draw every character of `text` (white space always counts as drawn). */
export function canDraw(text) {
  for (const ch of String(text || "")) {
    const code = ch.codePointAt(0);
    if (/\s/.test(ch) || JOINERS.has(code) || code < 0x80) continue;
    if (!drawable.has(ch)) drawable.set(ch, draws(ch));
    if (!drawable.get(ch)) return false;
  }
  return true;
}

/** A persona's name as the fonts can draw it: the name, or else its id as words ("li_ming" -> "Li Ming"). */
export function shownName(persona) {
  const name = persona.name || persona.id || "";
  if (canDraw(name)) return name;
  return String(persona.id || "?").split("_").filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

/** A persona's marker: its emoji when the fonts draw it, else the initials of its drawable name. */
export function markerText(persona) {
  return persona.emoji && canDraw(persona.emoji) ? persona.emoji : initials(shownName(persona));
}

/** An emoji when the fonts draw it, else "" (for labels that also carry text). */
export function shownEmoji(emoji) {
  return emoji && canDraw(emoji) ? emoji : "";
}

/** The last part of a world:sector:arena:object address, with its sector. */
export function place(address) {
  const parts = String(address || "").split(":");
  if (parts.length <= 1) return "the street";
  return parts.slice(1).join(" › ");
}

/**
 * Tabs over panes: `pairs` are [tab button id, pane id]; a click shows that pane and hides the
 * others. Returns show(tab id); onShow(tab id) runs after each switch.
 */
export function tabs(pairs, onShow = () => {}) {
  const show = (which) => {
    for (const [tab, pane] of pairs) {
      const on = tab === which;
      const button = document.getElementById(tab);
      button.classList.toggle("active", on);
      button.setAttribute("aria-selected", String(on));
      document.getElementById(pane).hidden = !on;
    }
    onShow(which);
  };
  for (const [tab] of pairs) document.getElementById(tab).addEventListener("click", () => show(tab));
  return show;
}
