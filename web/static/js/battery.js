// The interview battery inside the replay layout (town.analysis.battery via /api/runs/<name>/battery):
// per-category grades, then one persona's answers in one category (tabs), each with its grade
// and the memories its retrieval returned. Every text goes in through dom.el (textContent).

import { el, fill, num } from "./dom.js";

const LABELS = { self_knowledge: "self-knowledge", memory: "memory", plans: "plans", reactions: "reactions", reflections: "reflections" };

// Categories in the battery's order (the API's JSON sorts keys), then any other.
const ordered = (cats) => [...Object.keys(LABELS).filter((c) => c in cats), ...Object.keys(cats).filter((c) => !(c in LABELS))];

function grades(battery) {
  const cats = battery.summary.categories;
  return el("table", { class: "compare-table", id: "battery-grades" }, [
    el("thead", {}, el("tr", {}, ["category", "right", "wrong", "don't know", "judge", "accuracy"].map((h) => el("th", {}, h)))),
    el("tbody", {}, ordered(cats).map((c) => [c, cats[c]]).map(([c, g]) => el("tr", { data: { category: c } }, [
      el("td", {}, LABELS[c] || c), el("td", {}, String(g.correct)), el("td", {}, String(g.wrong)),
      el("td", {}, String(g.dont_know)), el("td", {}, String(g.ungraded)),
      el("td", {}, g.accuracy === null ? "judge" : `${Math.round(g.accuracy * 100)}%`)]))),
  ]);
}

function answer(a) {
  const g = a.grade || {};
  const memories = a.retrieval.retrieved;
  return el("li", { class: "battery-answer", data: { verdict: g.verdict || "", index: a.index } }, [
    el("div", { class: "battery-q" }, a.question),
    el("div", { class: "battery-a" }, a.answer),
    el("div", { class: "muted small" }, [el("b", { class: `verdict verdict-${g.verdict}` }, g.verdict || "ungraded"),
      g.hallucination ? " · hallucination" : "", g.truth ? ` · truth: ${g.truth}` : ""]),
    el("details", { class: "battery-trace" }, [
      el("summary", {}, `${memories.length} memories retrieved (of ${a.retrieval.n_scored}, weights ${a.retrieval.weights.join(", ")})`),
      el("ol", {}, memories.map((m) => el("li", { class: "battery-memory" }, [
        el("span", { class: "content" }, m.content), " ",
        el("span", { class: "muted" }, `score ${num(m.total, 3)} = recency ${num(m.recency_score, 2)} + importance ${num(m.importance_score, 2)} + relevance ${num(m.relevance_score, 2)}`),
      ]))),
    ]),
  ]);
}

/**
 * Render `battery` (battery.json) into `root`; `names` maps persona id to the shown name.
 * The persona and category shown are kept on the panel's selects and tabs.
 */
export function renderBattery(root, battery, names) {
  const personas = [...new Set(battery.answers.map((a) => a.persona))];
  const select = el("select", { id: "battery-persona", title: "Persona" },
    personas.map((p) => el("option", { value: p }, names[p] || p)));
  const list = el("ol", { id: "battery-list", class: "battery-list" });
  const state = { category: "self_knowledge" };
  const tabs = el("div", { class: "tabs", id: "battery-tabs" }, ordered(battery.summary.categories).map((c) =>
    el("button", { type: "button", class: "tab", data: { category: c }, onclick: () => { state.category = c; show(); } }, LABELS[c] || c)));
  const show = () => {
    for (const t of tabs.children) t.classList.toggle("active", t.dataset.category === state.category);
    const rows = battery.answers.filter((a) => a.persona === select.value && a.category === state.category);
    fill(list, rows.length ? rows.map(answer) : el("li", { class: "muted" }, "no questions of this category for this persona"));
  };
  select.addEventListener("change", show);
  const s = battery.summary;
  fill(root, [
    el("p", { class: "muted small" }, `Asked at ${battery.at} through ${battery.backend}${battery.ablate ? `; ablated: ${battery.ablate}` : ""}; stranger: ${battery.stranger}. Hallucinations: ${s.hallucinations} in ${s.answers} answers.`),
    grades(battery), el("label", {}, ["Answers of ", select]), tabs, list,
  ]);
  show();
}

/** What the panel says when the run has no battery yet: `ask` is the command that writes it. */
export function noBattery(root, ask) {
  fill(root, el("p", { class: "muted", id: "no-battery" }, ["No battery yet. Ask it with ", el("code", {}, ask), "."]));
}
