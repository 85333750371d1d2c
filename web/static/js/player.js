// Joining the town: each browser tab may play its own player, with its own name and colour. The
// join answers a secret that only this tab keeps (sessionStorage) and sends with every move and
// line, and on its Socket.IO connection (so the server knows the tab is open: a closed tab's
// player leaves after a grace period, web/players.py). A player walks with the arrow keys (or a
// click on a tile) and talks to the persona next to it; the lines said to it show in its talk bar.
// A tile it cannot walk to gets a short note on the map, never an HTTP error. Moves and lines are
// inputs: the request answers once queued, and a refusal comes back as an `input` activity item.
// When the player's conversation ends and the player did not walk off, the bar says who ended it:
// the partner left (or was pulled away), or the player did, by a goodbye (the CONVERSATION event's
// `ended_by`, town/simulation/players.py). While the player talks the runner slows to a pace one can type at (its talk pace, on by
// default: town/runner); the bar says so and its checkbox turns it off or on for the run.

import { getJSON, postJSON } from "./api.js";
import { el, fill } from "./dom.js";
import { typing } from "./view.js";

const REACH = 2; // tiles in x and y within which the player can talk (town.player.TALK_REACH)
const KEYS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
const STORE = "town-player"; // sessionStorage: {secret} of this tab's player
const HEARD = 4; // lines of the current conversation shown above the talk bar

/** This tab's player secret: from the URL (`serve --player` prints it; then dropped from the
 * address bar) or from this tab's storage. */
export function storedSecret() {
  const url = new URL(window.location.href);
  const given = url.searchParams.get("player");
  if (given) {
    sessionStorage.setItem(STORE, JSON.stringify({ secret: given }));
    url.searchParams.delete("player");
    history.replaceState(null, "", url);
  }
  try { return JSON.parse(sessionStorage.getItem(STORE) || "{}").secret || null; } catch { return null; }
}

export class Player {
  /**
   * @param {HTMLElement} wrap the map's container (the talk bar goes at its bottom)
   * @param {import("./map.js").TownMap} map
   * @param {Object<string, string>} names persona id -> name
   * @param {{notice: function(string), socket: object, onJoined: function(?string), onConversation: function(number),
   *   onPace: function(boolean)}} options
   */
  constructor(wrap, map, names, { notice, socket, onJoined, onConversation, onPace }) {
    this.map = map;
    this.names = names;
    this.notice = notice;
    this.socket = socket;
    this.onJoined = onJoined;
    this.onConversation = onConversation;
    this.id = "";
    this.secret = storedSecret();
    this.lines = []; // chat items of the conversation this player is in
    this.partner = ""; // who the player talks with now, to say when they leave
    this.talk = 0; // the conversation the player is (or was last) in
    this.over = null; // {talk, partner}: a talk the frames show over, told once its end is known
    this.endedBy = new Map(); // conversation id -> who ended it (its CONVERSATION activity item)
    this.slowedNow = false; // the runner's status: slowed as a player talks
    this.bar = el("form", { id: "player-bar", class: "player-bar", hidden: true });
    this.heardList = el("ol", { id: "player-heard", class: "player-heard" });
    this.to = el("span", { id: "player-to", class: "player-to" }, "");
    this.input = el("input", { id: "player-line", type: "text", maxlength: "300", autocomplete: "off",
      placeholder: "walk up to someone (arrow keys or click a tile)" });
    this.send = el("button", { id: "player-say", type: "submit" }, "Say");
    this.left = el("p", { id: "player-left", class: "player-left", hidden: true }, "");
    this.paceOn = el("input", { id: "talk-pace", type: "checkbox", checked: true,
      onchange: () => onPace(this.paceOn.checked) });
    this.slowed = el("span", { id: "talk-slowed", class: "talk-slowed", hidden: true }, "slowed while you talk");
    const pace = el("label", { class: "talk-pace", title: "While you talk, the town goes at one tick a second" },
      [this.paceOn, " slow the town while I talk"]);
    this.bar.append(this.heardList, this.left,
      el("div", { class: "player-talk" }, [this.to, this.input, this.send, this.slowed, pace]));
    wrap.append(this.bar);
    this.bar.addEventListener("submit", (e) => { e.preventDefault(); this.say(); });
    document.addEventListener("keydown", (e) => this.key(e));
    setInterval(() => this.refresh(), 300);
  }

  /** Headers that say which player this tab plays. */
  headers() { return this.secret ? { "X-Player-Secret": this.secret } : {}; }

  /** The connection's hello named the player this tab plays (or none: it left, or never joined). */
  async greeted(pid) {
    if (!pid) {
      if (this.secret) sessionStorage.removeItem(STORE);
      this.secret = null;
      if (this.id) this.leave();
      this.onJoined(null);
      return;
    }
    const { players } = await getJSON("/api/players");
    const me = players.find((p) => p.id === pid);
    if (me) this.become(me);
  }

  /** Become the player `identity` ({id, name, color}), standing at `at` ({x, y}) until a frame says more. */
  become(identity, at) {
    this.id = identity.id;
    this.names[identity.id] = identity.name;
    this.map.addPersona({ ...identity, player: true, mine: true });
    if (at && !this.map.state[identity.id]) this.map.setFrame({ personas: { [identity.id]: { ...at, action: "looking around", kind: "do" } } }, false);
    this.bar.hidden = false;
    this.onJoined(identity);
    this.refresh();
  }

