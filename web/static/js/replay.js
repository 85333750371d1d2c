// The replay page: the live page's map and panels driven by a run file through the JSON API
// (/api/runs/<name>/...): a timeline scrubber over ticks, play/pause/speed, jump to a game time
// or to the next/previous conversation or reflection, the persona panel and the retrieval list as
// of the scrubbed tick, the retrieval inspector with the weight lab, the town procedure library,
// the evaluation charts and the interview battery. The position is kept in the URL (#t=<tick>&p=<persona>).

import { getJSON, postJSON, withQuery } from "./api.js";
import { el, fill, gameTime, hhmm, shownName, tabs } from "./dom.js";
import { noBattery, renderBattery } from "./battery.js";
import { renderEvaluation } from "./charts.js";
import { Inspector } from "./inspector.js";
import { markList, personaList, personaSearch, showClock, updateList } from "./residents.js";
import { CrowdCounts, showCrowd } from "./crowds.js";
import { placeName, placeRect } from "./crowding.js";
import { Conversations } from "./conversations.js";
import { TownMap } from "./map.js";
import { PersonaPanel } from "./persona_panel.js";
import { renderLibrary } from "./procedures.js";

const $ = (id) => document.getElementById(id);
const RUN = document.body.dataset.run;
const BASE = `/api/runs/${encodeURIComponent(RUN)}`;
const SETTLE_MS = 250;
const BATCH = 120;
const CACHE_MAX = 6000;

/** Frames by tick, fetched one at a time for seeks and in batches ahead of playback. */
class FrameStore {
  constructor(first, last) {
    this.first = first;
    this.last = last;
    this.frames = new Map();
    this.pending = new Map();
  }

  has(tick) { return this.frames.has(tick); }
  get(tick) { return this.frames.get(tick); }

  put(frame) {
    if (this.frames.size >= CACHE_MAX) this.frames.delete(this.frames.keys().next().value);
    this.frames.set(frame.tick, frame);
  }

  async one(tick) {
    if (this.frames.has(tick)) return this.frames.get(tick);
    const frame = await getJSON(`${BASE}/frames/${tick}`);
    this.put(frame);
    return frame;
  }

  /** Fetch ticks start..start+BATCH-1 unless already there or under way. */
  ahead(start) {
    const s = Math.max(this.first, start);
    if (s > this.last || this.frames.has(s) && this.frames.has(Math.min(this.last, s + BATCH / 2))) return;
    const key = Math.floor(s / BATCH);
    if (this.pending.has(key)) return;
    const end = Math.min(this.last, s + BATCH - 1);
    const job = getJSON(withQuery(`${BASE}/frames`, { start: s, end }))
      .then((body) => body.frames.forEach((f) => this.put(f)))
      .finally(() => this.pending.delete(key));
    this.pending.set(key, job);
  }
}

