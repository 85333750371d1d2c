// The retrieval inspector (Park et al. 2023 §4.1): for each candidate of a recorded retrieval, a
// stacked bar of its three weighted parts and a table of the raw values. Data from
// GET /api/retrievals/<seq>. Bar segments carry their weighted values in data- attributes.

import { getJSON } from "./api.js";
import { el, fill, num, gameTime } from "./dom.js";

const PARTS = [
  { key: "recency", label: "recency", hint: "0.995^hours since last access, min-max normalised" },
  { key: "importance", label: "importance", hint: "poignancy 1-10, min-max normalised" },
  { key: "relevance", label: "relevance", hint: "cosine to the query, min-max normalised" },
];

export class Inspector {
  /** @param {HTMLElement} root the modal (#inspector) */
  constructor(root) {
    this.root = root;
    this.body = root.querySelector("#inspector-body");
    root.querySelector("#inspector-close").addEventListener("click", () => this.close());
    root.addEventListener("click", (e) => { if (e.target === root) this.close(); });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") this.close(); });
  }

  close() { this.root.hidden = true; }

  async open(seq) {
    this.root.hidden = false;
    this.root.dataset.seq = seq;
    fill(this.body, el("p", { class: "muted" }, "loading…"));
    try {
      this.render(await getJSON(`/api/retrievals/${encodeURIComponent(seq)}`));
    } catch (err) {
      fill(this.body, el("p", { class: "error" }, err.message));
    }
  }

  render(trace) {
    const weights = trace.weights || [1, 1, 1];
    const scale = weights.reduce((a, b) => a + b, 0) || 1;  // the largest possible total
    const top = trace.candidates.filter((c) => c.in_top_k);
    const rest = trace.candidates.filter((c) => !c.in_top_k);
    const when = gameTime(trace.game_time || trace.time);
    fill(this.body, [
      el("h2", {}, "Retrieval"),
      el("p", { class: "query", id: "inspector-query" }, `“${trace.query}”`),
      el("dl", { class: "facts", id: "inspector-facts" }, [
        fact("persona", trace.persona), fact("purpose", trace.purpose),
        fact("when", `${when.day} ${when.clock}`),
        fact("weights (rec, imp, rel)", weights.map((w) => num(w, 2)).join(", ")),
        fact("k", trace.k), fact("records scored", trace.n_scored),
      ]),
      legend(),
      el("h3", {}, `Returned (top ${top.length})`),
      el("div", { class: "candidates", id: "candidates-top" }, top.map((c) => candidate(c, scale))),
      rest.length ? el("h3", {}, "Runners-up (not returned)") : null,
      rest.length ? el("div", { class: "candidates runners-up", id: "candidates-runners-up" }, rest.map((c) => candidate(c, scale))) : null,
    ]);
  }
}

function fact(label, value) {
  return el("div", { class: "fact" }, [el("dt", {}, label), el("dd", {}, String(value ?? "–"))]);
}

function legend() {
  return el("div", { class: "legend", id: "inspector-legend" }, PARTS.map((p) =>
    el("span", { class: "legend-item", title: p.hint }, [el("i", { class: `swatch seg-${p.key}` }), p.label])));
}

function candidate(c, scale) {
  const bar = el("div", {
    class: "score-bar",
    title: `total ${num(c.total)}`,
    data: { recency: c.recency_score, importance: c.importance_score, relevance: c.relevance_score, total: c.total },
  }, PARTS.map((p) => {
    const value = c[`${p.key}_score`];
    return el("span", {
      class: `seg seg-${p.key}`,
      style: { width: `${Math.max(0, (value / scale) * 100)}%` },
      title: `${p.label}: ${num(value)}`,
      data: { part: p.key, value, [p.key]: value },
    });
  }));
  return el("article", {
    class: `candidate${c.in_top_k ? " top" : " runner-up"}`,
    id: `cand-${c.id}`,
    data: { id: c.id, rank: c.rank, total: c.total },
  }, [
    el("div", { class: "cand-head" }, [
      el("span", { class: "rank" }, `#${c.rank}`),
      el("span", { class: "content" }, c.content),
      el("span", { class: "total" }, num(c.total)),
    ]),
    bar,
    el("table", { class: "raw" }, [
      el("thead", {}, el("tr", {}, ["hours since access", "recency", "importance", "relevance",
        "rec part", "imp part", "rel part", "total"].map((h) => el("th", {}, h)))),
      el("tbody", {}, el("tr", {}, [num(c.hours, 2), num(c.recency), String(c.importance), num(c.relevance),
        num(c.recency_part), num(c.importance_part), num(c.relevance_part), num(c.total)].map((v) => el("td", {}, v)))),
    ]),
  ]);
}
