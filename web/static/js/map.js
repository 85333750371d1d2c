// The live map: the static town plus personas (walking sprites with a badge, idle signs, action
// labels, speech bubbles), smooth movement between frames, a camera that zooms and pans
// (view.js), following a persona, and clicking/hovering. Where people stand closer than a
// walker's width, only some are drawn and the others are counted in their place's badge
// (crowding.js). Every label drawn (town names, crowd badges, notes, action labels, speech
// bubbles) is laid out so that none overlaps another; the boxes of the last drawing are kept in
// `drawnLabels`.
//
// A drawing repaints only what changed: while the view stays as it was, only the boxes of
// personas that changed, move, animate, or are newly drawn or hidden, and of labels that
// appeared, moved or went (and what overlaps them) are painted again; a new view, or changes over
// more than half of it, repaint all of it. With more
// than ANIMATED_SIGNS idle signs on the canvas, the signs stand still (so a sleeping town costs
// nothing to keep on screen). In a town of more than CROWDED personas, walkers may be drawn as
// small as 5 px, without their initials badge, so that a whole-town view is not a heap of them.
// The town image is rendered for the part of the town in view (and a margin), at the view's
// scale once the view has settled; while it moves, the image drawn last is scaled.

import { drawTownLabel, fitText, layoutLabels, placeAt, renderTown } from "./townscape.js";
import { BoxIndex } from "./boxes.js";
import { crowdGroups, declutter, placeName, placeRect } from "./crowding.js";
import { personaColor, shownEmoji, shownName, uniqueInitials } from "./dom.js";
import { drawIdleSign, drawWalker, facingOf, idleSign } from "./sprites.js";
import { MapView } from "./view.js";

const FONT = '"Segoe UI", "Helvetica Neue", Helvetica, Arial, sans-serif';
const SPEECH_MS = 3500; // a line stays readable this long (wall ms), however fast the town runs
const NOTE_MS = 2500;   // a note on the map (a blocked move) stays this long
const STEP_MS = 260; // one walking cycle (two steps), wall ms
const IDLE_FPS = 12; // redraws per second when only idle signs move
const ANIMATED_SIGNS = 80; // above this many idle signs in view, they stand still
const CROWDED = 250; // above this many personas, walkers may be drawn smaller (and without badges)
const LAYOUTS_KEPT = 6; // town label layouts kept (one per scale)
const EDGE = 2; // CSS px a label's outline and antialiasing reach beyond its box
const WHOLE_AREA = 0.5; // repaint the whole view when the boxes that changed cover more than this share of it

