// Draws the static town (ground, streets, buildings, rooms, objects, trees, labels) onto a
// canvas, from the map data of /api/town (TileMap.to_dict()). Coordinates are tiles.

import { BoxIndex } from "./boxes.js";
import { drawKind } from "./buildings.js";

const GRASS = ["#b7d89c", "#b2d496", "#bcdca2"];
const ROAD = "#9aa1a9";
const ROAD_LINE = "#f3f0e6";
const PAVEMENT = "#e6dfcf";
const LABEL_FONT = '"Segoe UI", "Helvetica Neue", Helvetica, Arial, sans-serif';

/** Deterministic pseudo-random in [0, 1) for a tile. */
function hash(x, y) {
  let h = (x * 374761393 + y * 668265263) >>> 0;
  h = ((h ^ (h >>> 13)) * 1274126177) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Mix a "#rrggbb" colour towards white (amount > 0) or black (amount < 0). */
export function shade(hex, amount) {
  const n = parseInt(String(hex || "#cccccc").slice(1), 16);
  const target = amount > 0 ? 255 : 0;
  const a = Math.abs(amount);
  const ch = (v) => Math.round(v + (target - v) * a);
  const r = ch((n >> 16) & 255), g = ch((n >> 8) & 255), b = ch(n & 255);
  return `rgb(${r}, ${g}, ${b})`;
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, Math.min(r, w / 2, h / 2));
}

/** Which tiles are what: inside a lot (sector/obstacle), pavement, road, grass; and walls.
 * Worked out once per map (a large town has some 100,000 tiles). */
const plans = new WeakMap();
function groundPlan(map) {
  if (plans.has(map)) return plans.get(map);
  const { width: W, height: H } = map;
  const lot = Array.from({ length: H }, () => new Uint8Array(W));
  const owner = new Int32Array(W * H).fill(-1); // the sector (index) each tile belongs to
  map.sectors.forEach((item, i) => {
    const [x0, y0, w, h] = item.rect;
    for (let y = Math.max(0, y0); y < Math.min(H, y0 + h); y++) {
      for (let x = Math.max(0, x0); x < Math.min(W, x0 + w); x++) { lot[y][x] = 1; owner[y * W + x] = i; }
    }
  });
  const isObstacle = new Uint8Array(W * H);
  for (const item of map.obstacles || []) {
    const [x0, y0, w, h] = item.rect;
    for (let y = Math.max(0, y0); y < Math.min(H, y0 + h); y++) {
      for (let x = Math.max(0, x0); x < Math.min(W, x0 + w); x++) { lot[y][x] = 1; isObstacle[y * W + x] = 1; }
    }
  }
  // a wall: a collision tile that is not an obstacle (obstacles are drawn as themselves)
  const wall = (x, y) => (map.collision[y] || "")[x] === "#" && !isObstacle[y * W + x];
  const hasWall = ([x0, y0, w, h]) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (wall(x, y)) return true;
    return false;
  };
  const emptyRow = lot.map((row) => row.every((v) => !v));
  const emptyCol = Array.from({ length: W }, (_, x) => lot.every((row) => !row[x]));
  const streetRow = streets(emptyRow), streetCol = streets(emptyCol);
  const nearLot = (x, y) => {
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (lot[y + dy] && lot[y + dy][x + dx]) return true;
    return false;
  };
  // a street: a band of at least two rows or columns that no lot crosses; the rest is gardens
  const kind = (x, y) => {
    if (lot[y][x]) return "lot";
    if (streetRow[y] || streetCol[x]) return "road";
    return nearLot(x, y) ? "yard" : "grass";
  };
  const sectorAt = (x, y) => (x >= 0 && y >= 0 && x < W && y < H && owner[y * W + x] >= 0 ? map.sectors[owner[y * W + x]] : null);
  const openSectors = new Set(map.sectors.filter((sec) => !sec.walls && !hasWall(sec.rect)));
  const plan = { kind, emptyRow, emptyCol, wall, sectorAt, openSectors };
  plans.set(map, plan);
  return plan;
}

