// "Around town": the live feed of what happens, newest first, in three groups a viewer can show or
// hide: talk (lines said, conversations ended: a click opens the transcript), recall (the
// retrievals behind decisions: a click opens the inspector) and news (reflections, procedures,
// whispers, scenario events, the runner's state). A page opened mid-run starts with the last game
// hour (GET /api/feed); items are kept in event order whatever order they arrive in.

import { el, gameTime } from "./dom.js";

const KEPT = 200; // items kept in the list
export const GROUPS = [["talk", "Talk"], ["recall", "Retrievals"], ["news", "Other"]];

/** The group of an activity item: "talk" | "recall" | "news", or null when the feed leaves it out. */
export function groupOf(item) {
  if (item.kind === "chat" || item.kind === "conversation") return "talk";
  if (item.kind === "retrieval") return item.purpose === "act" ? null : "recall";
  // an outside input: a player's arrival and departure are news (its lines are chat, its walks frames)
  if (item.kind === "input") return item.ok && ["join", "leave"].includes(item.input?.kind) ? "news" : null;
  return ["reflection", "procedure", "scenario", "whisper", "status"].includes(item.kind) ? "news" : null;
}

export class Feed {
  /**
   * @param {HTMLOListElement} list the feed's list
   * @param {HTMLElement} filters where the group checkboxes go
   * @param {function(string): string} nameOf persona id -> name
   * @param {{onRetrieval: function(number), onConversation: function(number)}} handlers
   */
  constructor(list, filters, nameOf, { onRetrieval, onConversation }) {
    this.list = list;
    this.nameOf = nameOf;
    this.onRetrieval = onRetrieval;
    this.onConversation = onConversation;
    this.seen = new Set();
    for (const [group, label] of GROUPS) {
      const box = el("input", { type: "checkbox", id: `feed-${group}`, data: { group } });
      box.checked = group !== "recall";
      list.classList.toggle(`hide-${group}`, !box.checked);
      box.addEventListener("change", () => list.classList.toggle(`hide-${group}`, !box.checked));
      filters.append(el("label", { class: `feed-filter feed-filter-${group}` }, [box, label]));
    }
  }

  /** Add activity items (any order; each seq once), keeping the newest KEPT. */
  add(items) {
    for (const item of items) {
      if (this.seen.has(item.seq)) continue;
      if (this.sharedLesson(item)) { this.seen.add(item.seq); continue; }
      const node = this.node(item);
      if (!node) continue;
      this.seen.add(item.seq);
      // newest first: before the first item older than this one (most often the first of all)
      const first = this.list.firstElementChild;
      const later = !first || Number(first.dataset.seq) < item.seq ? first
        : [...this.list.children].find((li) => Number(li.dataset.seq) < item.seq);
      this.list.insertBefore(node, later || null);
    }
    while (this.list.children.length > KEPT) {
      this.seen.delete(Number(this.list.lastChild.dataset.seq));
      this.list.lastChild.remove();
    }
  }

  /** A lesson saved to a persona's library and shared with the town's: one line naming both. */
  sharedLesson(item) {
    if (item.kind !== "procedure" || item.op !== "save" || item.library !== "town") return false;
    const own = this.list.querySelector(`li[data-saved="${CSS.escape(`${item.persona}@${item.tick}`)}"]`);
    if (!own) return false;
    own.querySelector(".content").textContent += `; shared with the town as “${item.name}”`;
    delete own.dataset.saved;
    return true;
  }

  node(item) {
    const group = groupOf(item);
    if (!group) return null;
    const who = this.nameOf(item.persona) || "town";
    let text, onclick;
    if (item.kind === "chat") {
      text = [el("b", { class: "speaker" }, this.nameOf(item.speaker)), ` → ${this.nameOf(item.listener)}: `, el("q", {}, item.line)];
      onclick = () => this.onConversation(item.conversation);
    } else if (item.kind === "conversation") {
      text = `${(item.participants || []).map((p) => this.nameOf(p)).join(" & ")}: conversation ended`;
      onclick = () => this.onConversation(item.conversation);
    } else if (item.kind === "retrieval") {
      text = `${who} recalled for ${item.purpose}: “${item.query}”`;
      onclick = () => this.onRetrieval(item.seq);
    } else if (item.kind === "reflection") text = `${who} reflected`;
    else if (item.kind === "procedure") text = procedureText(item, who);
    else if (item.kind === "scenario" || item.kind === "whisper") text = `${item.kind}: ${item.text || item.summary || ""}`;
    else if (item.kind === "input") text = item.input.kind === "join" ? `${item.input.name} joined the town` : `${who} left the town`;
    else text = `runner ${item.state}${item.reason ? ` (${item.reason})` : ""}`;
    const t = gameTime(item.time).clock.slice(0, 5);
    const saved = item.kind === "procedure" && item.op === "save" && item.library !== "town" ? { saved: `${item.persona}@${item.tick}` } : {};
    return el("li", { class: `act act-${item.kind} grp-${group}${onclick ? " clickable" : ""}`,
      data: { seq: item.seq, conversation: item.conversation ?? "", ...saved }, onclick, title: onclick ? clickTitle(item) : null },
    [el("span", { class: "when" }, t), el("span", { class: "content" }, text)]);
  }
}

function clickTitle(item) {
  return item.kind === "retrieval" ? "open this retrieval: every memory it scored" : "open the whole conversation";
}

/** One feed line for a procedure event, naming the library it is about. */
export function procedureText(item, who) {
  const lib = item.library === "town" ? "the town library" : "own library";
  const name = `“${item.name}”`;
  if (item.op === "save" && item.library === "town") return `${who} shared ${name} with the town`;
  if (item.op === "save") return `${who} learned ${name}${item.merged ? " (merged with a similar one)" : ""}`;
  const part = item.via ? ` as part of “${item.via}”` : "";
  if (item.op === "use") return `${who} follows ${name} from ${lib}${part}`;
  if (item.op === "outcome") return `${who}: ${name} from ${lib}${part} — ${item.result}`;
  if (item.op === "deviation") return `${who} did not follow ${name} from ${lib}: ${item.reason}`;
  if (item.op === "prune") return `${name} was dropped from ${item.library === "town" ? "the town library" : `${who}'s library`}`;
  return `${who}: procedure ${item.op} ${name} (${lib})`;
}
