// The live map: the static town plus personas (walking sprites with a badge, idle signs, action
// labels, speech bubbles), smooth movement between frames, following a persona, and
// clicking/hovering. Every label drawn is laid out so that none overlaps another; the boxes of
// the last drawing are kept in `drawnLabels` (and on window.townLabels, for tests).
//
// A drawing repaints only what changed: while the view and the labels stay as they were, only
// the boxes of personas that changed, move, or animate (and what overlaps them) are painted
// again; a new view, new labels, or changes over most of the town repaint all of it. With more
// than ANIMATED_SIGNS idle signs on the canvas, the signs stand still (so a sleeping town costs
// nothing to keep on screen). In a town of more than CROWDED personas, walkers may be drawn as
// small as 5 px, without their initials badge, so that a whole-town view is not a heap of them.

import { drawTownLabel, fitText, layoutLabels, overlaps, placeAt, renderTown } from "./townscape.js";
import { initials, personaColor, shownEmoji, shownName } from "./dom.js";
import { drawIdleSign, drawWalker, facingOf, idleSign } from "./sprites.js";

const FONT = '"Segoe UI", "Helvetica Neue", Helvetica, Arial, sans-serif';
const FOLLOW_ZOOM = 2.2;
const PAD = 14; // px around the whole-town view
const SPEECH_MS = 3500; // a line stays readable this long (wall ms), however fast the town runs
const STEP_MS = 260; // one walking cycle (two steps), wall ms
const IDLE_FPS = 12; // redraws per second when only idle signs move
const ANIMATED_SIGNS = 80; // above this many idle signs in view, they stand still
const CROWDED = 250; // above this many personas, walkers may be drawn smaller (and without badges)

