// Conversations: a list of the open ones and the past ones of the run (live, or as of the
// replayed tick), and a panel with one conversation's transcript, where each line's retrieval is
// one click away. Data: GET .../conversations and .../conversations/<id> (web/conversation_views.py).

import { getJSON } from "./api.js";
import { el, fill, hhmm } from "./dom.js";

const PAST_SHOWN = 40;

export class Conversations {
  /**
   * @param {HTMLElement} list the card's body (#conversation-list)
   * @param {HTMLElement} panel the transcript drawer (#conversation-panel)
   * @param {{listUrl: function(?string): string, oneUrl: function(number): string,
   *          nameOf: function(string): string, onRetrieval: function(number), onPick: function(string)}} options
   *   listUrl(persona) / oneUrl(id) give the API URLs (with the replay's tick)
   */
  constructor(list, panel, { listUrl, oneUrl, nameOf, onRetrieval, onPick }) {
    this.list = list;
    this.panel = panel;
    this.body = panel.querySelector("#conversation-body");
    this.listUrl = listUrl;
    this.oneUrl = oneUrl;
    this.nameOf = nameOf;
    this.onRetrieval = onRetrieval;
    this.onPick = onPick;
    this.id = null;
    this.ticket = 0;
    panel.querySelector("#conversation-close").addEventListener("click", () => this.close());
  }

  /** Reload the list of open and past conversations. */
  async refresh() {
    const ticket = ++this.ticket;
    const body = await getJSON(this.listUrl(null)).catch((err) => ({ error: err.message }));
    if (ticket !== this.ticket) return;
    if (body.error) { fill(this.list, el("p", { class: "error" }, body.error)); return; }
    const row = (c) => el("li", {}, el("button", {
      type: "button", class: `conversation-link${c.end_tick === null ? " open" : ""}`, data: { conversation: c.id },
      onclick: () => this.open(c.id),
    }, [el("span", { class: "when" }, hhmm(c.start_time)),
      el("span", { class: "who" }, this.pair(c.participants)),
      el("span", { class: "muted small" }, `${c.lines} line${c.lines === 1 ? "" : "s"}`),
      c.last ? el("span", { class: "last" }, `${this.nameOf(c.last.speaker)}: “${c.last.line}”`) : null]));
    fill(this.list, [
      el("h3", {}, `Talking now (${body.open.length})`),
      body.open.length ? el("ul", { class: "conversations", id: "conversations-open" }, body.open.map(row))
        : el("p", { class: "muted small" }, "nobody is talking"),
      el("h3", {}, "Earlier"),
      body.past.length ? el("ul", { class: "conversations", id: "conversations-past" }, body.past.slice(0, PAST_SHOWN).map(row))
        : el("p", { class: "muted small" }, "no conversation has ended yet"),
    ]);
    if (this.id !== null) this.load();
  }

  pair(ids) { return ids.map((p) => this.nameOf(p)).join(" & "); }

  /** Show conversation `id`'s transcript in the panel. */
  async open(id) {
    this.id = id;
    this.panel.hidden = false;
    this.panel.dataset.conversation = id;
    fill(this.body, el("p", { class: "muted" }, "loading…"));
    await this.load();
  }

  /** The newest conversation `persona` took part in (open first), or null. */
  async latestOf(persona) {
    const body = await getJSON(this.listUrl(persona)).catch(() => null);
    if (!body) return null;
    const found = body.open[0] || body.past[0];
    return found ? found.id : null;
  }

  close() {
    this.id = null;
    this.panel.hidden = true;
  }

  async load() {
    const id = this.id;
    const c = await getJSON(this.oneUrl(id)).catch((err) => ({ error: err.message }));
    if (id !== this.id) return;
    if (c.error) { fill(this.body, el("p", { class: "error" }, c.error)); return; }
    this.shown = c;
    const ended = c.end_tick !== null;
    fill(this.body, [
      el("h2", { id: "conversation-title" }, c.participants.map((p, i) => [i ? " & " : "", el("button", {
        type: "button", class: "link-button who-link", onclick: () => this.onPick(p) }, this.nameOf(p))]).flat()),
      el("p", { class: "muted", id: "conversation-when" }, `${hhmm(c.start_time)}–${ended ? hhmm(c.end_time) : "now"} · ${c.lines.length} line${c.lines.length === 1 ? "" : "s"}${ended ? "" : " · under way"}`),
      el("ol", { class: "transcript", id: "transcript" }, c.lines.map((line) => this.lineNode(line))),
      ended && Object.keys(c.summary).length ? el("section", { class: "panel-section" }, [el("h3", {}, "What each remembers of it"),
        el("ul", { class: "summaries" }, Object.entries(c.summary).map(([p, text]) => el("li", {}, [el("b", {}, `${this.nameOf(p)}: `), text])))]) : null,
    ]);
  }

  lineNode(line) {
    return el("li", { class: "transcript-line", data: { seq: line.seq, speaker: line.speaker } }, [
      el("span", { class: "when" }, hhmm(line.time)),
      el("span", { class: "content" }, [el("b", {}, `${this.nameOf(line.speaker)}: `), line.line]),
      line.retrieval === null ? el("span", { class: "muted small", title: "a player's own words: no retrieval" }, "typed")
        : el("button", { type: "button", class: "recall-link", data: { seq: line.retrieval },
          title: "the retrieval this line came from", onclick: () => this.onRetrieval(line.retrieval) }, "recall"),
    ]);
  }

  /** A chat line just said (live): added to the open transcript if it is this conversation's. */
  heard(item) {
    if (this.id === null || item.conversation !== this.id || !this.shown) return;
    const list = this.body.querySelector("#transcript");
    if (!list || list.querySelector(`li[data-seq="${item.seq}"]`)) return;
    list.append(this.lineNode({ seq: item.seq, time: item.time, speaker: item.speaker, line: item.line,
      retrieval: typeof item.retrieval === "number" ? item.retrieval : null }));
  }
}