/** Which entries of `empty` lie in a run of at least two empty ones (a street's rows or columns). */
function streets(empty) {
  const out = new Uint8Array(empty.length);
  for (let i = 0; i < empty.length;) {
    let j = i;
    while (j < empty.length && empty[j]) j++;
    if (j - i >= 2) out.fill(1, i, j);
    i = j === i ? i + 1 : j;
  }
  return out;
}

/** Whether rect [x, y, w, h] (tiles) meets region {x0, y0, x1, y1} (tiles, end exclusive). */
function meets([x, y, w, h], r) {
  return x < r.x1 && x + w > r.x0 && y < r.y1 && y + h > r.y0;
}

/** Draw ground, streets, lots, rooms, walls, objects and trees of `region` (tiles), scaled to
 * `s` px per tile with the region's top-left corner at (0, 0). */
function drawGround(ctx, map, s, region) {
  const W = map.width;
  const plan = groundPlan(map);
  const { x0, y0, x1, y1 } = region;
  ctx.save();
  ctx.translate(-x0 * s, -y0 * s);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const k = plan.kind(x, y);
      ctx.fillStyle = k === "road" ? ROAD : GRASS[Math.floor(hash(x, y) * 3)];
      ctx.fillRect(x * s, y * s, s + 0.5, s + 0.5);
    }
  }
  // dashed centre lines on road bands at least 3 tiles wide
  ctx.strokeStyle = ROAD_LINE;
  ctx.lineWidth = Math.max(1, s * 0.08);
  ctx.setLineDash([s * 0.6, s * 0.6]);
  const bands = (empty) => {
    const out = [];
    let start = -1;
    empty.forEach((e, i) => {
      if (e && start < 0) start = i;
      if ((!e || i === empty.length - 1) && start >= 0) {
        const end = e ? i : i - 1;
        if (end - start >= 2 && start > 0 && end < empty.length - 1) out.push((start + end + 1) / 2);
        start = -1;
      }
    });
    return out;
  };
  for (const y of bands(plan.emptyRow)) {
    if (y < y0 || y > y1) continue;
    ctx.beginPath(); ctx.moveTo(x0 * s, y * s); ctx.lineTo(x1 * s, y * s); ctx.stroke();
  }
  for (const x of bands(plan.emptyCol)) {
    if (x < x0 || x > x1) continue;
    ctx.beginPath(); ctx.moveTo(x * s, y0 * s); ctx.lineTo(x * s, y1 * s); ctx.stroke();
  }
  ctx.setLineDash([]);
  // the pavement around every building and park: a kerb of half a tile
  ctx.fillStyle = PAVEMENT;
  for (const sec of map.sectors) {
    if (!meets(sec.rect, region)) continue;
    const [x, y, w, h] = sec.rect;
    roundRect(ctx, (x - 0.45) * s, (y - 0.45) * s, (w + 0.9) * s, (h + 0.9) * s, s * 0.7); ctx.fill();
  }

  for (const sec of map.sectors) {
    if (!meets(sec.rect, region)) continue;
    const [x, y, w, h] = sec.rect;
    ctx.save();
    ctx.shadowColor = "rgba(40, 40, 30, 0.25)"; ctx.shadowBlur = s * 0.6; ctx.shadowOffsetY = s * 0.15;
    ctx.fillStyle = sec.color || "#d8cbb0";
    roundRect(ctx, x * s, y * s, w * s, h * s, s * 0.5); ctx.fill();
    ctx.restore();
    if (!sec.walls) continue;
    ctx.fillStyle = shade(sec.color, 0.45); // hallway floor
    ctx.fillRect((x + 1) * s, (y + 1) * s, (w - 2) * s, (h - 2) * s);
  }
  const sectorOf = new Map(map.sectors.map((sec) => [sec.address, sec]));
  for (const a of map.arenas) {
    if (!meets(a.rect, region)) continue;
    const sector = sectorOf.get(a.sector) || {};
    const [x, y, w, h] = a.rect;
    ctx.fillStyle = shade(sector.color, sector.walls ? 0.62 : 0.18);
    ctx.fillRect(x * s, y * s, w * s, h * s);
  }
  // every wall tile (a collision tile that is not part of an obstacle), shaded by its building
  const WALL = "#6f675c";
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    if (!plan.wall(x, y)) continue;
    const sec = plan.sectorAt(x, y);
    ctx.fillStyle = sec ? shade(sec.color, -0.3) : WALL;
    ctx.fillRect(x * s, y * s, s + 0.5, s + 0.5);
  }
  for (const sec of map.sectors) if (sec.kind && meets([sec.rect[0] - 1, sec.rect[1] - 2, sec.rect[2] + 2, sec.rect[3] + 3], region)) drawKind(ctx, sec, s);
  for (const o of map.obstacles || []) {
    if (!meets(o.rect, region)) continue;
    const [x, y, w, h] = o.rect;
    ctx.fillStyle = o.color || "#7aa7d6";
    roundRect(ctx, x * s, y * s, w * s, h * s, s * 1.2); ctx.fill();
    ctx.strokeStyle = "rgba(255,255,255,0.55)"; ctx.lineWidth = Math.max(1, s * 0.08);
    ctx.beginPath(); ctx.ellipse((x + w * 0.45) * s, (y + h * 0.45) * s, w * s * 0.22, h * s * 0.12, 0, 0, Math.PI * 2); ctx.stroke();
  }

  const objectTile = new Set();
  for (const o of map.objects) {
    if (!meets(o.rect, region)) continue;
    const [x, y, w, h] = o.rect;
    for (let ty = y; ty < y + h; ty++) for (let tx = x; tx < x + w; tx++) objectTile.add(ty * W + tx);
    const inset = s * 0.14;
    ctx.fillStyle = "rgba(110, 84, 58, 0.55)";
    roundRect(ctx, x * s + inset, y * s + inset, w * s - 2 * inset, h * s - 2 * inset, s * 0.25); ctx.fill();
  }
  // trees only on open ground: grass, and a few in parks (sectors with no wall tile); never on
  // a wall, an obstacle or an object
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    if ((map.collision[y] || "")[x] === "#" || objectTile.has(y * W + x)) continue;
    const k = plan.kind(x, y);
    const r = hash(x + 7, y + 3);
    const openPark = k === "lot" && plan.openSectors.has(plan.sectorAt(x, y));
    if ((k === "grass" && r < 0.35) || (k === "yard" && r < 0.12) || (openPark && r < 0.1)) tree(ctx, (x + 0.5) * s, (y + 0.5) * s, s * (0.38 + 0.12 * hash(y, x)));
  }
  ctx.restore();
}