export class TownMap {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {object} map TileMap.to_dict() from /api/town
   * @param {Array<object>} personas persona identities ({id, name, emoji, ...})
   * @param {{onPick: function(string), onTile?: function(number, number), tip: HTMLElement}} options
   *   onTile(x, y) gets clicks on a tile where no persona stands
   */
  constructor(canvas, map, personas, { onPick, onTile, tip }) {
    this.canvas = canvas;
    this.map = map;
    this.personas = personas;
    this.colors = Object.fromEntries(personas.map((p, i) => [p.id, personaColor(p.id, i)]));
    this.state = {};      // id -> {x, y, fromX, fromY, t0, facing, action, emoji, said, saidUntil, ...}
    this.follow = "";
    this.selected = "";
    this.hovered = "";
    this.moveMs = 125;
    this.cache = null;
    this.dirty = true;
    this.movingUntil = 0;
    this.lastDraw = 0;
    this.drawnLabels = [];
    this.drawn = {};      // id -> {x, y} in tiles, as last drawn
    this.boxes = {};      // id -> {x, y, w, h} in CSS px: what its sprite covered when last drawn
    this.touched = new Set(); // ids whose look changed since the last drawing
    this.speakers = new Set(); // ids whose frame entry has a line (speech) now
    this.last = null;     // the view and labels of the last drawing
    this.stats = { draws: 0, partial: 0, frames: 0, framesDrawn: 0, ms: 0 }; // for benchmarks/viewer.py
    this.onPick = onPick;
    this.onTile = onTile;
    this.tip = tip;
    window.townMap = this; // the page's map, for tests and the browser console
    canvas.addEventListener("click", (e) => this.click(e));
    canvas.addEventListener("mousemove", (e) => this.hover(e));
    canvas.addEventListener("mouseleave", () => { this.tip.hidden = true; this.setHovered(""); });
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
    const loop = () => {
      const now = performance.now();
      if (this.dirty || now < this.movingUntil + 40 || this.speaking() || (this.animating && now - this.lastDraw > 1000 / IDLE_FPS)) this.draw();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  /** Add a persona (the player) after the start. */
  addPersona(identity) {
    if (this.personas.some((p) => p.id === identity.id)) return;
    this.personas.push(identity);
    this.colors[identity.id] = identity.color || personaColor(identity.id, this.personas.length - 1);
    this.identity = null;
    this.dirty = true;
  }

  resize() {
    const box = this.canvas.parentElement.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.fit = Math.max(4, Math.min((box.width - 2 * PAD) / this.map.width, (box.height - 2 * PAD) / this.map.height));
    this.canvas.style.width = `${Math.floor(box.width)}px`;
    this.canvas.style.height = `${Math.floor(box.height)}px`;
    this.canvas.width = Math.floor(box.width * dpr);
    this.canvas.height = Math.floor(box.height * dpr);
    this.dpr = dpr;
    this.cssW = Math.floor(box.width); this.cssH = Math.floor(box.height);
    this.last = null; // setting the canvas size cleared it: the next drawing repaints everything
    this.dirty = true;
  }

  /** Wall ms between frames at the current speed (ticks per second), for smooth movement. */
  setSpeed(ticksPerSecond) {
    this.moveMs = ticksPerSecond ? Math.min(400, 1000 / ticksPerSecond) : 40;
  }

  /** Take a frame's persona entries as the new targets (animate: glide there, else jump); the
   * personas not in it stay as they are, except those in `frame.gone`, which leave. */
  setFrame(frame, animate = true) {
    const now = performance.now();
    for (const id of frame.gone || []) { delete this.state[id]; this.touched.add(id); }
    for (const [id, p] of Object.entries(frame.personas || {})) {
      const old = this.state[id];
      const pos = old && animate ? this.position(id, now) : { x: p.x, y: p.y };
      const said = p.speech ? { said: p.speech, saidUntil: now + SPEECH_MS } : { said: old && old.said, saidUntil: old ? old.saidUntil : 0 };
      const facing = facingOf(p.x - pos.x, p.y - pos.y) || (old && old.facing) || "down";
      this.state[id] = { ...p, ...said, facing, fromX: pos.x, fromY: pos.y, t0: now };
      this.touched.add(id);
      if (p.speech) this.speakers.add(id);
    }
    // a line still being said stays readable, as when every frame carried it
    for (const id of this.speakers) {
      const p = this.state[id];
      if (p && p.speech) p.saidUntil = now + SPEECH_MS; else this.speakers.delete(id);
    }
    this.movingUntil = now + this.moveMs + 20;
    this.dirty = true;
    this.stats.frames += 1;
    this.newFrame = true;
  }

  setFollow(id) { this.touch(this.follow, id); this.follow = id || ""; }
  setSelected(id) { this.touch(this.selected, id); this.selected = id || ""; }
  setHovered(id) { if (this.hovered !== (id || "")) { this.touch(this.hovered, id); this.hovered = id || ""; } }

  /** Mark personas whose look changes (a ring, a label) for the next drawing. */
  touch(...ids) {
    for (const id of ids) if (id) this.touched.add(id);
    this.dirty = true;
  }

  /** A persona's identity by id (the persona list, indexed once). */
  who(id) {
    if (!this.identity) this.identity = new Map(this.personas.map((p) => [p.id, p]));
    return this.identity.get(id) || {};
  }

  position(id, now) {
    const p = this.state[id];
    const t = Math.min(1, (now - p.t0) / this.moveMs);
    return { x: p.fromX + (p.x - p.fromX) * t, y: p.fromY + (p.y - p.fromY) * t };
  }

  /** The view: scale (px per tile) and offset (px) in CSS pixels. */
  view(now) {
    const s = this.follow && this.state[this.follow] ? this.fit * FOLLOW_ZOOM : this.fit;
    const W = this.map.width * s, H = this.map.height * s;
    let ox = (this.cssW - W) / 2, oy = (this.cssH - H) / 2;
    if (s !== this.fit) {
      const c = this.position(this.follow, now);
      ox = Math.min(0, Math.max(this.cssW - W, this.cssW / 2 - (c.x + 0.5) * s));
      oy = Math.min(0, Math.max(this.cssH - H, this.cssH / 2 - (c.y + 0.5) * s));
    }
    return { s, ox, oy };
  }

  /** Personas whose action label shows: followed, selected, hovered, or speaking now. */
  focused(id, now) {
    const p = this.state[id];
    return id === this.follow || id === this.selected || id === this.hovered || (p.said && now <= p.saidUntil);
  }

  draw() {
    this.dirty = false;
    const t0 = performance.now();
    const now = t0;
    this.lastDraw = now;
    const { s, ox, oy } = this.view(now);
    if (!this.cache || this.cache.s !== s || this.cache.dpr !== this.dpr) {
      this.cache = { s, dpr: this.dpr, image: renderTown(this.map, s, this.dpr), labels: layoutLabels(this.map, s) };
    }
    const ctx = this.canvas.getContext("2d");
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    const order = this.personas.map((p) => p.id).filter((id) => this.state[id]);
    const spots = order.map((id) => ({ id, ...this.position(id, now) }));
    this.drawn = Object.fromEntries(spots.map((p) => [p.id, { x: p.x, y: p.y }]));
    // lay out first (speech, then action labels, then the town's names), draw after
    const placed = [];
    const bubbles = spots.map((spot) => this.bubbleBox(ctx, spot, s, ox, oy, placed, now)).filter(Boolean);
    const labels = spots.filter((spot) => this.focused(spot.id, now))
      .map((spot) => this.labelBox(ctx, spot, s, ox, oy, placed)).filter(Boolean);
    const town = [];
    for (const label of this.cache.labels) {
      const box = { ...label, x: label.x + ox, y: label.y + oy };
      if (box.x + box.w < 0 || box.y + box.h < 0 || box.x > this.cssW || box.y > this.cssH) continue;
      if (overlaps(box, placed)) continue; // a speech bubble or a label is over it now
      town.push(box);
    }
    const drawnLabels = [...town.map((b) => ({ kind: b.kind, text: b.text, x: b.x, y: b.y, w: b.w, h: b.h })),
      ...labels.map((b) => ({ kind: "action", id: b.id, text: b.text, x: b.x, y: b.y, w: b.w, h: b.h })),
      ...bubbles.map((b) => ({ kind: "speech", id: b.id, text: b.lines.join(" "), x: b.x, y: b.y, w: b.w, h: b.h }))];
    // idle signs animate while few are in view; many stand still
    const signs = spots.filter((spot) => this.signOf(spot.id) && this.inView(ox + (spot.x + 0.5) * s, oy + (spot.y + 0.5) * s));
    this.animating = signs.length > 0 && signs.length <= ANIMATED_SIGNS;
    const view = { s, ox, oy, w: this.cssW, h: this.cssH, image: this.cache.image, labels: JSON.stringify(drawnLabels), animating: this.animating };
    const boxes = Object.fromEntries(spots.map((spot) => [spot.id, this.spriteBox(spot, s, ox, oy)]));
    const clip = this.changedBoxes(view, spots, boxes, now);
    const inClip = (box) => !clip || clip.some((c) => box.x < c.x + c.w && c.x < box.x + box.w && box.y < c.y + c.h && c.y < box.y + box.h);
    ctx.save();
    if (clip) {
      ctx.beginPath();
      for (const c of clip) ctx.rect(c.x, c.y, c.w, c.h);
      ctx.clip();
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.backdrop(view, town), 0, 0);
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    const sorted = spots.filter((spot) => inClip(boxes[spot.id])).sort((a, b) => a.y - b.y); // nearer (lower) people in front
    for (const spot of sorted) this.sprite(ctx, spot, s, ox, oy, now);
    for (const box of labels) if (inClip(box)) this.drawLabel(ctx, box);
    for (const box of bubbles) if (inClip(box)) this.drawBubble(ctx, box);
    ctx.restore();
    this.drawnLabels = drawnLabels;
    this.boxes = boxes;
    this.last = view;
    this.touched.clear();
    this.stats.draws += 1;
    if (clip) this.stats.partial += 1;
    if (this.newFrame) { this.stats.framesDrawn += 1; this.newFrame = false; }
    this.stats.ms += performance.now() - t0;
  }

  /** The ground, the town image and the town's name labels of a view, painted once per view. */
  backdrop(view, town) {
    const key = [view.s, view.ox, view.oy, view.w, view.h, this.dpr, JSON.stringify(town.map((b) => [b.text, b.x, b.y]))].join("|");
    if (this.ground && this.ground.key === key && this.ground.image === view.image) return this.ground.canvas;
    const canvas = (this.ground && this.ground.canvas) || document.createElement("canvas");
    canvas.width = this.canvas.width; canvas.height = this.canvas.height;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = "#a9cf8f";
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    ctx.drawImage(view.image, view.ox, view.oy, this.map.width * view.s, this.map.height * view.s);
    for (const box of town) drawTownLabel(ctx, box, 0, 0);
    this.ground = { key, image: view.image, canvas };
    return canvas;
  }

  /**
   * The boxes to repaint (CSS px), or null to repaint everything: each changed, moving or
   * animated persona's box as last drawn and as drawn now, while the view and labels stay.
   */
  changedBoxes(view, spots, boxes, now) {
    const last = this.last;
    if (!last || ["s", "ox", "oy", "w", "h", "image", "labels", "animating"].some((k) => last[k] !== view[k])) return null;
    const clip = [];
    const add = (box) => { if (box) clip.push(box); };
    for (const spot of spots) {
      const p = this.state[spot.id];
      const moving = now < p.t0 + this.moveMs + 40 && (p.x !== p.fromX || p.y !== p.fromY);
      if (this.touched.has(spot.id) || moving || p.kind === "walk" || (this.animating && this.signOf(spot.id))) {
        add(this.boxes[spot.id]);
        add(boxes[spot.id]);
      }
    }
    for (const id of this.touched) if (!boxes[id]) add(this.boxes[id]); // gone
    return clip.length > spots.length ? null : clip;
  }

  /** The idle sign a persona shows now ("sleep", "steam" or null). */
  signOf(id) {
    const p = this.state[id];
    return idleSign(p.kind, p.action, p.emoji);
  }

  /** What a sprite at `spot` covers (CSS px): the walker, its ring, badge and idle sign. */
  spriteBox({ x, y }, s, ox, oy) {
    const r = this.radius(s);
    const cx = ox + (x + 0.5) * s, feetY = oy + (y + 0.5) * s + r * 0.8;
    const left = cx - r * 1.2 - 4, top = feetY - r * 5.8 - 6;
    return { x: left, y: top, w: (cx + r * 2.2 + 8) - left, h: (feetY + r * 0.5 + 4) - top };
  }

  /** A walker's size in CSS px: at least 9 px, or 5 px in a town of more than CROWDED personas. */
  radius(s) { return Math.max(this.personas.length > CROWDED ? 5 : 9, s * 0.75); }

  sprite(ctx, { id, x, y }, s, ox, oy, now) {
    const p = this.state[id];
    const persona = this.who(id);
    const r = this.radius(s);
    const cx = ox + (x + 0.5) * s, feetY = oy + (y + 0.5) * s + r * 0.8;
    const walking = now < p.t0 + this.moveMs && (p.x !== p.fromX || p.y !== p.fromY);
    const { top } = drawWalker(ctx, cx, feetY, r, {
      id, color: this.colors[id], facing: p.facing, walking: walking || p.kind === "walk",
      phase: ((now - p.t0) / STEP_MS) % 1, badge: r >= 7 ? initials(shownName({ id, ...persona })) : null,
      ring: id === this.selected || id === this.follow,
    });
    const sign = idleSign(p.kind, p.action, p.emoji);
    if (sign && !walking) drawIdleSign(ctx, sign, cx, top, r, this.animating ? now : 0);
  }

  /** Free spots for a box of w x h near a persona at (cx, headY)..(feetY), in order of preference. */
  near(cx, headY, feetY, w, h) {
    const left = cx - w / 2;
    return [[left, headY - h - 6], [cx + 8, headY - h - 2], [cx - w - 8, headY - h - 2], [left, feetY + 4],
      [cx + 12, headY], [cx - w - 12, headY], [left, headY - 2 * h - 10], [left, feetY + h + 8]];
  }

  /** Place `box` (w, h set) at the first candidate inside the canvas that overlaps nothing placed. */
  place(box, candidates, placed) {
    for (const [x0, y0] of candidates) {
      const x = Math.max(2, Math.min(this.cssW - box.w - 2, x0));
      const y = Math.max(2, Math.min(this.cssH - box.h - 2, y0));
      if (!overlaps({ ...box, x, y }, placed)) {
        Object.assign(box, { x, y });
        placed.push(box);
        return box;
      }
    }
    return null; // nowhere free: not drawn this time
  }

  labelBox(ctx, { id, x, y }, s, ox, oy, placed) {
    const p = this.state[id];
    const persona = this.who(id);
    const text = `${shownName({ id, ...persona })}: ${shownEmoji(p.emoji)} ${p.action || ""}`.replace(/\s+/g, " ").trim();
    const fit = fitText(ctx, text, 190, 11, 9, "500");
    ctx.font = `500 ${fit.px}px ${FONT}`;
    const r = this.radius(s), cx = ox + (x + 0.5) * s, base = oy + (y + 0.5) * s;
    if (!this.inView(cx, base)) return null;
    const box = { id, text: fit.text, px: fit.px, w: ctx.measureText(fit.text).width + 10, h: fit.px + 7 };
    return this.place(box, [[cx - box.w / 2, base + r * 0.8 + 4], ...this.near(cx, base - r * 1.6, base + r, box.w, box.h)], placed);
  }

  drawLabel(ctx, box) {
    ctx.font = `500 ${box.px}px ${FONT}`;
    ctx.fillStyle = "rgba(255, 255, 255, 0.92)";
    ctx.strokeStyle = this.colors[box.id]; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.roundRect(box.x, box.y, box.w, box.h, 6); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#2f2a22"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(box.text, box.x + box.w / 2, box.y + box.h / 2 + 0.5);
  }

  bubbleBox(ctx, { id, x, y }, s, ox, oy, placed, now) {
    const { said: speech, saidUntil } = this.state[id];
    if (!speech || now > saidUntil) return null;
    ctx.font = `400 12px ${FONT}`;
    const lines = wrap(ctx, String(speech), 190, 3);
    const box = { id, lines, w: Math.max(...lines.map((l) => ctx.measureText(l).width)) + 16, h: lines.length * 15 + 10 };
    const r = this.radius(s), cx = ox + (x + 0.5) * s, base = oy + (y + 0.5) * s;
    if (!this.inView(cx, base)) return null; // a speaker out of sight has no bubble
    box.tipX = cx; box.tipY = base - r * 1.7;
    return this.place(box, this.near(cx, base - r * 1.7, base + r, box.w, box.h), placed);
  }

  drawBubble(ctx, box) {
    ctx.fillStyle = "#ffffff"; ctx.strokeStyle = "rgba(60, 50, 40, 0.5)"; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.roundRect(box.x, box.y, box.w, box.h, 9); ctx.fill(); ctx.stroke();
    // a tail from the nearest edge towards the speaker's head
    const ex = Math.max(box.x + 8, Math.min(box.x + box.w - 8, box.tipX));
    const ey = box.tipY < box.y ? box.y + 0.5 : box.y + box.h - 0.5;
    ctx.beginPath(); ctx.moveTo(ex - 5, ey); ctx.lineTo(box.tipX, box.tipY); ctx.lineTo(ex + 5, ey); ctx.fill();
    ctx.fillStyle = "#2b2620"; ctx.textAlign = "left"; ctx.textBaseline = "top"; ctx.font = `400 12px ${FONT}`;
    box.lines.forEach((line, i) => ctx.fillText(line, box.x + 8, box.y + 6 + i * 15));
  }

  /** Whether the point (x, y) in CSS px is on the canvas. */
  inView(x, y) { return x >= 0 && y >= 0 && x <= this.cssW && y <= this.cssH; }

  /** Whether a speech bubble is showing (it must disappear on time). */
  speaking() {
    const now = performance.now();
    return Object.values(this.state).some((p) => p.said && now <= p.saidUntil + 50);
  }

  toTile(event) {
    const rect = this.canvas.getBoundingClientRect();
    const { s, ox, oy } = this.view(performance.now());
    return { x: (event.clientX - rect.left - ox) / s, y: (event.clientY - rect.top - oy) / s, s };
  }

  personaAt(event) {
    const { x, y, s } = this.toTile(event);
    const now = performance.now();
    const reach = Math.max(0.9, 10 / s);
    let best = null, bestD = reach;
    for (const id of Object.keys(this.state)) {
      const p = this.position(id, now);
      const d = Math.hypot(p.x + 0.5 - x, p.y + 0.5 - y);
      if (d < bestD) { best = id; bestD = d; }
    }
    return best;
  }

  click(event) {
    const id = this.personaAt(event);
    if (id) this.onPick(id);
    else if (this.onTile) {
      const { x, y } = this.toTile(event);
      this.onTile(Math.floor(x), Math.floor(y));
    }
  }

  hover(event) {
    const id = this.personaAt(event);
    const { x, y } = this.toTile(event);
    this.setHovered(id);
    const label = id ? shownName(this.personas.find((p) => p.id === id) || { id }) : placeAt(this.map, Math.floor(x), Math.floor(y));
    this.canvas.style.cursor = id ? "pointer" : "default";
    if (!label) { this.tip.hidden = true; return; }
    this.tip.textContent = label;
    this.tip.style.left = `${event.offsetX + 14}px`;
    this.tip.style.top = `${event.offsetY + 10}px`;
    this.tip.hidden = false;
  }
}

/** Word-wrap `text` to at most `maxLines` lines of `maxWidth` px (last one cut with "…"). */
function wrap(ctx, text, maxWidth, maxLines) {
  const words = text.split(/\s+/);
  const lines = [];
  let line = "";
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width <= maxWidth || !line) line = next;
    else { lines.push(line); line = word; }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    let last = lines[maxLines - 1];
    while (last.length > 1 && ctx.measureText(last + "…").width > maxWidth) last = last.slice(0, -1);
    lines[maxLines - 1] = last + "…";
  }
  return lines;
}
