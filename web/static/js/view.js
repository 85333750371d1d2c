// Where the map's camera looks: the zoom (a multiple of the scale that fits the whole town) and
// the tile at the canvas centre, moved by the mouse wheel or a pinch (zoom around the cursor), a
// drag (pan), the keyboard (+ − 0, W A S D) and the map's buttons. Following a persona keeps it
// in the middle; a drag leaves the follow.

const PAD = 14;               // px around the whole town at zoom 1
const MAX_PX_PER_TILE = 64;   // the closest zoom
export const FOLLOW_ZOOM = 2.2;
export const WHEEL_OCTAVE = 300; // wheel pixels (deltaY) that halve or double the zoom
const KEY_ZOOM = 1.25;        // one press of + or −
const DRAG_PX = 4;            // a press that moves less than this is a click
const SETTLE_MS = 180;        // after the last wheel, pinch or drag event the view is still

/** Whether a key event comes from a text field (where keys type, never move the map). */
export function typing(event) {
  const t = event.target;
  return t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
}

export class MapView {
  /**
   * @param {HTMLCanvasElement} canvas the map canvas (input comes from it)
   * @param {{width: number, height: number}} size the map in tiles
   * @param {{onChange: function(), onFollowEnd: function(), followed: function(): ?{x: number, y: number}}} hooks
   *   followed() gives the followed persona's position in tiles now (null when nobody is followed)
   */
  constructor(canvas, size, { onChange, onFollowEnd, followed }) {
    this.canvas = canvas;
    this.W = size.width;
    this.H = size.height;
    this.onChange = onChange;
    this.onFollowEnd = onFollowEnd;
    this.followed = followed;
    this.fit = 4;
    this.zoom = 1;
    this.cx = this.W / 2;
    this.cy = this.H / 2;
    this.cssW = 1; this.cssH = 1;
    this.busyUntil = 0;   // the view is moving (wheel, pinch, drag) until this time (ms)
    this.pointers = new Map();
    this.gesture = null;
    this.dragged = false; // the last press was a drag, not a click
    canvas.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    for (const type of ["pointerup", "pointercancel"]) canvas.addEventListener(type, (e) => this.up(e));
    document.addEventListener("keydown", (e) => this.key(e));
  }

  /** The canvas is `w` x `h` CSS px: the scale that fits the town changes, the zoom stays. */
  resize(w, h) {
    this.cssW = w; this.cssH = h;
    this.fit = Math.max(0.5, Math.min((w - 2 * PAD) / this.W, (h - 2 * PAD) / this.H));
    this.changed();
  }

  get maxZoom() { return Math.max(1, MAX_PX_PER_TILE / this.fit); }

  /** {s: px per tile, ox, oy: px of the map's top-left corner} in CSS px, now. */
  current() {
    const s = this.fit * this.zoom;
    const at = this.followed();
    const cx = at ? at.x + 0.5 : this.cx, cy = at ? at.y + 0.5 : this.cy;
    return { s, ox: this.clampOffset(this.cssW / 2 - cx * s, this.W * s, this.cssW),
      oy: this.clampOffset(this.cssH / 2 - cy * s, this.H * s, this.cssH) };
  }

  /** A smaller map than the canvas is centred; a larger one never shows more than PAD beyond an edge. */
  clampOffset(o, size, room) {
    if (size + 2 * PAD <= room) return (room - size) / 2;
    return Math.min(PAD, Math.max(room - size - PAD, o));
  }

  /** Keep the centre where current() puts the map (after a clamp, or where the follow left it). */
  settleCentre() {
    const { s, ox, oy } = this.current();
    this.cx = (this.cssW / 2 - ox) / s;
    this.cy = (this.cssH / 2 - oy) / s;
  }

  /** The tile (fractional) at CSS px (x, y) of the canvas. */
  tileAt(x, y) {
    const { s, ox, oy } = this.current();
    return { x: (x - ox) / s, y: (y - oy) / s, s };
  }

  /** Zoom by `factor` keeping the tile under CSS px (x, y) there (the canvas centre by default). */
  zoomBy(factor, x = this.cssW / 2, y = this.cssH / 2) {
    const zoom = Math.min(this.maxZoom, Math.max(1, this.zoom * factor));
    if (zoom === this.zoom) return;
    if (this.followed()) { this.zoom = zoom; this.changed(); return; } // the followed persona stays in the middle
    const { s, ox, oy } = this.current();
    const tx = (x - ox) / s, ty = (y - oy) / s;
    this.zoom = zoom;
    const s2 = this.fit * zoom;
    this.cx = tx + (this.cssW / 2 - x) / s2;
    this.cy = ty + (this.cssH / 2 - y) / s2;
    this.settleCentre();
    this.changed();
  }

