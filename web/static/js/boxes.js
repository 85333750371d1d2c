// Label boxes ({x, y, w, h} in px) that must not overlap: the test of two boxes, and an index
// of boxes already placed, so that laying out a thousand labels is not a thousand-squared job.

/** Whether two boxes' interiors meet. */
export function meet(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** Whether `box` overlaps any of `boxes` (an array or a BoxIndex). */
export function overlaps(box, boxes) {
  return boxes instanceof BoxIndex ? boxes.hits(box) : boxes.some((b) => meet(box, b));
}

const CELL = 96; // px

/** Boxes placed so far, bucketed by CELL x CELL px squares. */
export class BoxIndex {
  constructor() { this.cells = new Map(); this.boxes = []; }

  *cellsOf(box) {
    for (let i = Math.floor(box.x / CELL); i <= Math.floor((box.x + box.w) / CELL); i++) {
      for (let j = Math.floor(box.y / CELL); j <= Math.floor((box.y + box.h) / CELL); j++) yield `${i},${j}`;
    }
  }

  add(box) {
    this.boxes.push(box);
    for (const key of this.cellsOf(box)) {
      if (!this.cells.has(key)) this.cells.set(key, []);
      this.cells.get(key).push(box);
    }
    return box;
  }

  /** Whether `box` overlaps a box placed. */
  hits(box) {
    for (const key of this.cellsOf(box)) for (const b of this.cells.get(key) || []) if (meet(box, b)) return true;
    return false;
  }

  /** The placed boxes that overlap `box`. */
  hitting(box) {
    const out = new Set();
    for (const key of this.cellsOf(box)) for (const b of this.cells.get(key) || []) if (meet(box, b)) out.add(b);
    return [...out];
  }
}
