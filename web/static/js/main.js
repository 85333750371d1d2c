// The live page: loads the town, connects to the Socket.IO feed (frames, activity, status),
// and wires the controls, the persona list, the persona panel, the conversations, the feed, the
// player and the retrieval inspector.

import { applied, getJSON, postJSON, token, withQuery } from "./api.js";
import { el, fill, shownName, tabs } from "./dom.js";
import { Inspector } from "./inspector.js";
import { markList, personaList, personaSearch, showClock, updateList } from "./residents.js";
import { CrowdCounts, showCrowd } from "./crowds.js";
import { placeName, placeRect } from "./crowding.js";
import { Conversations } from "./conversations.js";
import { Feed } from "./feed.js";
import { FrameState } from "./frames.js";
import { TownMap } from "./map.js";
import { PersonaPanel } from "./persona_panel.js";
import { renderLibrary } from "./procedures.js";
import { Controls } from "./controls.js";
import { Player, storedSecret } from "./player.js";

const $ = (id) => document.getElementById(id);

/** A persona's or player's name; a player who left shows as its id in words ("player-ada" -> "Ada"). */
function namer(names) {
  return (id) => names[id] || (String(id || "").startsWith("player-")
    ? String(id).slice(7).split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ") : id || "?");
}

async function boot() {
  let town;
  try {
    town = await getJSON("/api/town");
  } catch (err) {
    notice(`No live town: ${err.message}`);
    return;
  }
  document.title = `${town.name} · live`;
  $("town-name").textContent = town.name;
  const names = Object.fromEntries(town.personas.map((p) => [p.id, shownName(p)]));
  const nameOf = namer(names);

  const inspector = new Inspector($("inspector"));
  let map, conversations;
  const enc = encodeURIComponent;
  const panel = new PersonaPanel($("persona-panel"), {
    url: (id) => `/api/personas/${enc(id)}`,
    procedures: async (id) => {
      const libs = await getJSON("/api/procedures");
      return { threshold: libs.threshold, procedures: libs.libraries[id] || [] };
    },
    interview: (id, q) => getJSON(withQuery(`/api/personas/${enc(id)}/interview`, { q })),
    whisper: async (id, text) => applied((await postJSON(`/api/personas/${enc(id)}/whisper`, { text })).input),
    conversations: (id) => getJSON(withQuery("/api/conversations", { persona: id, limit: 5 })),
    nameOf,
    poll: true,
    onRetrieval: (seq) => inspector.open(seq),
    onConversation: (cid) => conversations.open(cid),
    onClose: () => map.setSelected(""),
  });
  $("open-town-library").addEventListener("click", async () => {
    $("library").hidden = false;
    const libs = await getJSON("/api/procedures").catch((err) => ({ error: err.message }));
    if (libs.error) { fill($("library-body"), el("p", { class: "error" }, libs.error)); return; }
    const box = el("div", { id: "town-library" });
    fill($("library-body"), [el("h2", {}, "Town procedure library"),
      el("p", { class: "muted small" }, `Shared, anonymised procedures. Retrieved only at reliability ≥ ${libs.threshold}.`), box]);
    renderLibrary(box, libs.libraries.town || [], { threshold: libs.threshold, empty: "the town has no shared procedures yet" });
  });
  $("library-close").addEventListener("click", () => { $("library").hidden = true; });
  const pick = (id) => {
    if (!(id in map.state) && !names[id]) return;
    $("conversation-panel").hidden = true;
    map.setSelected(id); panel.open(id); markList(id);
  };
  const players = new Set(town.players || []);
  const residents = town.personas.filter((p) => !players.has(p.id));
  const follow = $("follow");
  let player = null;
  map = new TownMap($("map"), town.map, [...residents], {
    onPick: pick, tip: $("map-tip"), onTile: (x, y) => player.go(x, y),
    onBubble: async (id) => {
      const cid = (map.state[id] && map.state[id].conversation) || await conversations.latestOf(id);
      if (cid) conversations.open(cid);
    },
    onCrowd: (badge) => showCrowd($("crowd-pop"), badge, map.state, {
      title: [...new Set(badge.places.map((p) => placeName(town.map, p)))].join(", "), nameOf, onPick: pick,
      onConversation: (cid) => conversations.open(cid),
    }),
    onFollowEnd: () => { follow.value = ""; },
  });
  conversations = new Conversations($("conversation-list"), $("conversation-panel"), {
    listUrl: (persona) => withQuery("/api/conversations", { persona, limit: persona ? 1 : 60 }),
    oneUrl: (id) => `/api/conversations/${enc(id)}`,
    nameOf, onRetrieval: (seq) => inspector.open(seq), onPick: pick,
  });
  const feed = new Feed($("activity"), $("feed-filters"), nameOf, {
    onRetrieval: (seq) => inspector.open(seq), onConversation: (cid) => conversations.open(cid),
  });
  tabs([["tab-feed", "feed-pane"], ["tab-conversations", "conversation-list"]],
    (which) => { if (which === "tab-conversations") conversations.refresh(); });

  personaList(residents, pick);
  personaSearch($("persona-search"), residents, pick);
  const crowds = new CrowdCounts($("crowds"), town.map, (address) => { const r = placeRect(town.map, address); if (r) map.camera.show(r); });
  for (const p of residents) follow.append(el("option", { value: p.id }, shownName(p)));
  follow.addEventListener("change", () => { map.setFollow(follow.value); if (follow.value) pick(follow.value); });

  const secret = storedSecret();
  const socket = io({ auth: { ...(token ? { token } : {}), ...(secret ? { player: secret } : {}) }, transports: ["websocket"] });
  player = new Player($("map-wrap"), map, names, {
    notice, socket, onConversation: (cid) => conversations.open(cid),
    onPace: (on) => controls.send("talk_pace", on ? "on" : "off"),
    onJoined: (me) => {
      $("join").hidden = Boolean(me);
      $("playing").hidden = !me;
      if (me) fill($("playing"), [el("i", { class: "swatch", style: { background: me.color } }), `you are ${me.name}`]);
    },
  });
  $("join").addEventListener("submit", async (e) => {
    e.preventDefault();
    await player.join($("join-name").value, $("join-color").value);
  });
  const meet = async () => { // players of other tabs: their names and colours
    const { players: list } = await getJSON("/api/players").catch(() => ({ players: [] }));
    const taken = new Set(list.map((p) => p.color));
    for (const p of list) { names[p.id] = p.name; map.addPersona({ ...p, player: true, mine: p.id === player.id }); }
    if (!player.id) $("join-color").value = ["#f4d35e", "#ee6c4d", "#5fa8d3", "#8ac926", "#c77dff"].find((c) => !taken.has(c)) || "#f4d35e";
  };
  meet();
  const controls = new Controls(socket, {
    onSpeed: (speed) => map.setSpeed(speed),
    onError: (message) => notice(message),
    onStatus: (status) => player.paced(status),
  });
  controls.showStatus(town.status);
  map.setSpeed(town.status.speed);
  showClock({ tick: town.tick, time: town.time });

  let greeted = false;
  socket.on("hello", (hello) => {
    controls.setAllowed(hello.control);
    if (hello.status) controls.showStatus(hello.status);
    $("model-calls").textContent = hello.model_calls;
    if (secret && !greeted) { greeted = true; player.greeted(hello.player); } // this tab's player, after a reload
  });
  socket.on("connect", () => { // a reconnection: the tab is open again (or its player has left)
    if (player.secret && player.id) socket.emit("player", player.secret, (reply) => { if (!reply.ok) player.greeted(null); });
  });
  // frames come whole, then as deltas: only the personas that changed are touched
  const frames = new FrameState();
  window.townFrames = frames; // the whole current frame, for tests and the browser console
  socket.on("frame", (message, ack) => {
    if (typeof ack === "function") ack();
    const frame = frames.apply(message);
    if (!frame) { socket.emit("resync"); return; }
    if (Object.keys(frame.personas).some((id) => !(id in names))) meet();
    for (const id of frame.gone) if (map.who(id).player) map.removePersona(id);
    map.setFrame(frame);
    showClock(frame);
    updateList(frame);
    crowds.update(frame.personas, frame);
  });
  socket.on("status", (status) => controls.showStatus(status));
  socket.on("activity", (batch) => {
    $("model-calls").textContent = batch.model_calls;
    feed.add(batch.items);
    for (const item of batch.items) {
      if (item.kind === "chat") { conversations.heard(item); player.heard(item); }
      if (item.kind === "input") player.applied(item);
      if (item.kind === "conversation") player.ended(item);
    }
    if (batch.items.some((i) => i.kind === "conversation" || i.kind === "chat")) conversations.dirty = true;
  });
  socket.on("control_error", (e) => notice(e.error));
  socket.on("connect_error", (e) => notice(`connection refused: ${e.message}`));
  socket.on("disconnect", () => controls.showStatus({ state: "disconnected" }));
  // a page opened mid-run starts with the last game hour of the feed
  getJSON("/api/feed").then((body) => feed.add(body.items)).catch(() => {});
  setInterval(() => {
    if (conversations.dirty && !$("conversation-list").hidden) { conversations.dirty = false; conversations.refresh(); }
    else if (conversations.dirty && conversations.id !== null) { conversations.dirty = false; conversations.load(); }
  }, 1500);
}

function notice(message) {
  const box = $("notice");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

boot();
