// The procedures tab (docs/design, §2): a procedure library as cards: name, `when`, steps (a step that
// is another procedure expands in place), successes and failures, a reliability bar with the
// retrieval threshold (0.6) marked, the status (active / below threshold / pruned) and a timeline
// of its uses and outcomes. Data from /api/procedures or /api/runs/<name>/procedures.

import { el, fill, gameTime, hhmm, num } from "./dom.js";

const OP_LABELS = { save: "saved", use: "used", outcome: "outcome", deviation: "deviation", prune: "pruned" };

/**
 * Render `procedures` (one library) into `root`.
 * @param {HTMLElement} root
 * @param {Array<object>} procedures ProcedureLibrary.describe() dicts with `history`
 * @param {{threshold: number, empty: string, previous: HTMLElement|null}} options `previous`: the
 *   drawing this one replaces (default `root`), whose opened steps stay open
 */
export function renderLibrary(root, procedures, { threshold = 0.6, empty = "no procedures learned yet", previous = root } = {}) {
  if (!procedures.length) {
    fill(root, el("p", { class: "muted" }, empty));
    return;
  }
  const byName = Object.fromEntries(procedures.map((p) => [p.name, p]));
  // A step the reader opened stays open when the library is drawn again (a new tick, a late answer).
  const opened = new Set([...(previous || root).querySelectorAll("details[open][data-path]")].map((d) => d.dataset.path));
  fill(root, el("div", { class: "procedures" }, procedures.map((p) => card(p, byName, threshold, opened))));
}

function card(p, byName, threshold, opened) {
  const line = p.threshold ?? threshold;
  const reliability = Number(p.reliability) || 0;
  return el("article", {
    class: `procedure status-${String(p.status).replace(/\s+/g, "-")}`,
    data: { name: p.name, reliability, status: p.status },
  }, [
    el("header", { class: "proc-head" }, [
      el("h4", { class: "proc-name" }, p.name),
      el("span", { class: "proc-status", title: p.pruned ? `pruned: ${p.pruned}` : "" }, p.status),
    ]),
    p.when && p.when !== p.name ? el("p", { class: "proc-when" }, [el("span", { class: "muted" }, "when: "), p.when]) : null,
    el("div", { class: "reliability", title: `Laplace reliability (s+1)/(s+f+2) = ${num(reliability, 2)}; retrieved at ≥ ${line}` }, [
      el("div", { class: "rel-track" }, [
        el("div", { class: "rel-fill", style: { width: `${Math.round(reliability * 100)}%` } }),
        el("div", { class: "rel-threshold", style: { left: `${line * 100}%` }, title: `threshold ${line}` }),
      ]),
      el("span", { class: "rel-value" }, num(reliability, 2)),
      el("span", { class: "rel-counts muted" }, `${p.successes} ✓ · ${p.failures} ✗`),
    ]),
    steps(p.steps || [], byName, [p.name], opened),
    timeline(p.history || []),
    el("p", { class: "proc-dates muted small" }, [
      `saved ${stamp(p.created)}`, p.last_used ? ` · last used ${stamp(p.last_used)}` : "",
      p.pruned_at ? ` · pruned ${stamp(p.pruned_at)} (${p.pruned})` : "",
    ]),
  ]);
}

function stamp(time) {
  const t = gameTime(time);
  return `${t.day.split(" ").slice(1, 3).join(" ")} ${t.clock.slice(0, 5)}`;
}

/** The ordered steps; a step naming another procedure expands (once per path: cycles stop).
 * `path`: the procedure names from the card's down to this list's; `opened`: the paths of the
 * expansions open before this drawing ("composite › part › 0", with the step's index). */
function steps(list, byName, path, opened) {
  return el("ol", { class: "proc-steps" }, list.map((s, i) => {
    if (s.procedure) {
      const inner = byName[s.procedure];
      if (!inner || path.includes(s.procedure)) {
        return el("li", { class: "step-proc" }, [el("span", { class: "badge" }, "procedure"), ` ${s.procedure}`,
          inner ? el("span", { class: "error" }, " (cycle)") : el("span", { class: "muted" }, " (not in this library)")]);
      }
      const key = [...path, s.procedure, i].join(" › ");
      return el("li", { class: "step-proc" }, el("details", { data: { path: key }, open: opened.has(key) ? "" : null }, [
        el("summary", {}, [el("span", { class: "badge" }, "procedure"), ` ${s.procedure}`]),
        steps(inner.steps || [], byName, [...path, s.procedure], opened),
      ]));
    }
    return el("li", {}, [
      el("span", { class: "step-text" }, s.description),
      s.minutes ? el("span", { class: "muted" }, ` · ${s.minutes} min`) : null,
      s.object ? el("div", { class: "step-object muted small" }, s.object.split(":").slice(1).join(" › ")) : null,
    ]);
  }));
}

/** The uses as a row of chips, oldest first: use, outcome ✓/✗, deviation, save, prune. */
function timeline(history) {
  if (!history.length) return null;
  return el("ol", { class: "proc-timeline", title: "uses over game time" }, history.map((h) => {
    const ok = h.op === "outcome" ? (h.result === "success" ? "ok" : h.counted === false ? "uncounted" : "failed") : "";
    const label = h.op === "outcome" ? (ok === "ok" ? "✓" : ok === "failed" ? "✗" : "·") : OP_LABELS[h.op] || h.op;
    const tip = [`${stamp(h.time)} ${h.op}`, h.via && `as part of ${h.via}`, h.result, h.reason, h.task && `task: ${h.task}`, h.rule]
      .filter(Boolean).join(" · ");
    return el("li", { class: `chip op-${h.op} ${ok}`, title: tip, data: { tick: h.tick } }, [
      el("span", { class: "when" }, hhmm(h.time)), " ", label,
    ]);
  }));
}
