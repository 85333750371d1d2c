// The live map: the static town plus personas (markers, action labels, speech bubbles),
// smooth movement between frames, following a persona, and clicking/hovering.

import { fitText, placeAt, renderTown } from "./townscape.js";
import { initials, personaColor, shownEmoji, shownName } from "./dom.js";

const FONT = '"Segoe UI", "Helvetica Neue", Helvetica, Arial, sans-serif';
const FOLLOW_ZOOM = 2.2;
const PAD = 14; // px around the whole-town view
const SPEECH_MS = 3500; // a line stays readable this long (wall ms), however fast the town runs

export class TownMap {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {object} map TileMap.to_dict() from /api/town
   * @param {Array<object>} personas persona identities ({id, name, emoji, ...})
   * @param {{onPick: function(string), tip: HTMLElement}} options
   */
  constructor(canvas, map, personas, { onPick, tip }) {
    this.canvas = canvas;
    this.map = map;
    this.personas = personas;
    this.colors = Object.fromEntries(personas.map((p, i) => [p.id, personaColor(p.id, i)]));
    this.state = {};      // id -> {x, y, fromX, fromY, t0, action, emoji, speech, address}
    this.follow = "";
    this.selected = "";
    this.moveMs = 125;
    this.cache = null;
    this.dirty = true;
    this.movingUntil = 0;
    this.onPick = onPick;
    this.tip = tip;
    canvas.addEventListener("click", (e) => this.click(e));
    canvas.addEventListener("mousemove", (e) => this.hover(e));
    canvas.addEventListener("mouseleave", () => { this.tip.hidden = true; });
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
    const loop = () => {
      if (this.dirty || performance.now() < this.movingUntil || this.speaking()) this.draw();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
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
    this.cssW = box.width; this.cssH = box.height;
    this.dirty = true;
  }

  /** Seconds between frames at the current speed (for smooth movement). */
  setSpeed(ticksPerSecond) {
    this.moveMs = ticksPerSecond ? Math.min(400, 1000 / ticksPerSecond) : 40;
  }

  /** Take a frame's persona entries as the new targets (animate: glide there, else jump). */
  setFrame(frame, animate = true) {
    const now = performance.now();
    for (const [id, p] of Object.entries(frame.personas || {})) {
      const old = this.state[id];
      const pos = old && animate ? this.position(id, now) : { x: p.x, y: p.y };
      const said = p.speech ? { said: p.speech, saidUntil: now + SPEECH_MS } : { said: old && old.said, saidUntil: old ? old.saidUntil : 0 };
      this.state[id] = { ...p, ...said, fromX: pos.x, fromY: pos.y, t0: now };
    }
    this.movingUntil = now + this.moveMs + 20;
    this.dirty = true;
  }

  setFollow(id) { this.follow = id || ""; this.dirty = true; }
  setSelected(id) { this.selected = id || ""; this.dirty = true; }

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

  draw() {
    this.dirty = false;
    const now = performance.now();
    const { s, ox, oy } = this.view(now);
    if (!this.cache || this.cache.s !== s || this.cache.dpr !== this.dpr) {
      this.cache = { s, dpr: this.dpr, image: renderTown(this.map, s, this.dpr) };
    }
    const ctx = this.canvas.getContext("2d");
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = "#a9cf8f";
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    ctx.drawImage(this.cache.image, ox, oy, this.map.width * s, this.map.height * s);
    const placed = [];
    const order = this.personas.map((p) => p.id).filter((id) => this.state[id]);
    const spots = order.map((id) => ({ id, ...this.position(id, now) }));
    for (const spot of spots) this.marker(ctx, spot, s, ox, oy);
    for (const spot of spots) this.actionLabel(ctx, spot, s, ox, oy, placed);
    for (const spot of spots) this.bubble(ctx, spot, s, ox, oy, placed);
  }

  marker(ctx, { id, x, y }, s, ox, oy) {
    const cx = ox + (x + 0.5) * s, cy = oy + (y + 0.5) * s;
    const r = Math.max(8, s * 0.72);
    const persona = this.personas.find((p) => p.id === id) || {};
    ctx.fillStyle = "rgba(0, 0, 0, 0.22)";
    ctx.beginPath(); ctx.ellipse(cx, cy + r * 0.85, r * 0.8, r * 0.3, 0, 0, Math.PI * 2); ctx.fill();
    if (id === this.selected || id === this.follow) {
      ctx.strokeStyle = "rgba(255, 214, 10, 0.95)"; ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(cx, cy, r + 4, 0, Math.PI * 2); ctx.stroke();
    }
    ctx.fillStyle = this.colors[id];
    ctx.strokeStyle = "#ffffff"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(cx, cy, r, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#ffffff"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.font = `700 ${Math.round(r * 0.95)}px ${FONT}`;
    ctx.fillText(initials(shownName({ id, ...persona })), cx, cy + 0.5);
  }

  actionLabel(ctx, { id, x, y }, s, ox, oy, placed) {
    const p = this.state[id];
    const text = `${shownEmoji(p.emoji)} ${p.action || ""}`.trim();
    if (!text) return;
    const fit = fitText(ctx, text, 150, 11, 9, "500");
    ctx.font = `500 ${fit.px}px ${FONT}`;
    const w = ctx.measureText(fit.text).width + 10, h = fit.px + 7;
    const r = Math.max(8, s * 0.72);
    const box = { x: this.clampX(ox + (x + 0.5) * s - w / 2, w), y: oy + (y + 0.5) * s + r + 3, w, h };
    while (placed.some((b) => box.x < b.x + b.w && b.x < box.x + box.w && box.y < b.y + b.h && b.y < box.y + box.h)) box.y += h + 1;
    placed.push(box);
    ctx.fillStyle = "rgba(255, 255, 255, 0.9)";
    ctx.strokeStyle = this.colors[id]; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.roundRect(box.x, box.y, box.w, box.h, 6); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#2f2a22"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(fit.text, box.x + box.w / 2, box.y + box.h / 2 + 0.5);
  }

  bubble(ctx, { id, x, y }, s, ox, oy, placed) {
    const { said: speech, saidUntil } = this.state[id];
    if (!speech || performance.now() > saidUntil) return;
    ctx.font = `400 12px ${FONT}`;
    const lines = wrap(ctx, String(speech), 190, 3);
    const w = Math.max(...lines.map((l) => ctx.measureText(l).width)) + 16, h = lines.length * 15 + 10;
    const r = Math.max(8, s * 0.72);
    const box = { x: this.clampX(ox + (x + 0.5) * s - w / 2, w), y: Math.max(2, oy + (y + 0.5) * s - r - 12 - h), w, h };
    while (placed.some((b) => box.x < b.x + b.w && b.x < box.x + box.w && box.y < b.y + b.h && b.y < box.y + box.h)) box.y -= 8;
    placed.push(box);
    const tipX = ox + (x + 0.5) * s;
    ctx.fillStyle = "#ffffff"; ctx.strokeStyle = "rgba(60, 50, 40, 0.5)"; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.roundRect(box.x, box.y, box.w, box.h, 9); ctx.fill(); ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(tipX - 6, box.y + box.h - 0.5); ctx.lineTo(tipX, oy + (y + 0.5) * s - r - 2); ctx.lineTo(tipX + 6, box.y + box.h - 0.5);
    ctx.fill();
    ctx.fillStyle = "#2b2620"; ctx.textAlign = "left"; ctx.textBaseline = "top";
    lines.forEach((line, i) => ctx.fillText(line, box.x + 8, box.y + 6 + i * 15));
  }

  /** Whether a speech bubble is showing (it must disappear on time). */
  speaking() {
    const now = performance.now();
    return Object.values(this.state).some((p) => p.said && now <= p.saidUntil + 50);
  }

  /** Keep a box of width `w` inside the canvas. */
  clampX(x, w) {
    return Math.max(2, Math.min(this.cssW - w - 2, x));
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
  }

  hover(event) {
    const id = this.personaAt(event);
    const { x, y } = this.toTile(event);
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