export class TownMap {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {object} map TileMap.to_dict() from /api/town
   * @param {Array<object>} personas persona identities ({id, name, emoji, color?, ...})
   * @param {{onPick: function(string), onTile?: function(number, number), tip: HTMLElement,
   *   onBubble?: function(string), onCrowd?: function(object), onFollowEnd?: function()}} options
   *   onTile(x, y) gets clicks on a tile where no persona stands; onBubble(id) clicks on a
   *   speech bubble; onCrowd(badge) clicks on a crowd badge; onFollowEnd() when a drag or "fit"
   *   ends following
   */
  constructor(canvas, map, personas, { onPick, onTile, tip, onBubble, onCrowd, onFollowEnd }) {
    this.canvas = canvas;
    this.map = map;
    this.personas = personas;
    this.colors = Object.fromEntries(personas.map((p, i) => [p.id, p.color || personaColor(p.id, i)]));
    this.state = {};      // id -> {x, y, fromX, fromY, t0, facing, action, emoji, said, saidUntil, ...}
    this.follow = "";
    this.selected = "";
    this.hovered = "";
    this.moveMs = 125;
    this.cache = null;    // the town image: {s, dpr, image (canvas with .region)}
    this.layouts = new Map(); // scale -> the town's label layout at it
    this.dirty = true;
    this.movingUntil = 0;
    this.lastDraw = 0;
    this.drawnLabels = [];
    this.where = {};      // id -> {x, y} in tiles: every persona in view, as last laid out
    this.drawnIds = new Set(); // the personas whose walker was drawn last
    this.boxes = {};      // id -> {x, y, w, h} in CSS px: what its sprite covered when last drawn
    this.touched = new Set(); // ids whose look changed since the last drawing
    this.striding = new Set(); // ids whose walker is on the canvas mid-stride (repainted until it stands)
    this.speakers = new Set(); // ids whose frame entry has a line (speech) now
    this.notes = [];      // {text, x, y (tiles), until}
    this.last = null;     // the view and labels of the last drawing
    this.stats = { draws: 0, partial: 0, frames: 0, framesDrawn: 0, ms: 0 }; // for benchmarks/viewer.py
    this.onPick = onPick;
    this.onTile = onTile;
    this.onBubble = onBubble;
    this.onCrowd = onCrowd;
    this.tip = tip;
    this.camera = new MapView(canvas, map, {
      onChange: () => { this.dirty = true; clearTimeout(this.settle); this.settle = setTimeout(() => { this.dirty = true; }, 220); },
      onFollowEnd: () => { this.setFollow(""); if (onFollowEnd) onFollowEnd(); },
      followed: () => (this.follow && this.state[this.follow] ? this.position(this.follow, performance.now()) : null),
    });
    const tools = canvas.parentElement.querySelector(".map-tools");
    if (tools) {
      tools.querySelector("#zoom-in").addEventListener("click", () => this.camera.zoomBy(1.25));
      tools.querySelector("#zoom-out").addEventListener("click", () => this.camera.zoomBy(1 / 1.25));
      tools.querySelector("#zoom-fit").addEventListener("click", () => this.camera.fitTown());
    }
    window.townMap = this; // the page's map, for tests and the browser console
    canvas.addEventListener("click", (e) => this.click(e));
    canvas.addEventListener("mousemove", (e) => this.hover(e));
    canvas.addEventListener("mouseleave", () => { this.tip.hidden = true; this.setHovered(""); });
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
    const loop = () => {
      const now = performance.now();
      if (this.dirty || now < this.movingUntil + 40 || this.speaking() || this.notes.length
          || (this.animating && now - this.lastDraw > 1000 / IDLE_FPS)) this.draw();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  /** Add a persona (a player) after the start, or update its identity (name, colour). */
  addPersona(identity) {
    const known = this.personas.find((p) => p.id === identity.id);
    if (known) Object.assign(known, identity);
    else this.personas.push(identity);
    this.colors[identity.id] = identity.color || this.colors[identity.id] || personaColor(identity.id, this.personas.length - 1);
    this.identity = null; this.initialsById = null;
    this.touch(identity.id);
  }

  /** Forget a persona (a player who left). */
  removePersona(id) {
    this.personas = this.personas.filter((p) => p.id !== id);
    delete this.state[id];
    this.identity = null; this.initialsById = null;
    this.touch(id);
  }

  resize() {
    const box = this.canvas.parentElement.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.canvas.style.width = `${Math.floor(box.width)}px`;
    this.canvas.style.height = `${Math.floor(box.height)}px`;
    this.canvas.width = Math.floor(box.width * dpr);
    this.canvas.height = Math.floor(box.height * dpr);
    this.dpr = dpr;
    this.cssW = Math.floor(box.width); this.cssH = Math.floor(box.height);
    this.camera.resize(this.cssW, this.cssH);
    // no label goes under the map's buttons
    const tools = this.canvas.parentElement.querySelector(".map-tools");
    const at = tools && tools.getBoundingClientRect();
    this.reserved = at && at.width ? { x: at.left - box.left - 2, y: at.top - box.top - 2, w: at.width + 4, h: at.height + 4 } : null;
    this.last = null; // setting the canvas size cleared it: the next drawing repaints everything
    this.dirty = true;
  }

  /** The scale that shows the whole town (px per tile). */
  get fit() { return this.camera.fit; }

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
      this.state[id] = { ...p, ...said, facing, fromX: pos.x, fromY: pos.y, t0: now, sign: idleSign(p.kind, p.action, p.emoji) };
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

  setFollow(id) {
    this.touch(this.follow, id);
    this.follow = id || "";
    if (this.follow) this.camera.startFollow();
  }
  setSelected(id) { this.touch(this.selected, id); this.selected = id || ""; }
  setHovered(id) { if (this.hovered !== (id || "")) { this.touch(this.hovered, id); this.hovered = id || ""; } }

  /** A short note on the map at tile (x, y), e.g. "You can't walk there". */
  note(x, y, text) {
    this.notes = [...this.notes.filter((n) => n.x !== x || n.y !== y), { x, y, text, until: performance.now() + NOTE_MS }];
    this.dirty = true;
  }

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
  view() { return this.camera.current(); }

  /** Personas whose action label shows: followed, selected, hovered, or speaking now. */
  focused(id, now) {
    const p = this.state[id];
    return id === this.follow || id === this.selected || id === this.hovered || (p.said && now <= p.saidUntil);
  }

  /** Who is drawn first when people crowd: followed, selected, hovered, players, speakers, the rest. */
  rank(now) {
    const first = [this.follow, this.selected, this.hovered].filter((id) => id && this.state[id]);
    const players = this.personas.filter((p) => p.player && this.state[p.id]).map((p) => p.id);
    const speaking = [...this.speakers].filter((id) => this.state[id] && this.state[id].saidUntil >= now);
    const ahead = new Set([...first, ...players, ...speaking]);
    return [...ahead, ...this.personas.map((p) => p.id).filter((id) => this.state[id] && !ahead.has(id))];
  }

  /** The town image for the view: the cached one while it covers the view (scaled while the view
   * moves), else a new one of the part in view and a margin. */
  townImage(s, ox, oy, now) {
    const x0 = Math.max(0, Math.floor(-ox / s)), y0 = Math.max(0, Math.floor(-oy / s));
    const x1 = Math.min(this.map.width, Math.ceil((this.cssW - ox) / s)), y1 = Math.min(this.map.height, Math.ceil((this.cssH - oy) / s));
    const c = this.cache;
    const covers = c && c.dpr === this.dpr && c.image.region.x0 <= x0 && c.image.region.y0 <= y0
      && c.image.region.x1 >= x1 && c.image.region.y1 >= y1;
    if (covers && (c.s === s || this.camera.moving(now))) return c;
    const mx = Math.ceil((x1 - x0) / 2), my = Math.ceil((y1 - y0) / 2);
    const region = { x0: Math.max(0, x0 - mx), y0: Math.max(0, y0 - my),
      x1: Math.min(this.map.width, x1 + mx), y1: Math.min(this.map.height, y1 + my) };
    this.cache = { s, dpr: this.dpr, image: renderTown(this.map, s, this.dpr, region) };
    return this.cache;
  }

  /** The town's label layout at scale s (px from the map's corner), kept for a few scales. */
  townLabels(s) {
    if (!this.layouts.has(s)) {
      if (this.layouts.size >= LAYOUTS_KEPT) this.layouts.delete(this.layouts.keys().next().value);
      this.layouts.set(s, layoutLabels(this.map, s));
    }
    return this.layouts.get(s);
  }

  draw() {
    this.dirty = false;
    const t0 = performance.now();
    const now = t0;
    this.lastDraw = now;
    const { s, ox, oy } = this.view();
    const cache = this.townImage(s, ox, oy, now);
    const ctx = this.canvas.getContext("2d");
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    this.notes = this.notes.filter((n) => n.until > now);
    // who is in view, and who of them is drawn (the others are counted in a badge)
    const r = this.radius(s);
    const spots = [];
    for (const id of this.rank(now)) {
      const { x, y } = this.position(id, now);
      const px = ox + (x + 0.5) * s, base = oy + (y + 0.5) * s;
      if (px < -2 * r || base < -2 * r || px > this.cssW + 2 * r || base > this.cssH + 6 * r) continue;
      spots.push({ id, x, y, px, py: base + r * 0.8 });
    }
    const { drawn, hidden } = declutter(spots, r);
    this.where = Object.fromEntries(spots.map((p) => [p.id, { x: p.x, y: p.y }]));
    this.drawnIds = new Set(drawn.map((p) => p.id));
    // lay out first (notes and crowd badges, building names, speech, action labels, room names), draw after
    const placed = new BoxIndex();
    if (this.reserved) placed.add({ ...this.reserved });
    const notes = this.notes.map((n) => this.noteBox(ctx, n, s, ox, oy, placed)).filter(Boolean);
    const bySpot = new Map(spots.map((p) => [p.id, p]));
    const badges = this.crowdBadges(ctx, crowdGroups(hidden, (id) => this.state[id].address, (id) => bySpot.get(id)), s, ox, oy, placed);
    const townBoxes = this.townLabels(s);
    const inView = (b) => !(b.x + b.w < 0 || b.y + b.h < 0 || b.x > this.cssW || b.y > this.cssH);
    const town = [];
    for (const label of townBoxes) {
      if (label.kind !== "sector") continue;
      const box = { ...label, x: label.x + ox, y: label.y + oy, src: label };
      if (inView(box) && !placed.hits(box)) town.push(placed.add(box));
    }
    const people = this.peopleBoxes(drawn, s);
    const bubbles = drawn.map((spot) => this.bubbleBox(ctx, spot, s, ox, oy, placed, now, people)).filter(Boolean);
    const labels = drawn.filter((spot) => this.focused(spot.id, now))
      .map((spot) => this.labelBox(ctx, spot, s, ox, oy, placed, people)).filter(Boolean);
    for (const label of townBoxes) {
      if (label.kind === "sector") continue;
      const box = { ...label, x: label.x + ox, y: label.y + oy, src: label };
      if (inView(box) && !placed.hits(box)) town.push(placed.add(box)); // a bubble or a label is over it now
    }
    const drawnLabels = [...town.map((b) => ({ kind: b.kind, text: b.text, x: b.x, y: b.y, w: b.w, h: b.h })),
      ...notes.map((b) => ({ kind: "note", text: b.text, x: b.x, y: b.y, w: b.w, h: b.h })),
      ...badges.map((b) => ({ kind: "crowd", text: b.text, ids: b.ids, places: b.places, x: b.x, y: b.y, w: b.w, h: b.h })),
      ...labels.map((b) => ({ kind: "action", id: b.id, text: b.text, x: b.x, y: b.y, w: b.w, h: b.h })),
      ...bubbles.map((b) => ({ kind: "speech", id: b.id, text: b.lines.join(" "), x: b.x, y: b.y, w: b.w, h: b.h }))];
    // idle signs animate while few are in view; many stand still
    const signs = drawn.filter((spot) => this.signOf(spot.id) && this.inView(spot.px, spot.py));
    this.animating = signs.length > 0 && signs.length <= ANIMATED_SIGNS;
    const view = { s, ox, oy, w: this.cssW, h: this.cssH, image: cache.image, animating: this.animating };
    const boxes = Object.fromEntries(drawn.map((spot) => [spot.id, this.spriteBox(spot, s, ox, oy)]));
    // what each label covers, a bubble's tail included: a label that appears, moves or goes is repainted
    const covers = new Map(town.map((b) => [b.src, b])); // a town name by its place in the layout
    for (const b of drawnLabels.slice(town.length)) covers.set(`${b.kind}|${b.id || ""}|${b.text}|${b.x}|${b.y}|${b.w}|${b.h}`, b);
    for (const b of bubbles) covers.set(`speech|${b.id}|${b.lines.join(" ")}|${b.x}|${b.y}|${b.w}|${b.h}`, tailed(b));
    const clip = this.changedBoxes(view, drawn, boxes, now, covers);
    const clipIndex = clip && new BoxIndex();
    if (clip) for (const c of clip) clipIndex.add(c);
    const inClip = (box) => !clip || clipIndex.hits(box);
    ctx.save();
    if (clip) {
      ctx.beginPath();
      for (const c of clip) ctx.rect(c.x, c.y, c.w, c.h);
      ctx.clip();
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.backdrop(view, cache), 0, 0);
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    for (const box of town) if (inClip(box)) drawTownLabel(ctx, box, 0, 0);
    const sorted = drawn.filter((spot) => inClip(boxes[spot.id])).sort((a, b) => a.y - b.y); // nearer (lower) people in front
    for (const spot of sorted) this.sprite(ctx, spot, s, ox, oy, now);
    for (const box of badges) if (inClip(box)) this.drawBadge(ctx, box);
    for (const box of notes) if (inClip(box)) this.drawNote(ctx, box);
    for (const box of labels) if (inClip(box)) this.drawLabel(ctx, box);
    for (const box of bubbles) if (inClip(tailed(box))) this.drawBubble(ctx, box);
    ctx.restore();
    this.drawnLabels = drawnLabels;
    this.bubbles = bubbles;
    this.badges = badges;
    this.boxes = boxes;
    this.last = view;
    this.touched.clear();
    this.stats.draws += 1;
    if (clip) this.stats.partial += 1;
    if (this.newFrame) { this.stats.framesDrawn += 1; this.newFrame = false; }
    this.stats.ms += performance.now() - t0;
  }

  /** The ground and the town image of a view, painted once per view. */
  backdrop(view, cache) {
    const key = [view.s, view.ox, view.oy, view.w, view.h, this.dpr].join("|");
    if (this.ground && this.ground.key === key && this.ground.image === view.image) return this.ground.canvas;
    const canvas = (this.ground && this.ground.canvas) || document.createElement("canvas");
    canvas.width = this.canvas.width; canvas.height = this.canvas.height;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = "#a9cf8f";
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    const { region } = cache.image;
    ctx.drawImage(cache.image, view.ox + region.x0 * view.s, view.oy + region.y0 * view.s,
      (region.x1 - region.x0) * view.s, (region.y1 - region.y0) * view.s);
    this.ground = { key, image: view.image, canvas };
    return canvas;
  }

  /**
   * The boxes to repaint (CSS px), or null to repaint everything: while the view stays, each
   * changed, moving or animated persona's box as last drawn and as drawn now, the box of each
   * walker newly drawn or no longer drawn, and each label that appeared or went (a label that
   * moved does both).
   */
  changedBoxes(view, spots, boxes, now, covers) {
    const last = this.last;
    const before = this.covers || new Map();
    this.covers = covers;
    if (!last || ["s", "ox", "oy", "w", "h", "image", "animating"].some((k) => last[k] !== view[k])) return null;
    // a box grown by its outline's width and antialiasing, out to whole device pixels
    const d = this.dpr, grown = (b) => {
      const x = Math.floor((b.x - EDGE) * d) / d, y = Math.floor((b.y - EDGE) * d) / d;
      return { x, y, w: Math.ceil((b.x + b.w + EDGE) * d) / d - x, h: Math.ceil((b.y + b.h + EDGE) * d) / d - y };
    };
    const clip = [];
    const add = (box) => { if (box) clip.push(grown(box)); };
    for (const [key, box] of covers) if (!before.has(key)) add(box);
    for (const [key, box] of before) if (!covers.has(key)) add(box);
    for (const spot of spots) {
      const p = this.state[spot.id];
      const moving = now < p.t0 + this.moveMs + 40 && (p.x !== p.fromX || p.y !== p.fromY);
      if (this.touched.has(spot.id) || moving || p.kind === "walk" || (this.animating && this.signOf(spot.id))
          || !this.boxes[spot.id] || this.striding.has(spot.id)) {
        add(this.boxes[spot.id]);
        add(boxes[spot.id]);
      }
    }
    for (const id of Object.keys(this.boxes)) if (!boxes[id]) add(this.boxes[id]); // gone, or no longer drawn
    const area = clip.reduce((sum, c) => sum + c.w * c.h, 0);
    return area > WHOLE_AREA * view.w * view.h ? null : clip;
  }

  /** The idle sign a persona shows now ("sleep", "steam" or null), worked out when its frame came. */
  signOf(id) {
    return this.state[id].sign;
  }

  /** What a sprite at `spot` covers (CSS px): the walker, its ring, badge and idle sign. */
  spriteBox({ x, y }, s, ox, oy) {
    const r = this.radius(s);
    const cx = ox + (x + 0.5) * s, feetY = oy + (y + 0.5) * s + r * 0.8;
    const left = cx - r * 1.2 - 4, top = feetY - r * 5.8 - 6;
    return { x: left, y: top, w: (cx + r * 2.2 + 8) - left, h: (feetY + r * 0.5 + 4) - top };
  }

  /** A persona's badge: its initials, told apart from anyone else's in the town (``uniqueInitials``). */
  badgeOf(id) {
    if (!this.initialsById) this.initialsById = uniqueInitials(this.personas);
    return this.initialsById.get(id) || "?";
  }

  /** A walker's size in CSS px: at least 9 px, or 5 px in a town of more than CROWDED personas. */
  radius(s) { return Math.max(this.personas.length > CROWDED ? 5 : 9, s * 0.75); }

  sprite(ctx, { id, x, y }, s, ox, oy, now) {
    const p = this.state[id];
    const persona = this.who(id);
    const r = this.radius(s);
    const cx = ox + (x + 0.5) * s, feetY = oy + (y + 0.5) * s + r * 0.8;
    const walking = now < p.t0 + this.moveMs && (p.x !== p.fromX || p.y !== p.fromY);
    if (walking || p.kind === "walk") this.striding.add(id); else this.striding.delete(id);
    const { top } = drawWalker(ctx, cx, feetY, r, {
      id, color: this.colors[id], facing: p.facing, walking: walking || p.kind === "walk",
      phase: ((now - p.t0) / STEP_MS) % 1, badge: r >= 7 ? this.badgeOf(id) : null,
      ring: id === this.selected || id === this.follow,
    });
    if (p.sign && !walking) drawIdleSign(ctx, p.sign, cx, top, r, this.animating ? now : 0);
  }

  /** Free spots for a box of w x h near a persona at (cx, headY)..(feetY), in order of preference. */
  near(cx, headY, feetY, w, h) {
    const left = cx - w / 2;
    return [[left, headY - h - 6], [cx + 8, headY - h - 2], [cx - w - 8, headY - h - 2], [left, feetY + 4],
      [cx + 12, headY], [cx - w - 12, headY], [left, headY - 2 * h - 10], [left, feetY + h + 8]];
  }

  /**
   * Place `box` (w, h set) at the first candidate inside the canvas that overlaps nothing placed,
   * preferring one that covers no walker drawn (`people`, a BoxIndex).
   */
  place(box, candidates, placed, people = null) {
    for (const avoid of people ? [people, null] : [null]) {
      for (const [x0, y0] of candidates) {
        const x = Math.max(2, Math.min(this.cssW - box.w - 2, x0));
        const y = Math.max(2, Math.min(this.cssH - box.h - 2, y0));
        const at = { ...box, x, y };
        if (!placed.hits(at) && !(avoid && avoid.hits(at))) {
          Object.assign(box, { x, y });
          return placed.add(box);
        }
      }
    }
    return null; // nowhere free: not drawn this time
  }

  /** The walkers drawn, as boxes (head to feet) that bubbles and labels keep off when they can. */
  peopleBoxes(drawn, s) {
    const r = this.radius(s), people = new BoxIndex();
    for (const spot of drawn) people.add({ x: spot.px - r * 0.8, y: spot.py - r * 3, w: r * 1.6, h: r * 3.2 });
    return people;
  }

  /**
   * One badge per crowded place ("+N": N people there are not drawn), placed before any other
   * label. A badge with no free spot joins the nearest badge placed, so everyone hidden is counted.
   */
  crowdBadges(ctx, groups, s, ox, oy, placed) {
    const badges = [];
    ctx.font = `700 11px ${FONT}`;
    // wide enough for everyone hidden, so that a badge others join never grows
    const total = [...groups.values()].reduce((n, g) => n + g.ids.length, 0);
    const w = ctx.measureText(`+${total}`).width + 14;
    for (const g of groups.values()) {
      const rect = placeRect(this.map, g.place);
      const box = { ids: [...g.ids], places: [g.place], h: 18, w };
      box.text = `+${box.ids.length}`;
      const spots = [];
      if (rect) {
        const [x, y, w, h] = rect;
        const cx = ox + (x + w / 2) * s, cy = oy + (y + h / 2) * s;
        spots.push([cx - box.w / 2, cy - box.h / 2], [cx - box.w / 2, oy + y * s + 2], [cx - box.w / 2, oy + (y + h) * s - box.h - 2],
          [ox + x * s + 2, cy - box.h / 2], [ox + (x + w) * s - box.w - 2, cy - box.h / 2]);
      }
      spots.push([g.near.px + 6, g.near.py - box.h], ...this.near(g.near.px, g.near.py - 3 * this.radius(s), g.near.py, box.w, box.h));
      if (this.place(box, spots, placed)) { badges.push(box); continue; }
      const cx = spots[0][0] + box.w / 2, cy = spots[0][1] + box.h / 2;
      const nearest = badges.reduce((best, b) => {
        const d = Math.hypot(b.x + b.w / 2 - cx, b.y + b.h / 2 - cy);
        return !best || d < best.d ? { b, d } : best;
      }, null);
      nearest.b.ids.push(...box.ids);
      nearest.b.places.push(g.place);
      nearest.b.text = `+${nearest.b.ids.length}`;
    }
    return badges;
  }

  drawBadge(ctx, box) {
    ctx.fillStyle = "rgba(47, 42, 34, 0.88)"; ctx.strokeStyle = "#fffdf6"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.roundRect(box.x, box.y, box.w, box.h, box.h / 2); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#fffdf6"; ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.font = `700 11px ${FONT}`;
    ctx.fillText(box.text, box.x + box.w / 2, box.y + box.h / 2 + 0.5);
  }

  /** A badge's places and people, in words (its tooltip). */
  badgeTitle(box) {
    const places = [...new Set(box.places.map((p) => placeName(this.map, p)))].join(", ");
    return `${places}: ${box.ids.length} more ${box.ids.length === 1 ? "person" : "people"} here; click for the list`;
  }

  noteBox(ctx, note, s, ox, oy, placed) {
    ctx.font = `600 12px ${FONT}`;
    const box = { text: note.text, w: ctx.measureText(note.text).width + 16, h: 22 };
    const cx = ox + (note.x + 0.5) * s, cy = oy + (note.y + 0.5) * s;
    return this.place(box, [[cx - box.w / 2, cy - box.h - s / 2 - 4], [cx - box.w / 2, cy + s / 2 + 4], [cx + s, cy - box.h / 2], [cx - box.w - s, cy - box.h / 2]], placed);
  }

  drawNote(ctx, box) {
    ctx.fillStyle = "#fff3cd"; ctx.strokeStyle = "#d9a92a"; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.roundRect(box.x, box.y, box.w, box.h, 6); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#5a4510"; ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.font = `600 12px ${FONT}`;
    ctx.fillText(box.text, box.x + box.w / 2, box.y + box.h / 2 + 0.5);
  }

  labelBox(ctx, { id, x, y }, s, ox, oy, placed, people) {
    const p = this.state[id];
    const persona = this.who(id);
    const text = `${shownName({ id, ...persona })}: ${shownEmoji(p.emoji)} ${p.action || ""}`.replace(/\s+/g, " ").trim();
    const fit = fitText(ctx, text, 190, 11, 9, "500");
    ctx.font = `500 ${fit.px}px ${FONT}`;
    const r = this.radius(s), cx = ox + (x + 0.5) * s, base = oy + (y + 0.5) * s;
    if (!this.inView(cx, base)) return null;
    const box = { id, text: fit.text, px: fit.px, w: ctx.measureText(fit.text).width + 10, h: fit.px + 7 };
    return this.place(box, [[cx - box.w / 2, base + r * 0.8 + 4], ...this.near(cx, base - r * 1.6, base + r, box.w, box.h)], placed, people);
  }

  drawLabel(ctx, box) {
    ctx.font = `500 ${box.px}px ${FONT}`;
    ctx.fillStyle = "rgba(255, 255, 255, 0.92)";
    ctx.strokeStyle = this.colors[box.id]; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.roundRect(box.x, box.y, box.w, box.h, 6); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#2f2a22"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(box.text, box.x + box.w / 2, box.y + box.h / 2 + 0.5);
  }

  bubbleBox(ctx, { id, x, y }, s, ox, oy, placed, now, people) {
    const { said: speech, saidUntil } = this.state[id];
    if (!speech || now > saidUntil) return null;
    ctx.font = `400 12px ${FONT}`;
    const lines = wrap(ctx, String(speech), 190, 3);
    const box = { id, lines, w: Math.max(...lines.map((l) => ctx.measureText(l).width)) + 16, h: lines.length * 15 + 10 };
    const r = this.radius(s), cx = ox + (x + 0.5) * s, base = oy + (y + 0.5) * s;
    if (!this.inView(cx, base)) return null; // a speaker out of sight has no bubble
    box.tipX = cx; box.tipY = base - r * 1.7;
    return this.place(box, this.near(cx, base - r * 1.7, base + r, box.w, box.h), placed, people);
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

  /** Where a pointer event is: CSS px on the canvas and the tile (fractional) under it. */
  toTile(event) {
    const rect = this.canvas.getBoundingClientRect();
    const px = event.clientX - rect.left, py = event.clientY - rect.top;
    return { ...this.camera.tileAt(px, py), px, py };
  }

  /** The drawn persona nearest the pointer, within reach. */
  personaAt(event) {
    const { x, y, s } = this.toTile(event);
    const now = performance.now();
    const reach = Math.max(0.9, 10 / s);
    let best = null, bestD = reach;
    for (const id of this.drawnIds) {
      if (!this.state[id]) continue;
      const p = this.position(id, now);
      const d = Math.hypot(p.x + 0.5 - x, p.y + 0.5 - y);
      if (d < bestD) { best = id; bestD = d; }
    }
    return best;
  }

  /** The bubble or crowd badge under the pointer, if any. */
  labelAt(event) {
    const { px, py } = this.toTile(event);
    const inBox = (b) => px >= b.x && px <= b.x + b.w && py >= b.y && py <= b.y + b.h;
    const bubble = (this.bubbles || []).find(inBox);
    if (bubble) return { bubble };
    const badge = (this.badges || []).find(inBox);
    return badge ? { badge } : null;
  }

  click(event) {
    if (this.camera.dragged) { this.camera.dragged = false; return; } // the end of a drag
    const hit = this.labelAt(event);
    if (hit && hit.bubble && this.onBubble) { this.onBubble(hit.bubble.id); return; }
    if (hit && hit.badge && this.onCrowd) { this.onCrowd(hit.badge); return; }
    const id = this.personaAt(event);
    if (id) this.onPick(id);
    else if (this.onTile) {
      const { x, y } = this.toTile(event);
      this.onTile(Math.floor(x), Math.floor(y));
    }
  }

  hover(event) {
    if (this.camera.gesture && this.camera.gesture.moved) return;
    const hit = this.labelAt(event);
    const id = hit ? "" : this.personaAt(event);
    const { x, y, px, py } = this.toTile(event);
    this.setHovered(id);
    const label = hit && hit.badge ? this.badgeTitle(hit.badge)
      : hit && hit.bubble ? `${shownName({ id: hit.bubble.id, ...this.who(hit.bubble.id) })}: click for the whole conversation`
        : id ? shownName(this.who(id).id ? this.who(id) : { id }) : placeAt(this.map, Math.floor(x), Math.floor(y));
    this.canvas.style.cursor = hit || id ? "pointer" : "default";
    if (!label) { this.tip.hidden = true; return; }
    this.tip.textContent = label;
    this.tip.style.left = `${px + 14}px`;
    this.tip.style.top = `${py + 10}px`;
    this.tip.hidden = false;
  }
}

/** What a speech bubble covers, its tail to the speaker's head included (CSS px). */
function tailed(b) {
  const x = Math.min(b.x, b.tipX - 6), y = Math.min(b.y, b.tipY - 2);
  return { x, y, w: Math.max(b.x + b.w, b.tipX + 6) - x, h: Math.max(b.y + b.h, b.tipY + 2) - y };
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
