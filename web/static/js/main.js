// The live page: loads the town, connects to the Socket.IO feed (frames, activity, status),
// and wires the controls, the persona list, the persona panel and the retrieval inspector.

import { getJSON, postJSON, token, withQuery } from "./api.js";
import { el, fill, gameTime, shownName } from "./dom.js";
import { Inspector } from "./inspector.js";
import { markList, personaList, personaSearch, showClock, updateList } from "./residents.js";
import { CrowdCounts } from "./crowds.js";
import { FrameState } from "./frames.js";
import { TownMap } from "./map.js";
import { PersonaPanel } from "./persona_panel.js";
import { renderLibrary } from "./procedures.js";
import { Controls } from "./controls.js";
import { Player } from "./player.js";

const $ = (id) => document.getElementById(id);
const MAX_ACTIVITY = 60;

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

  const inspector = new Inspector($("inspector"));
  let map;
  const enc = encodeURIComponent;
  const panel = new PersonaPanel($("persona-panel"), {
    url: (id) => `/api/personas/${enc(id)}`,
    procedures: async (id) => {
      const libs = await getJSON("/api/procedures");
      return { threshold: libs.threshold, procedures: libs.libraries[id] || [] };
    },
    interview: (id, q) => getJSON(withQuery(`/api/personas/${enc(id)}/interview`, { q })),
    whisper: (id, text) => postJSON(`/api/personas/${enc(id)}/whisper`, { text }),
    poll: true,
    onRetrieval: (seq) => inspector.open(seq),
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
  const pick = (id) => { map.setSelected(id); panel.open(id); markList(id); };
  const players = new Set(town.players || []);
  const residents = town.personas.filter((p) => !players.has(p.id));
  let player = null;
  map = new TownMap($("map"), town.map, [...residents], { onPick: pick, tip: $("map-tip"), onTile: (x, y) => player.go(x, y) });
  player = new Player($("map-wrap"), map, names, { notice });
  const joined = town.personas.find((p) => players.has(p.id));
  if (joined) { player.become(joined); $("join").hidden = true; }
  $("join").addEventListener("submit", async (e) => {
    e.preventDefault();
    await player.join($("join-name").value);
    if (player.id) $("join").hidden = true;
  });
  personaList(residents, pick);
  personaSearch($("persona-search"), residents, pick);
  const crowds = new CrowdCounts($("crowds"), town.map);
  const follow = $("follow");
  for (const p of residents) follow.append(el("option", { value: p.id }, shownName(p)));
  follow.addEventListener("change", () => { map.setFollow(follow.value); if (follow.value) pick(follow.value); });

  const socket = io({ auth: token ? { token } : {}, transports: ["websocket"] });
  const controls = new Controls(socket, {
    onSpeed: (speed) => map.setSpeed(speed),
    onError: (message) => notice(message),
  });
  controls.showStatus(town.status);
  map.setSpeed(town.status.speed);
  showClock({ tick: town.tick, time: town.time });

  socket.on("hello", (hello) => {
    controls.setAllowed(hello.control);
    if (hello.status) controls.showStatus(hello.status);
    $("model-calls").textContent = hello.model_calls;
  });
  // frames come whole, then as deltas: only the personas that changed are touched
  const frames = new FrameState();
  window.townFrames = frames; // the whole current frame, for tests and the browser console
  socket.on("frame", (message, ack) => {
    if (typeof ack === "function") ack();
    const frame = frames.apply(message);
    if (!frame) { socket.emit("resync"); return; }
    map.setFrame(frame);
    showClock(frame);
    updateList(frame);
    crowds.update(frame.personas, frame);
  });
  socket.on("status", (status) => controls.showStatus(status));
  socket.on("activity", (batch) => {
    $("model-calls").textContent = batch.model_calls;
    for (const item of batch.items) addActivity(item, names, (seq) => inspector.open(seq));
  });
  socket.on("control_error", (e) => notice(e.error));
  socket.on("connect_error", (e) => notice(`connection refused: ${e.message}`));
  socket.on("disconnect", () => controls.showStatus({ state: "disconnected" }));
}

function addActivity(item, names, openRetrieval) {
  const who = names[item.persona] || item.persona || "town";
  let text = null;
  let onclick;
  if (item.kind === "chat") text = `${names[item.speaker] || item.speaker || who} → ${names[item.listener] || item.listener || "?"}: “${item.line}”`;
  else if (item.kind === "conversation" && item.summary) text = `${who}: conversation ended — ${item.summary}`;
  else if (item.kind === "reflection") text = `${who} reflected`;
  else if (item.kind === "procedure") {
    const last = $("activity").firstChild;
    if (item.op === "save" && item.library === "town" && last && last.dataset.saved === `${item.persona}@${item.tick}`) {
      // the same lesson, anonymised for the town library: one line for both saves
      last.querySelector(".content").textContent += `; shared with the town as “${item.name}”`;
      delete last.dataset.saved;
      return;
    }
    text = procedureText(item, who);
  }
  else if (item.kind === "scenario" || item.kind === "whisper") text = `${item.kind}: ${item.text || item.summary || ""}`;
  else if (item.kind === "status") text = `runner ${item.state}${item.reason ? ` (${item.reason})` : ""}`;
  else if (item.kind === "retrieval" && item.purpose !== "act") {
    text = `${who} recalled for ${item.purpose}: “${item.query}”`;
    onclick = () => openRetrieval(item.seq);
  }
  if (!text) return;
  const list = $("activity");
  const t = gameTime(item.time).clock.slice(0, 5);
  const saved = item.kind === "procedure" && item.op === "save" && item.library !== "town" ? { saved: `${item.persona}@${item.tick}` } : {};
  list.prepend(el("li", { class: `act act-${item.kind}${onclick ? " clickable" : ""}`, data: { seq: item.seq, ...saved }, onclick },
    [el("span", { class: "when" }, t), el("span", { class: "content" }, text)]));
  while (list.children.length > MAX_ACTIVITY) list.lastChild.remove();
}

/** One feed line for a procedure event, naming the library it is about. */
function procedureText(item, who) {
  const lib = item.library === "town" ? "the town library" : "own library";
  const name = `“${item.name}”`;
  if (item.op === "save" && item.library === "town") return `${who} shared ${name} with the town`;
  if (item.op === "save") return `${who} learned ${name}${item.merged ? " (merged with a similar one)" : ""}`;
  const part = item.via ? ` as part of “${item.via}”` : "";
  if (item.op === "use") return `${who} follows ${name} from ${lib}${part}`;
  if (item.op === "outcome") return `${who}: ${name} from ${lib}${part} — ${item.result}`;
  if (item.op === "deviation") return `${who} did not follow ${name} from ${lib}: ${item.reason}`;
  if (item.op === "prune") return `${name} was dropped from ${item.library === "town" ? "the town library" : `${who}'s library`}`;
  return `${who}: procedure ${item.op} ${name} (${lib})`;
}

function notice(message) {
  const box = $("notice");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

boot();
