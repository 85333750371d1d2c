// Join the town: a player walks with the arrow keys (or a click on a tile) and talks to the
// persona next to it. Every action is a POST the server runs between two ticks; the persona's
// answer comes back like any chat line (speech bubble, "Around town").

import { postJSON } from "./api.js";
import { el } from "./dom.js";

const REACH = 2; // tiles in x and y within which the player can talk (town.player.TALK_REACH)
const KEYS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

export class Player {
  /**
   * @param {HTMLElement} wrap the map's container (the talk bar goes at its bottom)
   * @param {import("./map.js").TownMap} map
   * @param {Object<string, string>} names persona id -> name
   * @param {{notice: function(string)}} options
   */
  constructor(wrap, map, names, { notice }) {
    this.map = map;
    this.names = names;
    this.notice = notice;
    this.id = "";
    this.bar = el("form", { id: "player-bar", class: "player-bar", hidden: true });
    this.to = el("span", { id: "player-to", class: "player-to" }, "");
    this.input = el("input", { id: "player-line", type: "text", maxlength: "300", autocomplete: "off",
      placeholder: "walk up to someone (arrow keys or click a tile)" });
    this.send = el("button", { id: "player-say", type: "submit" }, "Say");
    this.bar.append(this.to, this.input, this.send);
    wrap.append(this.bar);
    this.bar.addEventListener("submit", (e) => { e.preventDefault(); this.say(); });
    document.addEventListener("keydown", (e) => this.key(e));
    setInterval(() => this.refresh(), 300);
  }

  /** Become the player `identity` ({id, name, ...}), standing at `at` ({x, y}) until a frame says more. */
  become(identity, at) {
    this.id = identity.id;
    this.names[identity.id] = identity.name;
    this.map.addPersona({ ...identity, color: "#f4d35e" });
    if (at && !this.map.state[identity.id]) this.map.setFrame({ personas: { [identity.id]: { ...at, action: "looking around", kind: "do" } } }, false);
    this.bar.hidden = false;
    this.refresh();
  }

  /** Join with a name (the "Join" button). */
  async join(name) {
    try {
      const body = await postJSON("/api/player", { name });
      this.become(body.player, body.at);
    } catch (err) { this.notice(err.message); }
  }

  here() { return this.map.state[this.id]; }

  /** The persona to talk to: the one in the conversation, else the nearest within reach. */
  target() {
    const me = this.here();
    if (!me) return "";
    if (me.conversation) {
      const other = Object.entries(this.map.state).find(([id, p]) => id !== this.id && p.conversation === me.conversation);
      if (other) return other[0];
    }
    let best = "", bestD = Infinity;
    for (const [id, p] of Object.entries(this.map.state)) {
      if (id === this.id) continue;
      const d = Math.max(Math.abs(p.x - me.x), Math.abs(p.y - me.y));
      if (d <= REACH && d < bestD) { best = id; bestD = d; }
    }
    return best;
  }

  refresh() {
    if (!this.id) return;
    const to = this.target();
    this.to.textContent = to ? `Say to ${this.names[to] || to}:` : "Nobody near";
    this.to.dataset.to = to;
    this.input.disabled = !to;
    this.send.disabled = !to;
    if (to) this.input.placeholder = "type a line and press Enter";
  }

  async go(x, y) {
    if (!this.id) return;
    try { await postJSON("/api/player/move", { x, y }); } catch (err) { this.notice(err.message); }
  }

  key(event) {
    const step = KEYS[event.key];
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement
      || event.target instanceof HTMLSelectElement;
    if (!this.id || !step || typing) return;
    event.preventDefault();
    const me = this.here();
    if (me) this.go(me.x + step[0], me.y + step[1]);
  }

  async say() {
    const to = this.target(), text = this.input.value.trim();
    if (!to || !text) return;
    try {
      await postJSON("/api/player/say", { text, to });
      this.input.value = "";
    } catch (err) { this.notice(err.message); }
  }
}
