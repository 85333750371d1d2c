// The retrieval inspector (Park et al. 2023 §4.1): for each candidate of a recorded retrieval, a
// stacked bar of its three weighted parts and a table of the raw values. With a lab URL (replay)
// it adds the weight lab: sliders for the three weights and k re-rank the recorded retrieval over
// the memory stream as it was then (GET .../lab?w=rec,imp,rel&k=), marking which records enter
// or leave the top k. Bar segments carry their weighted values in data- attributes.

import { getJSON } from "./api.js";
import { el, fill, num, gameTime } from "./dom.js";

const PARTS = [
  { key: "recency", label: "recency", hint: "0.995^hours since last access, min-max normalised" },
  { key: "importance", label: "importance", hint: "poignancy 1-10, min-max normalised" },
  { key: "relevance", label: "relevance", hint: "cosine to the query, min-max normalised" },
];
const LAB_DELAY_MS = 120;

export class Inspector {
  /**
   * @param {HTMLElement} root the modal (#inspector)
   * @param {{traceUrl: function(number): string, labUrl: ?function(number, number[], number): string}} urls
   */
  constructor(root, { traceUrl = (seq) => `/api/retrievals/${encodeURIComponent(seq)}`, labUrl = null } = {}) {
    this.root = root;
    this.body = root.querySelector("#inspector-body");
    this.traceUrl = traceUrl;
    this.labUrl = labUrl;
    this.labTimer = null;
    this.labRequest = 0;
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
      this.render(await getJSON(this.traceUrl(seq)));
    } catch (err) {
      fill(this.body, el("p", { class: "error" }, err.message));
    }
  }

  render(trace) {
    const weights = trace.weights || [1, 1, 1];
    const top = trace.candidates.filter((c) => c.in_top_k);
    const rest = trace.candidates.filter((c) => !c.in_top_k);
    const when = gameTime(trace.game_time || trace.time);
    const scale = weights.reduce((a, b) => a + b, 0) || 1;  // the largest possible total
    const recorded = el("div", { class: "recorded", id: "inspector-recorded" }, [
      el("h3", {}, `Returned (top ${top.length})`),
      el("div", { class: "candidates", id: "candidates-top" }, top.map((c) => candidate(c, scale, "", "cand-"))),
      rest.length ? el("h3", {}, "Runners-up (not returned)") : null,
      rest.length ? el("div", { class: "candidates runners-up", id: "candidates-runners-up" }, rest.map((c) => candidate(c, scale, "", "cand-"))) : null,
    ]);
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
      this.labUrl ? this.lab(trace) : null,
      recorded,
    ]);
  }

  /** The weight lab: sliders, then the re-ranked list (filled by runLab). */
  lab(trace) {
    const seq = trace.seq;
    const sliders = {};
    const state = { weights: [...(trace.weights || [1, 1, 1])], k: trace.k };
    const out = el("div", { class: "lab-result", id: "lab-result" }, el("p", { class: "muted" }, "…"));
    const run = () => {
      clearTimeout(this.labTimer);
      this.labTimer = setTimeout(() => this.runLab(seq, state, trace, out), LAB_DELAY_MS);
    };
    const slider = (id, label, value, min, max, step, onInput, cls) => {
      const shown = el("output", { id: `${id}-value` }, String(value));
      const input = el("input", {
        type: "range", id, min, max, step, value, "aria-label": label,
        oninput: (e) => { onInput(Number(e.target.value)); shown.textContent = e.target.value; run(); },
      });
      sliders[id] = input;
      return el("label", { class: `lab-slider ${cls || ""}` }, [el("span", {}, label), input, shown]);
    };
    const reset = el("button", {
      type: "button", class: "link-button", id: "lab-reset",
      onclick: () => {
        state.weights = [...trace.weights]; state.k = trace.k;
        ["lab-w-recency", "lab-w-importance", "lab-w-relevance"].forEach((id, i) => {
          sliders[id].value = trace.weights[i]; document.getElementById(`${id}-value`).textContent = String(trace.weights[i]);
        });
        sliders["lab-k"].value = trace.k; document.getElementById("lab-k-value").textContent = String(trace.k);
        run();
      },
    }, "reset to the recorded weights");
    const box = el("section", { class: "lab", id: "lab" }, [
      el("h3", {}, "Weight lab"),
      el("p", { class: "muted small" }, "Re-rank this retrieval over the memory stream as it was at that moment. Records that enter the top k are marked ▲, those that leave it ▼."),
      el("div", { class: "lab-sliders" }, [
        slider("lab-w-recency", "recency", state.weights[0], 0, 3, 0.1, (v) => { state.weights[0] = v; }, "seg-text-recency"),
        slider("lab-w-importance", "importance", state.weights[1], 0, 3, 0.1, (v) => { state.weights[1] = v; }, "seg-text-importance"),
        slider("lab-w-relevance", "relevance", state.weights[2], 0, 3, 0.1, (v) => { state.weights[2] = v; }, "seg-text-relevance"),
        slider("lab-k", "k", trace.k, 1, Math.max(1, Math.min(30, trace.n_scored || trace.k)), 1, (v) => { state.k = v; }),
      ]),
      reset,
      out,
    ]);
    this.runLab(seq, state, trace, out);
    return box;
  }

  async runLab(seq, state, trace, out) {
    const request = ++this.labRequest;
    let result;
    try {
      result = await getJSON(this.labUrl(seq, state.weights, state.k));
    } catch (err) {
      fill(out, el("p", { class: "error" }, err.message));
      return;
    }
    if (request !== this.labRequest) return;  // a newer slider position is on its way
    const scale = result.weights.reduce((a, b) => a + b, 0) || 1;
    const entered = new Set(result.entered);
    const top = result.candidates.filter((c) => c.in_top_k);
    const left = result.candidates.filter((c) => result.left.includes(c.id));
    out.dataset.weights = result.weights.join(",");
    out.dataset.k = result.k;
    fill(out, [
      el("p", { class: "lab-summary", id: "lab-summary" }, [
        `weights ${result.weights.map((w) => num(w, 1)).join(", ")} · k ${result.k}: `,
        el("b", {}, `${result.entered.length} entered`), ", ", el("b", {}, `${result.left.length} left`),
        " the recorded top k",
      ]),
      el("div", { class: "candidates", id: "lab-ranking" }, top.map((c) => candidate(c, scale, entered.has(c.id) ? "entered" : ""))),
      left.length ? el("h4", {}, "Left the top k") : null,
      left.length ? el("div", { class: "candidates runners-up", id: "lab-left" }, left.map((c) => candidate(c, scale, "left"))) : null,
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

/**
 * One candidate: rank, content, total, stacked bar and raw values.
 * @param {string} mark "entered" | "left" | "" (a badge)
 * @param {?string} idPrefix element id prefix (the recorded list uses "cand-")
 */
export function candidate(c, scale, mark = "", idPrefix = null) {
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
  const badge = mark === "entered" ? el("span", { class: "move move-in", title: "entered the top k" }, "▲ in")
    : mark === "left" ? el("span", { class: "move move-out", title: "left the top k" }, "▼ out") : null;
  return el("article", {
    class: `candidate${c.in_top_k ? " top" : " runner-up"}${mark ? ` ${mark}` : ""}`,
    id: idPrefix ? `${idPrefix}${c.id}` : null,
    data: { id: c.id, rank: c.rank, total: c.total },
  }, [
    el("div", { class: "cand-head" }, [
      el("span", { class: "rank" }, `#${c.rank}`),
      badge,
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
