// The persona panel: identity, current action and place, today's plan, latest memories and
// retrievals (each opens the retrieval inspector); a Procedures tab (the persona's library); an
// Interview tab (answers from memory as of now / the scrubbed time, with the retrieval it used);
// the persona's latest conversations (each opens its transcript); and, live with control, a
// Whisper box that injects a memory. The data source is given by the
// page: GET /api/personas/<id> live, /api/runs/<name>/personas/<id>?tick= in replay.

import { getJSON } from "./api.js";
import { el, fill, hhmm, markerText, num, place, shownEmoji, shownName } from "./dom.js";
import { renderLibrary } from "./procedures.js";

const TABS = [["overview", "Overview"], ["procedures", "Procedures"], ["interview", "Interview"]];

export class PersonaPanel {
  /**
   * @param {HTMLElement} root the drawer (#persona-panel)
   * @param {{url: function(string): string, procedures: function(string): Promise<{threshold, procedures}>,
   *          interview: function(string, string): Promise<object>, whisper: ?function(string, string): Promise<object>,
   *          conversations: function(string): Promise<{open, past}>, nameOf: function(string): string,
   *          poll: boolean, onRetrieval: function(number), onConversation: function(number), onClose: function()}} options
   */
  constructor(root, { url, procedures, interview, whisper = null, conversations, nameOf, poll = true, onRetrieval, onConversation, onClose }) {
    this.root = root;
    this.body = root.querySelector("#persona-body");
    this.url = url;
    this.proceduresOf = procedures;
    this.interviewOf = interview;
    this.whisperTo = whisper;
    this.poll = poll;
    this.onRetrieval = onRetrieval;
    this.conversationsOf = conversations;
    this.nameOf = nameOf;
    this.onConversation = onConversation;
    this.talks = null;
    this.id = "";
    this.tab = "overview";
    this.timer = null;
    this.seen = 0;
    root.querySelector("#persona-close").addEventListener("click", () => { this.close(); onClose(); });
  }

  async open(id) {
    if (id !== this.id) { this.tab = "overview"; this.whisperNote = ""; }
    this.id = id;
    this.root.hidden = false;
    this.root.dataset.persona = id;
    clearInterval(this.timer);
    if (this.poll) this.timer = setInterval(() => this.refresh(), 3000);
    await this.refresh();
  }

  close() {
    clearInterval(this.timer);
    this.id = "";
    this.root.hidden = true;
  }

  /** Reload the shown tab (the interview tab keeps its answer until asked again). */
  async refresh() {
    const id = this.id;
    if (!id) return;
    const ticket = ++this.seen;
    try {
      if (this.tab === "overview" || !this.data) {
        const [data, talks] = await Promise.all([getJSON(this.url(id)), this.conversationsOf(id).catch(() => null)]);
        if (ticket !== this.seen || id !== this.id) return;
        this.data = data;
        this.talks = talks;
      }
      if (this.tab === "procedures") {
        const libs = await this.proceduresOf(id);
        if (ticket !== this.seen || id !== this.id) return;
        this.library = libs;
      }
    } catch (err) {
      fill(this.body, el("p", { class: "error" }, err.message));
      return;
    }
    if (this.tab !== "interview" || !this.body.querySelector("#interview-form")) this.render();
  }

  show(tab) {
    this.tab = tab;
    this.root.dataset.tab = tab;
    if (tab === "interview") this.render();
    this.refresh();
  }

  render() {
    const { identity } = this.data;
    const traits = [].concat(identity.traits || []).join(", ");
    const typing = this.body.querySelector("#whisper-text");  // keep what is being typed across refreshes
    const kept = typing && { value: typing.value, focused: document.activeElement === typing };
    fill(this.body, [
      el("div", { class: "who" }, [
        el("span", { class: "who-emoji" }, markerText(identity)),
        el("div", {}, [
          el("h2", { id: "persona-name" }, shownName(identity)),
          el("div", { class: "muted" }, [identity.age ? `${identity.age} · ` : "", traits]),
        ]),
      ]),
      el("nav", { class: "tabs", role: "tablist" }, TABS.map(([key, label]) => el("button", {
        type: "button", role: "tab", id: `tab-${key}`, class: `tab${this.tab === key ? " active" : ""}`,
        "aria-selected": this.tab === key, onclick: () => this.show(key),
      }, label))),
      this.tab === "procedures" ? this.proceduresTab()
        : this.tab === "interview" ? this.interviewTab() : this.overviewTab(),
    ]);
    const box = this.body.querySelector("#whisper-text");
    if (kept && box) {
      box.value = kept.value;
      if (kept.focused) box.focus();
    }
  }