async function boot() {
  let run;
  try {
    run = await getJSON(BASE);
  } catch (err) {
    notice(`Cannot open this run: ${err.message}`);
    return;
  }
  const start = parseTime(run.start);
  const spt = run.seconds_per_tick;
  const ticksPerHour = Math.round(3600 / spt);
  const names = Object.fromEntries(run.personas.map((p) => [p.id, shownName(p)]));
  document.title = `${run.summary.town || "town"} · replay ${RUN}`;
  const store = new FrameStore(run.first_tick, run.last_tick);
  const state = { tick: run.first_tick, playing: false, speed: Number($("speed").value), pos: run.first_tick };

  const inspector = new Inspector($("inspector"), {
    traceUrl: (seq) => `${BASE}/retrievals/${encodeURIComponent(seq)}`,
    labUrl: (seq, w, k) => withQuery(`${BASE}/retrievals/${encodeURIComponent(seq)}/lab`, { w: w.join(","), k }),
  });
  const procedures = async (tick) => getJSON(withQuery(`${BASE}/procedures`, { tick }));
  const nameOf = (id) => names[id] || id;
  let map, conversations;
  const panel = new PersonaPanel($("persona-panel"), {
    url: (id) => withQuery(`${BASE}/personas/${encodeURIComponent(id)}`, { tick: state.tick }),
    procedures: async (id) => {
      const libs = await procedures(state.tick);
      return { threshold: libs.threshold, procedures: libs.libraries[id] || [] };
    },
    interview: (id, q) => getJSON(withQuery(`${BASE}/personas/${encodeURIComponent(id)}/interview`, { q, tick: state.tick })),
    conversations: (id) => getJSON(withQuery(`${BASE}/conversations`, { tick: state.tick, persona: id, limit: 5 })),
    nameOf,
    poll: false,
    onRetrieval: (seq) => inspector.open(seq),
    onConversation: (cid) => conversations.open(cid),
    onClose: () => { map.setSelected(""); markList(""); saveHash(); },
  });
  const pick = (id) => {
    $("conversation-panel").hidden = true;
    map.setSelected(id); panel.open(id); markList(id);
    $("ret-persona").value = id; $("jump-persona").value = id;
    loadRetrievals(); saveHash();
  };
  map = new TownMap($("map"), run.map, run.personas, {
    onPick: pick, tip: $("map-tip"),
    onBubble: async (id) => { const cid = await conversations.latestOf(id); if (cid) conversations.open(cid); },
    onCrowd: (badge) => showCrowd($("crowd-pop"), badge, map.state, {
      title: [...new Set(badge.places.map((p) => placeName(run.map, p)))].join(", "), nameOf, onPick: pick,
      onConversation: (cid) => conversations.open(cid),
    }),
  });
  conversations = new Conversations($("conversation-list"), $("conversation-panel"), {
    listUrl: (persona) => withQuery(`${BASE}/conversations`, { tick: state.tick, persona, limit: persona ? 1 : 60 }),
    oneUrl: (id) => withQuery(`${BASE}/conversations/${encodeURIComponent(id)}`, { tick: state.tick }),
    nameOf, onRetrieval: (seq) => inspector.open(seq), onPick: pick,
  });
  tabs([["tab-retrievals", "retrieval-pane"], ["tab-conversations", "conversation-list"]],
    (which) => { if (which === "tab-conversations") conversations.refresh(); });
  personaList(run.personas, pick);
  personaSearch($("persona-search"), run.personas, pick);
  const crowds = new CrowdCounts($("crowds"), run.map || {}, (address) => { const r = placeRect(run.map, address); if (r) map.camera.show(r); });
  for (const p of run.personas) {
    $("ret-persona").append(el("option", { value: p.id }, shownName(p)));
    $("jump-persona").append(el("option", { value: p.id }, shownName(p)));
  }

  // -- showing a tick ---------------------------------------------------------------------
  let settleTimer = null;
  let seekTicket = 0;
  let onScreen = {}; // the personas of the frame shown
  const show = (frame, animate) => {
    state.tick = frame.tick;
    // only the personas whose entry differs from the frame on screen are touched
    const changed = Object.fromEntries(Object.entries(frame.personas).filter(([id, p]) => !sameEntry(onScreen[id], p)));
    const gone = Object.keys(onScreen).filter((id) => !(id in frame.personas));
    onScreen = frame.personas;
    const delta = { tick: frame.tick, time: frame.time, personas: changed, gone };
    map.setFrame(delta, animate);
    showClock(frame);
    updateList(delta);
    crowds.update(changed, { gone });
    $("scrubber").value = frame.tick;
    clearTimeout(settleTimer);
    settleTimer = setTimeout(settled, SETTLE_MS);
  };
  const settled = () => {
    saveHash();
    if (panel.id) panel.refresh();
    if (!$("conversation-list").hidden) conversations.refresh();
    else if (conversations.id !== null) conversations.load();
    loadRetrievals();
    if (evaluation.report) renderEvaluation($("evaluation"), evaluation.report, names, state.tick / ticksPerHour);
    if (!$("library").hidden) openLibrary();
  };
  const seek = async (tick) => {
    tick = Math.max(run.first_tick, Math.min(run.last_tick, Math.round(tick)));
    const ticket = ++seekTicket;
    try {
      const frame = await store.one(tick);
      if (ticket === seekTicket) show(frame, false);
    } catch (err) {
      notice(err.message);
    }
  };

  // -- playback ---------------------------------------------------------------------------
  let last = 0;
  const loop = (now) => {
    if (!state.playing) return;
    const dt = last ? (now - last) / 1000 : 0;
    last = now;
    const next = state.pos + state.speed * dt;
    const target = Math.min(run.last_tick, Math.floor(next));
    store.ahead(target + 1);
    if (store.has(target)) {
      state.pos = next;
      if (target !== state.tick) show(store.get(target), state.speed <= 64);
    }
    if (target >= run.last_tick) { setPlaying(false); return; }
    requestAnimationFrame(loop);
  };
  const setPlaying = (on) => {
    state.playing = on;
    $("btn-play").textContent = on ? "Pause" : "Play";
    $("btn-play").dataset.state = on ? "playing" : "paused";
    if (on) {
      if (state.tick >= run.last_tick) { state.tick = run.first_tick; }
      state.pos = state.tick;
      last = 0;
      map.setSpeed(state.speed);
      store.ahead(state.tick);
      requestAnimationFrame(loop);
    }
  };
  $("btn-play").addEventListener("click", () => setPlaying(!state.playing));
  $("btn-back").addEventListener("click", () => { setPlaying(false); seek(state.tick - 1); });
  $("btn-fwd").addEventListener("click", () => { setPlaying(false); seek(state.tick + 1); });
  $("speed").addEventListener("change", (e) => { state.speed = Number(e.target.value); state.pos = state.tick; map.setSpeed(state.speed); });
  $("scrubber").addEventListener("input", (e) => { setPlaying(false); seek(Number(e.target.value)); });
  $("jump-time").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = parseTime($("jump-time-input").value.trim());
    if (t === null) { notice("Give a game time like 2023-02-13 09:00"); return; }
    setPlaying(false);
    seek(Math.floor((t - start) / 1000 / spt));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea") || !$("inspector").hidden) return;
    if (e.key === " ") { e.preventDefault(); setPlaying(!state.playing); }
    else if (e.key === "ArrowLeft") { setPlaying(false); seek(state.tick - (e.shiftKey ? ticksPerHour / 6 : 1)); }
    else if (e.key === "ArrowRight") { setPlaying(false); seek(state.tick + (e.shiftKey ? ticksPerHour / 6 : 1)); }
  });

  // -- jumps and marks --------------------------------------------------------------------
  for (const kind of ["conversation", "reflection"]) {
    for (const direction of ["next", "prev"]) {
      $(`${direction}-${kind}`).addEventListener("click", async () => {
        setPlaying(false);
        const persona = $("jump-persona").value;
        const hit = await getJSON(withQuery(`${BASE}/jump`, { kind, direction, after: state.tick, persona }));
        const who = persona ? names[persona] : "anyone";
        if (hit.tick === null) { $("jump-result").textContent = `no ${direction === "next" ? "later" : "earlier"} ${kind} for ${who}`; return; }
        $("jump-result").textContent = `${kind} at ${hhmm(hit.time)}${hit.summary ? ` — ${hit.summary}` : ""}`;
        seek(hit.tick);
      });
    }
  }
  getJSON(`${BASE}/moments`).then(({ moments }) => {
    const span = Math.max(1, run.last_tick - run.first_tick);
    fill($("marks"), moments.map((m) => el("i", {
      class: `mark mark-${m.kind}`, style: { left: `${((m.tick - run.first_tick) / span) * 100}%` },
      title: `${m.kind} · ${m.personas.map((p) => names[p] || p).join(", ")}`,
    })));
  }).catch(() => {});

  // -- retrievals, library, evaluation ----------------------------------------------------
  let retrievalTicket = 0;
  let selectedRetrieval = null; // the one the page opened on, marked in the list
  let wantedRetrievals = ""; // the address of the list on screen or on its way: the same one is not fetched again
  const loadRetrievals = async () => {
    const persona = $("ret-persona").value;
    if (!persona) return;
    const hours = $("ret-window").value;
    const url = withQuery(`${BASE}/personas/${encodeURIComponent(persona)}/retrievals`, {
      purpose: $("ret-purpose").value, until: state.tick, limit: 60,
      since: hours === "all" ? null : Math.max(0, state.tick - Number(hours) * ticksPerHour),
    });
    if (url === wantedRetrievals) return;
    wantedRetrievals = url;
    const ticket = ++retrievalTicket;
    const body = await getJSON(url).catch((err) => ({ error: err.message }));
    if (ticket !== retrievalTicket) return;
    if (body.error) { wantedRetrievals = ""; fill($("retrieval-list"), el("li", { class: "error" }, body.error)); return; }
    fill($("retrieval-list"), body.retrievals.length ? body.retrievals.map((r) => el("li", {}, el("button", {
      type: "button", class: `retrieval-link${r.seq === selectedRetrieval ? " selected" : ""}`, data: { seq: r.seq, tick: r.tick },
      "aria-current": r.seq === selectedRetrieval ? "true" : null,
      onclick: () => inspector.open(r.seq),
    }, [el("span", { class: "when" }, hhmm(r.game_time || r.time)), el("span", { class: "badge" }, r.purpose),
      el("span", { class: "content" }, r.query)]))) : el("li", { class: "muted" }, "no retrievals in this window"));
    $("retrieval-list").querySelector(".retrieval-link.selected")?.scrollIntoView({ block: "nearest" });
  };
  for (const id of ["ret-persona", "ret-purpose", "ret-window"]) $(id).addEventListener("change", loadRetrievals);

  const openLibrary = async () => {
    const modal = $("library");
    modal.hidden = false;
    const body = $("library-body");
    const libs = await procedures(state.tick).catch((err) => ({ error: err.message }));
    if (libs.error) { fill(body, el("p", { class: "error" }, libs.error)); return; }
    const t = gameTime(store.get(state.tick)?.time || "");
    const box = el("div", { id: "town-library" });
    fill(body, [el("h2", {}, "Town procedure library"),
      el("p", { class: "muted small" }, `Shared, anonymised procedures as of ${t.day} ${t.clock}. Retrieved only at reliability ≥ ${libs.threshold}.`), box]);
    renderLibrary(box, libs.libraries.town || [], { threshold: libs.threshold, empty: "the town has no shared procedures yet" });
  };
  $("open-town-library").addEventListener("click", openLibrary);
  $("library-close").addEventListener("click", () => { $("library").hidden = true; });
  $("library").addEventListener("click", (e) => { if (e.target === $("library")) $("library").hidden = true; });

  const evaluation = { report: null };
  getJSON(`${BASE}/evaluation`).then((report) => {
    evaluation.report = report;
    renderEvaluation($("evaluation"), report, names, state.tick / ticksPerHour);
  }).catch((err) => fill($("evaluation"), el("p", { class: "muted" }, `no evaluation: ${err.message}`)));
  // a model evaluation only on a click, of the model the server's command line named (never the run file's)
  if (run.analysis_model) {
    const asked = run.analysis_model;
    const what = [asked.model, asked.base_url].filter(Boolean).join(" at ") || asked.backend;
    const button = el("button", { type: "button", id: "evaluate-with-model", class: "small" }, `Evaluate with ${what}`);
    // its own line: a seek re-draws #evaluation, which must not wipe what the model said
    const status = el("p", { id: "model-evaluation-status", class: "muted" });
    button.addEventListener("click", () => {
      button.disabled = true;
      status.textContent = `asking ${what} …`;
      postJSON(`${BASE}/evaluation`, {}).then((report) => {
        evaluation.report = report;
        status.textContent = `evaluated by ${what}`;
        renderEvaluation($("evaluation"), report, names, state.tick / ticksPerHour);
      }).catch((err) => { status.textContent = `no model evaluation: ${err.message}`; })
        .finally(() => { button.disabled = false; });
    });
    $("evaluation-card").append(button, status);
  }
  getJSON(`${BASE}/battery`).then((r) => (r.battery ? renderBattery($("battery-panel"), r.battery, names)
    : noBattery($("battery-panel"), r.ask)))
    .catch((err) => fill($("battery-panel"), el("p", { class: "muted" }, `no battery: ${err.message}`)));

  // -- start where the URL says, else where something happens ------------------------------
  const hash = new URLSearchParams(window.location.hash.slice(1));
  // without a persona in the address: the liveliest moment, a speaker there and the retrieval
  // its line was decided on (the same tick `demo` links to)
  const opening = hash.get("p") ? null
    : (await getJSON(`${BASE}/opening`).catch(() => ({ opening: null }))).opening;
  const at = hash.has("t") ? Number(hash.get("t")) : opening ? opening.tick : run.first_tick;
  const opened = opening && opening.tick <= at ? opening : null;
  const chosen = hash.get("p") || opened?.persona || "";
  if (opened) selectedRetrieval = opened.retrieval;
  $("ret-persona").value = chosen || run.personas[0]?.id || "";
  await seek(at);
  if (chosen && names[chosen]) pick(chosen);
  else loadRetrievals();

  function saveHash() {
    const params = new URLSearchParams({ t: state.tick });
    if (panel.id) params.set("p", panel.id);
    history.replaceState(null, "", `#${params}`);
  }
}

/** Milliseconds since the epoch of "YYYY-MM-DD HH:MM[:SS]" read as UTC (game time has no zone), or null. */
function parseTime(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text || "");
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0)) : null;
}

/** Whether two frame entries (flat objects of plain values) are the same. */
function sameEntry(a, b) {
  if (!a) return false;
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

function notice(message) {
  const box = $("notice");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

boot();
