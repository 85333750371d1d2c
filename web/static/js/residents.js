// The clock and the residents list, shared by the live and the replay page.

import { el, fill, gameTime, markerText, personaColor, place, shownEmoji, shownName } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** Show a frame's game time and tick in the header (also as data- attributes for tests). */
export function showClock({ tick, time }) {
  const t = gameTime(time);
  $("clock-day").textContent = t.day;
  $("clock-time").textContent = t.clock;
  $("clock").dataset.tick = tick;
  $("clock").dataset.time = time;
  $("tick").textContent = tick;
}

/** Fill the residents list; clicking a row calls pick(persona id). */
export function personaList(personas, pick) {
  fill($("persona-list"), personas.map((p, i) => el("li", {}, el("button", {
    type: "button", class: "persona-item", id: `persona-item-${p.id}`, data: { persona: p.id },
    onclick: () => pick(p.id),
  }, [
    el("span", { class: "dot", style: { background: personaColor(p.id, i) } }, markerText(p)),
    el("span", { class: "pi-text" }, [el("b", {}, shownName(p)), el("span", { class: "pi-action muted" }, "…")]),
  ]))));
}

/** Fold case and accents, so "jose" finds "José". */
function searchKey(text) {
  return String(text || "").normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();
}

/**
 * The residents search box: typing shows only the rows whose name (or id) contains the text;
 * Enter opens the resident whose name is the text, else the first one shown (calls pick(id)).
 */
export function personaSearch(input, personas, pick) {
  const rows = personas.map((p) => ({ id: p.id, name: searchKey(p.name || p.id), text: searchKey(`${p.name || ""} ${p.id}`) }));
  const matches = () => {
    const q = searchKey(input.value);
    return q ? rows.filter((r) => r.text.includes(q)) : rows;
  };
  input.addEventListener("input", () => {
    const shown = new Set(matches().map((r) => r.id));
    for (const b of document.querySelectorAll(".persona-item")) b.parentElement.hidden = !shown.has(b.dataset.persona);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const q = searchKey(input.value);
    const found = q ? matches() : [];
    const best = found.find((r) => r.name === q) || found[0];
    if (!best) return;
    pick(best.id);
    const item = document.getElementById(`persona-item-${best.id}`);
    if (item) item.scrollIntoView({ block: "nearest" });
  });
}

/** Highlight the selected resident ("" for none). */
export function markList(id) {
  for (const b of document.querySelectorAll(".persona-item")) b.classList.toggle("active", b.dataset.persona === id);
}

/** Residents rows show (and carry in data- attributes) each persona's action and place in the frame
 * (only the rows of the personas in `frame.personas`: a delta touches only what changed). */
export function updateList(frame) {
  for (const [id, p] of Object.entries(frame.personas || {})) {
    const item = document.getElementById(`persona-item-${id}`);
    if (!item) continue;
    Object.assign(item.dataset, { x: p.x, y: p.y, address: p.address || "" });
    item.querySelector(".pi-action").textContent = `${shownEmoji(p.emoji)} ${p.action || ""} · ${place(p.address)}`.trim();
  }
}