  /** Move the view by (dx, dy) CSS px (the town moves with the pointer); leaves a follow. */
  panBy(dx, dy) {
    if (this.followed()) { this.settleCentre(); this.onFollowEnd(); }
    const s = this.fit * this.zoom;
    this.cx -= dx / s; this.cy -= dy / s;
    this.settleCentre();
    this.changed();
  }

  /** The whole town (zoom 1, centred); leaves a follow. */
  fitTown() {
    if (this.followed()) this.onFollowEnd();
    this.zoom = 1; this.cx = this.W / 2; this.cy = this.H / 2;
    this.changed();
  }

  /** Show the rectangle [x, y, w, h] in tiles as large as it fits (a place from the Crowds list). */
  show([x, y, w, h]) {
    if (this.followed()) this.onFollowEnd();
    const s = Math.min((this.cssW - 2 * PAD) / Math.max(1, w), (this.cssH - 2 * PAD) / Math.max(1, h));
    this.zoom = Math.min(this.maxZoom, Math.max(1, s / this.fit));
    this.cx = x + w / 2; this.cy = y + h / 2;
    this.settleCentre();
    this.changed();
  }

  /** Following starts: close enough to see the persona's neighbours. */
  startFollow() {
    this.zoom = Math.max(this.zoom, Math.min(this.maxZoom, FOLLOW_ZOOM));
    this.changed();
  }

  /** Whether the view is being moved now (the town image is scaled until it settles). */
  moving(now) { return now < this.busyUntil; }

  changed() {
    this.busyUntil = performance.now() + SETTLE_MS;
    this.onChange();
  }

  wheel(event) {
    event.preventDefault();
    const rect = this.canvas.getBoundingClientRect();
    // a pinch on a touchpad comes as a wheel with ctrlKey; lines and pages as bigger steps
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? this.cssH : 1;
    const dy = event.deltaY * unit * (event.ctrlKey ? 3 : 1);
    this.zoomBy(2 ** (-dy / WHEEL_OCTAVE), event.clientX - rect.left, event.clientY - rect.top);
  }

  down(event) {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    this.gesture = { moved: false, ...this.pinchState() };
    this.dragged = false;
  }

  move(event) {
    const last = this.pointers.get(event.pointerId);
    if (!last || !this.gesture) return;
    if (this.pointers.size === 1) {
      const dx = event.clientX - last.x, dy = event.clientY - last.y;
      if (!this.gesture.moved && Math.hypot(event.clientX - this.gesture.x0, event.clientY - this.gesture.y0) < DRAG_PX) return;
      if (!this.gesture.moved) this.canvas.setPointerCapture(event.pointerId);
      this.gesture.moved = this.dragged = true;
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      this.panBy(dx, dy);
      return;
    }
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const now = this.pinchState();
    const rect = this.canvas.getBoundingClientRect();
    this.gesture.moved = this.dragged = true;
    // zoom around where the fingers' midpoint was, then move that point to where it is now: the
    // tile under the fingers stays under them
    if (this.gesture.d0 > 0) this.zoomBy(now.d0 / this.gesture.d0, this.gesture.x0 - rect.left, this.gesture.y0 - rect.top);
    this.panBy(now.x0 - this.gesture.x0, now.y0 - this.gesture.y0);
    Object.assign(this.gesture, now);
  }

  up(event) {
    this.pointers.delete(event.pointerId);
    this.gesture = this.pointers.size ? { moved: true, ...this.pinchState() } : null;
  }

  /** The pointers' midpoint (x0, y0) and their spread (d0) in client px. */
  pinchState() {
    const ps = [...this.pointers.values()];
    const x0 = ps.reduce((a, p) => a + p.x, 0) / Math.max(1, ps.length);
    const y0 = ps.reduce((a, p) => a + p.y, 0) / Math.max(1, ps.length);
    const d0 = ps.length >= 2 ? Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y) : 0;
    return { x0, y0, d0 };
  }

  /** + / = zoom in, − zoom out, 0 fits the town, W A S D pan a quarter of the view. */
  key(event) {
    if (typing(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    const pan = { w: [0, 1], a: [1, 0], s: [0, -1], d: [-1, 0] }[event.key.toLowerCase()];
    if (event.key === "+" || event.key === "=") this.zoomBy(KEY_ZOOM);
    else if (event.key === "-" || event.key === "_") this.zoomBy(1 / KEY_ZOOM);
    else if (event.key === "0") this.fitTown();
    else if (pan) this.panBy(pan[0] * this.cssW / 4, pan[1] * this.cssH / 4);
    else return;
    event.preventDefault();
  }
}
