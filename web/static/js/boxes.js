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

  /** The keys of the cells `box` touches (a cell (i, j) as one number). */
  cellsOf(box) {
    const keys = [];
    const i1 = Math.floor((box.x + box.w) / CELL), j1 = Math.floor((box.y + box.h) / CELL);
    for (let i = Math.floor(box.x / CELL); i <= i1; i++) {
      for (let j = Math.floor(box.y / CELL); j <= j1; j++) keys.push((i + 4096) * 8192 + (j + 4096));
    }
    return keys;
  }

  add(box) {
    this.boxes.push(box);
    for (const key of this.cellsOf(box)) {
      const list = this.cells.get(key);
      if (list) list.push(box); else this.cells.set(key, [box]);
    }
    return box;
  }

  /** Whether `box` overlaps a box placed. */
  hits(box) {
    for (const key of this.cellsOf(box)) {
      const list = this.cells.get(key);
      if (list) for (const b of list) if (meet(box, b)) return true;
    }
    return false;
  }
}
