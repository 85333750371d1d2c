// The comparison page: two saved runs side by side (town.analysis.compare via /api/compare/<a>/<b>).
// Diffusion and density curves are SVG polylines (A solid, B dashed); a retrieval link opens the inspector
// on that run's recorded trace.

import { getJSON } from "./api.js";
import { el, fill, num } from "./dom.js";
import { Inspector } from "./inspector.js";

const A = document.body.dataset.a;
const B = document.body.dataset.b;
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// One overlaid chart: points [x, y] of run A (solid) and run B (dashed) on shared axes.
function chart({ id, label, a, b, xmax, ymax, caption }) {
  const w = 420, h = 160, pad = 24;
  const x = (v) => pad + (v * (w - 2 * pad)) / Math.max(1, xmax);
  const y = (v) => h - pad - (v * (h - 2 * pad)) / (ymax || 1);
  const root = svg("svg", { width: w, height: h, class: "compare-chart", id, "aria-label": label });
  root.append(svg("line", { x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, stroke: "#999" }));
  for (const [side, pts, dash] of [["a", a, ""], ["b", b, "5 4"]]) {
    const line = svg("polyline", { points: pts.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(" "),
      fill: "none", "stroke-width": 2, class: `curve curve-${side}`, stroke: side === "a" ? "#3d85c6" : "#c65d3d",
      "data-values": pts.map(([, py]) => py).join(",") });
    if (dash) line.setAttribute("stroke-dasharray", dash);
    root.append(line);
  }
  const text = svg("text", { x: pad, y: 14, "font-size": 12 });
  text.textContent = caption;
  root.append(text);
  return root;
}

const indexed = (values) => values.map((v, i) => [i, v]);

function diffusionChart(name, s, personas) {
  return chart({ id: `diffusion-${name}`, label: name, a: indexed(s.a), b: indexed(s.b),
    xmax: Math.max(s.a.length, s.b.length, 2) - 1, ymax: Math.max(1, personas),
    caption: `${name}: A ${s.a.at(-1) ?? 0}, B ${s.b.at(-1) ?? 0} of ${personas}` });
}

function densityChart(d) {
  const pts = (c) => c.hours.map((hr, i) => [hr, c.density[i]]);
  const last = (c) => num(c.density.at(-1) ?? 0, 3);
  return chart({ id: "density-chart", label: "network density", a: pts(d.a), b: pts(d.b),
    xmax: Math.max(1, ...d.a.hours, ...d.b.hours), ymax: 1,
    caption: `density: A ${last(d.a)}, B ${last(d.b)} (0 to 1, by game hour)` });
}

function table(head, rows, attrs = {}) {
  return el("table", { class: "compare-table", ...attrs }, [
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))),
  ]);
}

async function boot() {
  const inspectors = {
    a: new Inspector($("inspector"), { traceUrl: (seq) => `/api/runs/${encodeURIComponent(A)}/retrievals/${encodeURIComponent(seq)}` }),
    b: new Inspector($("inspector"), { traceUrl: (seq) => `/api/runs/${encodeURIComponent(B)}/retrievals/${encodeURIComponent(seq)}` }),
  };
  let r;
  try {
    r = await getJSON(`/api/compare/${encodeURIComponent(A)}/${encodeURIComponent(B)}`);
  } catch (err) {
    fill($("runs-info"), el("p", { class: "error" }, err.message));
    return;
  }
  const hours = (h) => String(+h.toFixed(2));
  const span = (x) => `${x.start.slice(0, 16)} → ${x.end.slice(0, 16)} (${hours(x.hours)} game hours)`;
  const fork = (p) => (p ? `, fork of ${p.run} after its tick ${p.tick} (${String(p.time || "").slice(0, 19)})` : "");
  const who = (side, x) => el("div", { class: "run-who", id: `run-${side.toLowerCase()}` }, [
    el("b", {}, `${side}: ${x.name}`), ` — ${x.condition}, seed ${x.seed}${fork(x.parent)}; ${span(r.span[side.toLowerCase()])}`]);
  const value = (v) => (v === null || v === undefined ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v));
  const [ha, hb] = [r.span.a.hours, r.span.b.hours];
  const [short, long] = ha < hb ? ["A", "B"] : ["B", "A"];
  fill($("runs-info"), [who("A", r.a), who("B", r.b),
    r.changed.length ? table(["what B changed", "A", "B"], r.changed.map((c) => [c.key, value(c.a), value(c.b)]), { id: "changed-rows" })
      : el("p", { id: "changed-none" }, "The two runs have the same configuration."),
    ha === hb ? null : el("p", { id: "span-note" }, `${short} ends ${hours(Math.abs(ha - hb))} game hours before ${long}: its curves stop at its end, and a gathering after its end was not seen.`)]);
  const d = r.first_divergence;
  $("divergence").dataset.tick = d ? d.tick : "";
  $("divergence").textContent = d ? `tick ${d.tick}${d.time ? ` (${d.time})` : ""}: ${d.what}` : "never";
  const personas = Object.keys(r.plans).length || 1;
  fill($("diffusion"), Object.entries(r.diffusion).map(([name, s]) => diffusionChart(name, s, Math.max(personas, ...s.a, ...s.b))));
  fill($("density"), densityChart(r.density));
  const unseen = { all: "", part: " (ended during it)", none: " (ended before it)" };
  const came = (x) => `${x.attended.length} / ${x.invited.length}${unseen[x.seen]}`;
  fill($("attendance"), table(["gathering", "A came / invited", "B came / invited"],
    Object.entries(r.attendance).map(([n, g]) => [n, came(g.a), came(g.b)]), { id: "attendance-rows" }));
  const ret = r.retrievals;
  const link = (side, seq) => el("a", { href: "#", class: "retrieval-link", data: { side, seq },
    onclick: (e) => { e.preventDefault(); inspectors[side].open(seq); } }, `${side.toUpperCase()} #${seq}`);
  fill($("retrievals"), [
    el("p", {}, `${ret.matched} matched, ${ret.identical} with the same top k, mean Jaccard ${num(ret.mean_jaccard)}`),
    table(["tick", "persona", "purpose", "what differs", "Jaccard", "A", "B"],
      ret.differing.map((x) => [String(x.tick), x.persona, x.purpose, x.differs === "order" ? "order only (same memories)" : "memories",
        num(x.jaccard, 2), link("a", x.a_seq), link("b", x.b_seq)]),
      { id: "retrieval-rows" }),
  ]);
  fill($("plans"), Object.entries(r.plans).flatMap(([pid, days]) => Object.entries(days).map(([day, p]) =>
    el("div", { class: "plan-pair" }, [el("h3", {}, `${pid} · ${day}`),
      table(["A", "B"], Array.from({ length: Math.max(p.a.length, p.b.length) }, (_, i) => [p.a[i] || "", p.b[i] || ""]))]))));
  fill($("cost"), table(["", "questions", "requests", "tokens in", "tokens out", "cache hits"],
    ["a", "b"].map((s) => [s.toUpperCase(), String(r.cost[s].questions), String(r.cost[s].requests), String(r.cost[s].tokens_in), String(r.cost[s].tokens_out), String(r.cost[s].cache_hits)])));
  document.body.dataset.ready = "1";
}

boot();
