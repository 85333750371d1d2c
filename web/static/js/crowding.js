// Crowds on the map: which walkers are drawn and which are counted in a place's badge instead,
// so that people standing closer than a walker's width (a party in a cafe, an office at the
// whole-town view) never pile up into an unreadable heap. Every persona in view is either drawn
// or counted in exactly one badge; badges never overlap each other (see map.js for the rest of
// the label layout).

/** Horizontal and vertical spacing, in walker radii, below which two walkers' bodies overlap. */
export const SPACING_X = 0.9;
export const SPACING_Y = 1.6;

/**
 * Walkers to draw, in the order given (the first ones win: followed, selected, speaking...).
 * A walker whose feet are within SPACING_X·r across and SPACING_Y·r up or down of a walker
 * already drawn is hidden, and `by` names that walker.
 *
 * @param {Array<{id: string, px: number, py: number}>} spots feet positions in CSS px
 * @param {number} r the walkers' radius in CSS px
 * @returns {{drawn: Array<object>, hidden: Array<{spot: object, by: string}>}}
 */
export function declutter(spots, r) {
  const cw = SPACING_X * r, ch = SPACING_Y * r;
  const grid = new Map(); // cell (i, j) as one number -> drawn spots whose feet are in that cell
  const cell = (i, j) => (i + 4096) * 8192 + (j + 4096);
  const drawn = [], hidden = [];
  for (const spot of spots) {
    const i = Math.floor(spot.px / cw), j = Math.floor(spot.py / ch);
    let by = null;
    for (let di = -1; di <= 1 && !by; di++) {
      for (let dj = -1; dj <= 1 && !by; dj++) {
        for (const other of grid.get(cell(i + di, j + dj)) || []) {
          if (Math.abs(other.px - spot.px) < cw && Math.abs(other.py - spot.py) < ch) { by = other.id; break; }
        }
      }
    }
    if (by) { hidden.push({ spot, by }); continue; }
    drawn.push(spot);
    const key = cell(i, j);
    if (!grid.has(key)) grid.set(key, []);
    grid.get(key).push(spot);
  }
  return { drawn, hidden };
}

/** The place a persona at `address` is counted in: its room ("world:sector:arena"), else its
 * building or park ("world:sector"), else null (the street). */
export function placeKey(address) {
  const parts = String(address || "").split(":");
  if (parts.length >= 3) return parts.slice(0, 3).join(":");
  if (parts.length === 2) return parts.join(":");
  return null;
}

/**
 * Hidden walkers grouped by place: a room or building groups everyone hidden in it; on the street
 * the walker that hid them stands for the group.
 *
 * @param {Array<{spot: object, by: string}>} hidden from declutter
 * @param {function(string): string} addressOf persona id -> its address now
 * @returns {Map<string, {key: string, place: ?string, ids: string[], near: object}>} near: a
 *   spot of the group (the walker that hid the first of them, for street groups)
 */
export function crowdGroups(hidden, addressOf, spotOf) {
  const groups = new Map();
  for (const { spot, by } of hidden) {
    const place = placeKey(addressOf(spot.id));
    const key = place || `street:${by}`;
    if (!groups.has(key)) groups.set(key, { key, place, ids: [], near: spotOf(by) || spot });
    groups.get(key).ids.push(spot.id);
  }
  return groups;
}

const rects = new WeakMap(); // map -> Map(address -> rect), built once

/** The map's rectangle [x, y, w, h] (tiles) of a place key (a room or a building), or null. */
export function placeRect(map, key) {
  if (!key) return null;
  if (!rects.has(map)) rects.set(map, new Map([...(map.sectors || []), ...(map.arenas || [])].map((p) => [p.address, p.rect])));
  return rects.get(map).get(key) || null;
}

/** A place's name for people: "Hobbs Cafe › kitchen", or "the street". */
export function placeName(map, key) {
  if (!key) return "the street";
  const [, sector, arena] = key.split(":");
  const s = (map.sectors || []).find((x) => x.address === `${key.split(":")[0]}:${sector}`);
  const name = s ? s.label || s.name : sector;
  return arena ? `${name} › ${arena}` : name;
}