  overviewTab() {
    const { identity, now, plan, memories, retrievals } = this.data;
    return el("div", { class: "tab-body", id: "tab-body-overview" }, [
      el("section", { class: "now", id: "persona-now" }, now ? [
        el("div", { class: "now-action" }, `${shownEmoji(now.emoji)} ${now.action || "—"}`.trim()),
        el("div", { class: "muted", id: "persona-address" }, `at ${place(now.address)}`),
        now.speech ? el("div", { class: "now-speech" }, `“${now.speech}”`) : null,
        now.conversation ? el("button", { type: "button", class: "link-button", id: "persona-conversation",
          data: { conversation: now.conversation }, onclick: () => this.onConversation(now.conversation) }, "open this conversation") : null,
      ] : el("div", { class: "muted" }, "not seen yet")),
      this.whisperTo ? this.whisperBox() : null,
      section("About", [
        row("Background", identity.background),
        row("Lifestyle", identity.lifestyle),
        row("Home", identity.home && place(identity.home)),
      ]),
      section("Today's plan", planList(plan), "persona-plan"),
      section("Latest conversations", this.talkList(), "persona-conversations"),
      section("Latest memories", memories.length ? el("ul", { class: "memories", id: "persona-memories" },
        memories.map((m) => el("li", { class: `memory kind-${m.kind}`, data: { id: m.id, importance: m.importance, kind: m.kind } }, [
          el("span", { class: "badge" }, m.kind),
          el("span", { class: "imp", title: "importance (1-10)" }, `★${m.importance}`),
          el("span", { class: "when" }, hhmm(m.created)),
          el("span", { class: "content" }, m.content),
        ]))) : el("p", { class: "muted" }, "no memories yet")),
      section("Latest retrievals", retrievals.length ? el("ul", { class: "retrievals", id: "persona-retrievals" },
        retrievals.map((r) => el("li", {}, el("button", {
          type: "button", class: "retrieval-link", data: { seq: r.seq },
          onclick: () => this.onRetrieval(r.seq),
        }, [el("span", { class: "when" }, hhmm(r.game_time || r.time)), el("span", { class: "badge" }, r.purpose),
          el("span", { class: "content" }, r.query)])))) : el("p", { class: "muted" }, "no retrievals yet")),
    ]);
  }

  /** The persona's newest conversations (open ones first), each a link to its transcript. */
  talkList() {
    const talks = this.talks ? [...this.talks.open, ...this.talks.past].slice(0, 5) : [];
    if (!talks.length) return el("p", { class: "muted" }, "no conversation yet");
    return el("ul", { class: "conversations" }, talks.map((c) => el("li", {}, el("button", {
      type: "button", class: `conversation-link${c.end_tick === null ? " open" : ""}`, data: { conversation: c.id },
      onclick: () => this.onConversation(c.id),
    }, [el("span", { class: "when" }, hhmm(c.start_time)),
      el("span", { class: "who" }, `with ${c.participants.filter((p) => p !== this.id).map(this.nameOf).join(", ")}`),
      el("span", { class: "muted small" }, c.end_tick === null ? "now" : `${c.lines} lines`)]))));
  }

  whisperBox() {
    const text = el("input", { type: "text", id: "whisper-text", maxlength: 500, placeholder: "e.g. You want to throw a party on Friday." });
    const status = el("span", { class: "muted small", id: "whisper-status" }, this.whisperNote || "");
    const send = async (e) => {
      e.preventDefault();
      const value = text.value.trim();
      if (!value) return;
      status.textContent = "whispering…";
      try {
        const reply = await this.whisperTo(this.id, value);
        this.whisperNote = `remembered as memory #${reply.memory}`;
        status.textContent = this.whisperNote;
        text.value = "";
        await this.refresh();
      } catch (err) {
        status.textContent = err.message;
        status.className = "error small";
      }
    };
    return el("form", { class: "whisper", id: "whisper-form", onsubmit: send }, [
      el("label", { for: "whisper-text", class: "small muted" }, "Whisper (an inner voice the persona will remember)"),
      el("div", { class: "inline-form" }, [text, el("button", { type: "submit", id: "whisper-send" }, "Whisper")]),
      status,
    ]);
  }

  proceduresTab() {
    const box = el("div", { class: "tab-body", id: "persona-procedures" });
    if (!this.library) fill(box, el("p", { class: "muted" }, "loading…"));
    else renderLibrary(box, this.library.procedures, { threshold: this.library.threshold,
                                                       previous: this.body.querySelector("#persona-procedures") });
    return box;
  }

  interviewTab() {
    const input = el("input", { type: "text", id: "interview-question", maxlength: 500, value: "Do you know about a party?" });
    const out = el("div", { id: "interview-answer", class: "interview-answer" });
    const ask = async (e) => {
      e.preventDefault();
      const q = input.value.trim();
      if (!q) return;
      fill(out, el("p", { class: "muted" }, "thinking…"));
      try {
        const r = await this.interviewOf(this.id, q);
        fill(out, [
          el("blockquote", { class: "answer", id: "interview-text" }, r.answer),
          el("p", { class: "muted small" }, `from memory as of ${r.at} (tick ${r.tick}); ${r.n_scored} memories scored, top ${r.k} used:`),
          el("ol", { class: "interview-trace" }, r.candidates.filter((c) => c.in_top_k).map((c) => el("li", {}, [
            el("span", { class: "total" }, num(c.total, 2)), " ", c.content,
          ]))),
        ]);
      } catch (err) {
        fill(out, el("p", { class: "error" }, err.message));
      }
    };
    return el("div", { class: "tab-body", id: "tab-body-interview" }, [
      el("p", { class: "muted small" }, "Ask as the paper's interviews did: the persona answers from its memory stream as of the time shown, and nothing is written to the run."),
      el("form", { class: "inline-form", id: "interview-form", onsubmit: ask }, [input, el("button", { type: "submit", id: "interview-ask" }, "Ask")]),
      out,
    ]);
  }
}

function section(title, children, id) {
  return el("section", { class: "panel-section", id }, [el("h3", {}, title), ...[].concat(children)]);
}

function row(label, value) {
  return value ? el("p", { class: "kv" }, [el("b", {}, `${label}: `), String(value)]) : null;
}

function planList(plan) {
  if (!plan || !plan.items || !plan.items.length) return el("p", { class: "muted" }, "no plan yet");
  return el("ol", { class: "plan" }, plan.items.map((item) => el("li", {}, [
    el("span", { class: "when" }, `${hhmm(item.start)}–${hhmm(item.end)}`),
    el("span", { class: "content" }, item.description),
    item.address || item.place ? el("span", { class: "muted" }, ` · ${place(item.address || item.place)}`) : null,
  ])));
}