function inside(rect, x, y) {
  const [rx, ry, rw, rh] = rect;
  return x >= rx && x < rx + rw && y >= ry && y < ry + rh;
}

function tree(ctx, cx, cy, r) {
  ctx.fillStyle = "rgba(30, 60, 20, 0.25)";
  ctx.beginPath(); ctx.arc(cx + r * 0.25, cy + r * 0.3, r, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = "#5f9e4f";
  ctx.beginPath(); ctx.arc(cx, cy, r, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = "#7dbb62";
  ctx.beginPath(); ctx.arc(cx - r * 0.3, cy - r * 0.3, r * 0.45, 0, Math.PI * 2); ctx.fill();
}

/** Fit `text` into `maxWidth` px: shrink from `size` down to `min`, then cut with an ellipsis. */
export function fitText(ctx, text, maxWidth, size, min, weight = "600") {
  let px = size;
  for (; px > min; px -= 0.5) {
    ctx.font = `${weight} ${px}px ${LABEL_FONT}`;
    if (ctx.measureText(text).width <= maxWidth) return { text, px };
  }
  ctx.font = `${weight} ${min}px ${LABEL_FONT}`;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(cut + "…").width > maxWidth) cut = cut.slice(0, -1);
  return { text: cut === text ? text : cut.trimEnd() + "…", px: min };
}

/**
 * Place sector labels (pills) and room labels at `s` px per tile so that none overlap.
 * @returns {Array<{kind: "sector"|"room", text: string, px: number, x: number, y: number, w: number,
 *   h: number, color?: string}>} boxes in px from the map's top-left corner
 */
export function layoutLabels(map, s) {
  const ctx = document.createElement("canvas").getContext("2d");
  const placed = new BoxIndex();
  for (const sec of map.sectors) {
    const [x, y, w, h] = sec.rect;
    const fit = fitText(ctx, sec.label || sec.name, w * s - 10, Math.min(15, Math.max(10, s * 0.85)), 8, "700");
    ctx.font = `700 ${fit.px}px ${LABEL_FONT}`;
    const tw = ctx.measureText(fit.text).width;
    const box = { kind: "sector", text: fit.text, px: fit.px, color: sec.color, w: tw + 10, h: fit.px + 6 };
    box.x = (x + w / 2) * s - box.w / 2;
    const top = y * s - box.h / 2;
    // try on the top edge, then step down inside the lot, then the bottom edge
    const tries = [top];
    for (let dy = box.h; top + dy + box.h < (y + h) * s; dy += box.h * 0.75) tries.push(top + dy);
    tries.push((y + h) * s - box.h / 2);
    const spot = tries.find((ty) => !placed.hits({ ...box, y: ty }));
    if (spot === undefined) continue;
    box.y = spot;
    placed.add(box);
  }
  for (const a of map.arenas) {
    const [x, y, w, h] = a.rect;
    if (w * s < 30 || h * s < 14) continue;
    const fit = fitText(ctx, a.name, w * s - 8, Math.min(11, Math.max(8, s * 0.6)), 7.5, "500");
    ctx.font = `500 ${fit.px}px ${LABEL_FONT}`;
    const box = { kind: "room", text: fit.text, px: fit.px, x: (x + 0.5) * s + 2, w: ctx.measureText(fit.text).width, h: fit.px + 2 };
    const spots = [(y + h) * s - box.h - s * 0.9, (y + 1) * s + 1, (y + h / 2) * s - box.h / 2];
    const spot = spots.find((sy) => sy > y * s && !placed.hits({ ...box, y: sy }));
    if (spot === undefined) continue;
    box.y = spot;
    placed.add(box);
  }
  return placed.boxes;
}

/** Draw one label of {@link layoutLabels} shifted by (ox, oy) px. */
export function drawTownLabel(ctx, box, ox, oy) {
  const x = box.x + ox, y = box.y + oy;
  if (box.kind === "sector") {
    ctx.font = `700 ${box.px}px ${LABEL_FONT}`;
    ctx.fillStyle = "rgba(255, 253, 246, 0.93)";
    ctx.strokeStyle = shade(box.color, -0.35); ctx.lineWidth = 1;
    roundRect(ctx, x, y, box.w, box.h, box.h / 2); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#3b3429"; ctx.textBaseline = "middle"; ctx.textAlign = "center";
    ctx.fillText(box.text, x + box.w / 2, y + box.h / 2 + 0.5);
  } else {
    ctx.font = `500 ${box.px}px ${LABEL_FONT}`;
    ctx.fillStyle = "rgba(70, 60, 45, 0.78)"; ctx.textBaseline = "top"; ctx.textAlign = "left";
    ctx.fillText(box.text, x, y);
  }
}

/**
 * Render the static town without labels at `s` px per tile (times `dpr`) to a new offscreen
 * canvas: the whole map, or only `region` ({x0, y0, x1, y1} in tiles, end exclusive) of it.
 * @returns {HTMLCanvasElement & {region: object}} the canvas, its region's top-left corner at (0, 0)
 */
export function renderTown(map, s, dpr = 1, region = { x0: 0, y0: 0, x1: map.width, y1: map.height }) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil((region.x1 - region.x0) * s * dpr);
  canvas.height = Math.ceil((region.y1 - region.y0) * s * dpr);
  const ctx = canvas.getContext("2d");
  ctx.scale(dpr, dpr);
  drawGround(ctx, map, s, region);
  canvas.region = region;
  return canvas;
}

/** The most specific named place at tile (x, y): object, room or building (or null). */
export function placeAt(map, x, y) {
  const hit = (list) => list.find((item) => inside(item.rect, x, y));
  const obj = hit(map.objects), arena = hit(map.arenas), sector = hit(map.sectors);
  if (!sector) return null;
  return [sector.label || sector.name, arena && arena.name, obj && obj.name].filter(Boolean).join(" › ");
}
