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

/** Highlight the selected resident ("" for none). */
export function markList(id) {
  for (const b of document.querySelectorAll(".persona-item")) b.classList.toggle("active", b.dataset.persona === id);
}

/** Residents rows show (and carry in data- attributes) each persona's action and place in the frame. */
export function updateList(frame) {
  for (const [id, p] of Object.entries(frame.personas || {})) {
    const item = document.getElementById(`persona-item-${id}`);
    if (!item) continue;
    Object.assign(item.dataset, { x: p.x, y: p.y, address: p.address || "" });
    item.querySelector(".pi-action").textContent = `${shownEmoji(p.emoji)} ${p.action || ""} · ${place(p.address)}`.trim();
  }
}