  leave() {
    this.id = "";
    this.bar.hidden = true;
  }

  /** Join with a name and colour (the "Join" button). */
  async join(name, color) {
    try {
      const body = await postJSON("/api/player", { name, color });
      this.secret = body.secret;
      sessionStorage.setItem(STORE, JSON.stringify({ secret: body.secret }));
      this.socket.emit("player", body.secret);
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
      if (id === this.id || this.map.who(id).player) continue;
      const d = Math.max(Math.abs(p.x - me.x), Math.abs(p.y - me.y));
      if (d <= REACH && d < bestD) { best = id; bestD = d; }
    }
    return best;
  }

  /** The runner's status: whether it slows while a player talks, and whether it does now. */
  paced(status) {
    if (!("talk_pace" in status)) return;
    this.paceOn.checked = status.talk_pace;
    this.slowedNow = status.slowed;
    this.refresh();
  }

  /** Follow the player's conversation in the frames: one that ends while the player stands (it
   * did not walk off) is told in the bar once its end is known (:meth:`tellEnd`). */
  followTalk(me) {
    const partner = me && me.conversation ? this.target() : "";
    if (partner) {
      this.left.hidden = true;
      this.talk = me.conversation;
      this.over = null;
    } else if (this.partner && me && me.kind !== "walk") {
      this.over = { talk: this.talk, partner: this.partner };
      this.tellEnd();
    }
    this.partner = partner;
  }

  /** A conversation ended (activity): who ended it, for the bar. */
  ended(item) {
    if (!this.id || !(item.participants || []).includes(this.id)) return;
    this.endedBy.set(item.conversation, item.ended_by || "");
    this.tellEnd();
  }

  /** Say in the bar how the talk the frames show over ended, once its CONVERSATION item is in:
   * "Klaus Mueller left the conversation." (he left, or was pulled away), or "You ended the
   * conversation with Klaus Mueller." (the player's goodbye). */
  tellEnd() {
    if (!this.over || !this.endedBy.has(this.over.talk)) return;
    const name = this.names[this.over.partner] || this.over.partner;
    this.left.textContent = this.endedBy.get(this.over.talk) === this.id
      ? `You ended the conversation with ${name}.` : `${name} left the conversation.`;
    this.left.hidden = false;
    this.over = null;
  }

  refresh() {
    if (!this.id) return;
    this.followTalk(this.here());
    this.slowed.hidden = !(this.slowedNow && this.partner); // another tab's player may be the one talking
    const to = this.target();
    this.to.textContent = to ? `Say to ${this.names[to] || to}:` : "Nobody near";
    this.to.dataset.to = to;
    this.input.disabled = !to;
    this.send.disabled = !to;
    if (to) this.input.placeholder = "type a line and press Enter";
    const me = this.here();
    const now = me && me.conversation;
    const shown = this.lines.filter((l) => l.conversation === now).slice(-HEARD);
    if (this.heardList.dataset.shown !== shown.map((l) => l.seq).join(",")) {
      this.heardList.dataset.shown = shown.map((l) => l.seq).join(",");
      fill(this.heardList, shown.map((l) => el("li", { class: l.speaker === this.id ? "mine" : "theirs", data: { seq: l.seq } }, [
        el("b", {}, `${l.speaker === this.id ? "You" : this.names[l.speaker] || l.speaker}: `), l.line])));
      if (shown.length) {
        this.heardList.append(el("li", { class: "small" }, el("button", { type: "button", class: "link-button",
          onclick: () => this.onConversation(now) }, "the whole conversation")));
      }
    }
  }

  /** A chat line said (activity): kept when this player said it or was told it. */
  heard(item) {
    if (!this.id || item.kind !== "chat" || (item.speaker !== this.id && item.listener !== this.id)) return;
    this.lines = [...this.lines.filter((l) => l.seq !== item.seq), item].slice(-50);
    this.refresh();
  }

  /** An input applied by the town (activity): this player's refused move or line gets a note. */
  applied(item) {
    if (!this.id || item.persona !== this.id || item.ok !== false || !item.input) return;
    const { kind, x, y } = item.input;
    if (kind === "move") this.map.note(x, y, /reached/.test(item.error) ? "No way there from here" : "You can't walk there");
    else this.notice(item.error);
  }

  /** Walk to tile (x, y): a tile the map shows as a wall, a tree or water gets a note at once. */
  async go(x, y) {
    if (!this.id) return;
    const row = this.map.map.collision[y];
    if (!row || x < 0 || x >= row.length || row[x] === "#") { this.map.note(x, y, "You can't walk there"); return; }
    try {
      const reply = await postJSON("/api/player/move", { x, y }, this.headers());
      if (!reply.ok) this.map.note(x, y, /reached/.test(reply.blocked) ? "No way there from here" : "You can't walk there");
    } catch (err) { this.notice(err.message); }
  }

  key(event) {
    const step = KEYS[event.key];
    if (!this.id || !step || typing(event)) return;
    event.preventDefault();
    const me = this.here();
    if (me) this.go(me.x + step[0], me.y + step[1]);
  }

  async say() {
    const to = this.target(), text = this.input.value.trim();
    if (!to || !text) return;
    try {
      await postJSON("/api/player/say", { text, to }, this.headers());
      this.input.value = "";
    } catch (err) { this.notice(err.message); }
  }
}
