// Per-place crowd counts: how many personas are in each sector of the town (a home, the cafe,
// a street...), kept up to date from the personas that changed and listed busiest first; a
// click on a place shows it on the map. And the list a crowd badge on the map opens.

import { el, fill } from "./dom.js";

const SHOWN = 12;      // places listed
const RENDER_MS = 400; // the list is redrawn at most this often

/** The sector part ("world:sector") of an address, or null off any sector. */
export function sectorOf(address) {
  const parts = String(address || "").split(":");
  return parts.length >= 2 ? parts.slice(0, 2).join(":") : null;
}

export class CrowdCounts {
  /**
   * @param {HTMLElement} list the <ol> to fill
   * @param {object} map TileMap.to_dict() (sector labels)
   * @param {function(string)} onPlace a click on a place (its sector address)
   */
  constructor(list, map, onPlace = () => {}) {
    this.list = list;
    this.onPlace = onPlace;
    this.labels = Object.fromEntries((map.sectors || []).map((s) => [s.address, s.label || s.name]));
    this.where = new Map();  // persona id -> sector address
    this.counts = new Map(); // sector address -> personas there
    this.timer = null;
  }

  /** Take changed personas ({id: entry with address}); `full` replaces everything, `gone` leave. */
  update(personas, { full = false, gone = [] } = {}) {
    if (full) { this.where.clear(); this.counts.clear(); }
    for (const id of gone) this.move(id, null);
    for (const [id, p] of Object.entries(personas)) this.move(id, sectorOf(p.address));
    if (!this.timer) this.timer = setTimeout(() => { this.timer = null; this.render(); }, full ? 0 : RENDER_MS);
  }

  move(id, sector) {
    const before = this.where.get(id) || null;
    if (before === sector) return;
    if (before) {
      const n = this.counts.get(before) - 1;
      if (n) this.counts.set(before, n); else this.counts.delete(before);
    }
    if (sector) { this.where.set(id, sector); this.counts.set(sector, (this.counts.get(sector) || 0) + 1); }
    else this.where.delete(id);
  }

  /** The busiest places: [{address, label, count}], by count then label. */
  top(n = SHOWN) {
    const label = (a) => this.labels[a] || a.split(":").pop();
    return [...this.counts].map(([address, count]) => ({ address, label: label(address), count }))
      .sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)).slice(0, n);
  }

  render() {
    const rows = this.top();
    fill(this.list, rows.length ? rows.map((r) => el("li", { class: "crowd", data: { place: r.address, count: r.count },
      title: "show this place on the map", onclick: () => this.onPlace(r.address) }, [
      el("span", { class: "crowd-place" }, r.label), el("b", { class: "crowd-count" }, String(r.count))]))
      : el("li", { class: "muted" }, "nobody is in a place yet"));
    const more = this.counts.size - rows.length;
    this.list.dataset.places = this.counts.size;
    if (more > 0) this.list.append(el("li", { class: "muted small" }, `…and ${more} more places`));
  }
}

/**
 * The list a crowd badge opens (#crowd-pop, over the map): the people in its places, drawn or
 * not, and the conversations among them.
 * @param {HTMLElement} pop the popover
 * @param {{ids: string[], places: Array<?string>, x: number, y: number, h: number}} badge a map badge
 * @param {object} state the map's state: id -> {address, conversation, action}
 * @param {{title: string, nameOf: function(string): string, onPick: function(string), onConversation: function(number)}} options
 */
export function showCrowd(pop, badge, state, { title, nameOf, onPick, onConversation }) {
  const places = badge.places.filter(Boolean);
  const inPlace = (p) => places.some((key) => p.address === key || String(p.address || "").startsWith(`${key}:`));
  const ids = Object.keys(state).filter((id) => badge.ids.includes(id) || (places.length && inPlace(state[id])));
  const talks = new Map();
  for (const id of ids) {
    const cid = state[id].conversation;
    if (cid === null || cid === undefined) continue;
    if (!talks.has(cid)) talks.set(cid, Object.keys(state).filter((other) => state[other].conversation === cid));
  }
  const close = el("button", { type: "button", class: "close", "aria-label": "Close", onclick: () => { pop.hidden = true; } }, "×");
  fill(pop, [close, el("h3", {}, title),
    el("p", { class: "muted small" }, `${ids.length} here, ${badge.ids.length} of them not drawn at this zoom`),
    el("h4", {}, `Conversations (${talks.size})`),
    talks.size ? el("ul", { class: "crowd-talks" }, [...talks].map(([cid, who]) => el("li", {}, el("button", {
      type: "button", class: "link-button", data: { conversation: cid }, onclick: () => { pop.hidden = true; onConversation(cid); },
    }, who.map(nameOf).join(" & "))))) : el("p", { class: "muted small" }, "nobody here is talking"),
    el("h4", {}, "People"),
    el("ul", { class: "crowd-people" }, ids.sort((a, b) => nameOf(a).localeCompare(nameOf(b))).map((id) => el("li", {}, el("button", {
      type: "button", class: "link-button", data: { persona: id }, onclick: () => { pop.hidden = true; onPick(id); },
    }, `${nameOf(id)}${state[id].action ? ` — ${state[id].action}` : ""}`)))),
  ]);
  pop.style.left = `${Math.max(8, badge.x - 20)}px`;
  pop.style.top = `${badge.y + badge.h + 6}px`;
  pop.hidden = false;
}
