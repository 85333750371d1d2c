// Evaluation charts (Park et al. 2023 §7): shares over game hours as small SVG line charts, and
// attendance. Diffusion: recalled when asked (solid) beside holding a memory (dashed, upper
// bound). Data from GET /api/runs/<name>/evaluation (town.analysis.evaluate.evaluate).

import { el, fill, num } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const COLORS = ["#e0607e", "#3d85c6", "#81b29a", "#f2a541", "#9b5de5", "#2a9d8f"];

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/**
 * A line chart of shares (0..1) over game hours.
 * @param {Array<{label: string, series: Array<{hour: number, share: number}>, color?: number, dashed?: boolean}>} lines
 * @param {{id: string, title: string, marker: ?number}} options marker: a game hour to mark (the scrubbed time)
 */
export function lineChart(lines, { id, title, marker = null }) {
  const W = 268, H = 120, L = 30, R = 8, T = 8, B = 20;
  const maxHour = Math.max(1, ...lines.flatMap((l) => l.series.map((p) => p.hour)));
  const x = (h) => L + (h / maxHour) * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", id, role: "img", "aria-label": title });
  for (const v of [0, 0.5, 1]) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: L - 4, y: y(v) + 3, class: "tick-label", "text-anchor": "end" }, `${Math.round(v * 100)}%`));
  }
  const step = maxHour > 24 ? 12 : maxHour > 8 ? 4 : 1;
  for (let h = 0; h <= maxHour; h += step) {
    root.append(svg("text", { x: x(h), y: H - 5, class: "tick-label", "text-anchor": "middle" }, `${h}h`));
  }
  lines.forEach((line, i) => {
    const d = line.series.map((p, j) => `${j ? "L" : "M"}${x(p.hour).toFixed(1)},${y(p.share).toFixed(1)}`).join(" ");
    const attrs = { d, class: "series", stroke: COLORS[(line.color ?? i) % COLORS.length], "data-label": line.label };
    if (line.dashed) attrs["stroke-dasharray"] = "4 3";
    root.append(svg("path", attrs));
  });
  if (marker !== null) root.append(svg("line", { x1: x(marker), x2: x(marker), y1: T, y2: H - B, class: "now-marker" }));
  return el("figure", { class: "chart-figure" }, [
    el("figcaption", {}, title),
    root,
    el("div", { class: "chart-legend" }, lines.map((l, i) => el("span", { class: "legend-item" }, [
      el("i", { class: "swatch", style: { background: COLORS[(l.color ?? i) % COLORS.length] } }), l.label]))),
  ]);
}

/** Fill `root` with the evaluation report's charts and attendance. */
export function renderEvaluation(root, report, names, marker = null) {
  const tags = Object.keys(report.diffusion || {});
  // Per probe: the share who recall it when asked (solid) and who hold a memory of it (dashed).
  const diffusion = tags.flatMap((t, i) => [
    { label: t.replace(/_/g, " "), series: report.diffusion[t].series, color: i },
    { label: `${t.replace(/_/g, " ")} (holds, upper bound)`, color: i, dashed: true,
      series: report.diffusion[t].series.map((p) => ({ hour: p.hour, share: p.bound_share })) },
  ]);
  const density = report.density ? [{ label: "density η", series: report.density.series }] : [];
  fill(root, [
    tags.length ? lineChart(diffusion, { id: "chart-diffusion", title: "Information diffusion (share who recall it when asked)", marker }) : el("p", { class: "muted" }, "no news items in this town"),
    el("ul", { class: "eval-facts" }, tags.map((t) => el("li", {}, [
      el("b", {}, t.replace(/_/g, " ")), `: ${report.diffusion[t].start_count} → ${report.diffusion[t].end_count} of ${report.diffusion[t].personas}`
        + ` recall it (${report.diffusion[t].bound.start_count} → ${report.diffusion[t].bound.end_count} hold a memory of it)`]))),
    density.length ? lineChart(density, { id: "chart-density", title: "Relationship network density", marker }) : null,
    report.density ? el("p", { class: "muted small" }, `η ${num(report.density.start, 2)} → ${num(report.density.end, 2)} (${report.density.edges_end} pairs who each know the other, by interview)`) : null,
    ...Object.entries(report.attendance || {}).map(([tag, a]) => el("p", { class: "small", id: `attendance-${tag}` }, [
      el("b", {}, `${tag.replace(/_/g, " ")}: `),
      `${a.invited.length} invited, ${a.attended.length} attended`,
      a.attended.length ? ` (${a.attended.map((p) => names[p] || p).join(", ")})` : "",
    ])),
  ]);
}
