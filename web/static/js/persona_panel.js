// The persona panel: identity, current action and place, today's plan, latest memories and
// retrievals (each opens the retrieval inspector). Data from GET /api/personas/<id>.

import { getJSON } from "./api.js";
import { el, fill, hhmm, place } from "./dom.js";

export class PersonaPanel {
  /**
   * @param {HTMLElement} root the drawer (#persona-panel)
   * @param {{onRetrieval: function(number), onClose: function()}} handlers
   */
  constructor(root, { onRetrieval, onClose }) {
    this.root = root;
    this.body = root.querySelector("#persona-body");
    this.onRetrieval = onRetrieval;
    this.id = "";
    this.timer = null;
    root.querySelector("#persona-close").addEventListener("click", () => { this.close(); onClose(); });
  }

  async open(id) {
    this.id = id;
    this.root.hidden = false;
    this.root.dataset.persona = id;
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refresh(), 3000);
    await this.refresh();
  }

  close() {
    clearInterval(this.timer);
    this.id = "";
    this.root.hidden = true;
  }

  async refresh() {
    const id = this.id;
    if (!id) return;
    let data;
    try {
      data = await getJSON(`/api/personas/${encodeURIComponent(id)}`);
    } catch (err) {
      fill(this.body, el("p", { class: "error" }, err.message));
      return;
    }
    if (id !== this.id) return;
    this.render(data);
  }

  render({ identity, now, plan, memories, retrievals }) {
    const traits = [].concat(identity.traits || []).join(", ");
    fill(this.body, [
      el("div", { class: "who" }, [
        el("span", { class: "who-emoji" }, identity.emoji || "🙂"),
        el("div", {}, [
          el("h2", { id: "persona-name" }, identity.name || identity.id),
          el("div", { class: "muted" }, [identity.age ? `${identity.age} · ` : "", traits]),
        ]),
      ]),
      el("section", { class: "now", id: "persona-now" }, now ? [
        el("div", { class: "now-action" }, `${now.emoji || ""} ${now.action || "—"}`.trim()),
        el("div", { class: "muted", id: "persona-address" }, `at ${place(now.address)}`),
        now.speech ? el("div", { class: "now-speech" }, `“${now.speech}”`) : null,
      ] : el("div", { class: "muted" }, "not seen yet")),
      section("About", [
        row("Background", identity.background),
        row("Lifestyle", identity.lifestyle),
        row("Home", identity.home && place(identity.home)),
      ]),
      section("Today's plan", planList(plan), "persona-plan"),
      section("Latest memories", memories.length ? el("ul", { class: "memories", id: "persona-memories" },
        memories.map((m) => el("li", { class: `memory kind-${m.kind}`, data: { id: m.id, importance: m.importance } }, [
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
