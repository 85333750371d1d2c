// What tells a home from a shop, an office, a school or a park on the map: drawn on top of a
// sector's floor by its `kind` (map.yaml; generated towns set it). A home gets a roof-coloured
// rim and a chimney, a shop a striped awning over its door side, a workplace a row of windows, a
// school a flag, a park a sandy path around its lawn. Coordinates are tiles, `s` px per tile.

const ROOFS = ["#a4553f", "#7d5a44", "#5f6b7a", "#8a6d3b", "#6f4e5e", "#4f6b58"];
const AWNINGS = ["#d1495b", "#2a9d8f", "#e9a03b", "#3d85c6", "#8d6a9f"];

/** A stable small number from a name. */
function pick(name, n) {
  let h = 7;
  for (const ch of String(name)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % n;
}

/** The side of a sector its (first) door is on: "bottom" | "top" | "left" | "right". */
function doorSide(sec) {
  const [x, y, w, h] = sec.rect;
  const [dx, dy] = (sec.doors && sec.doors[0]) || [x + w / 2, y + h - 1];
  if (dy === y + h - 1) return "bottom";
  if (dy === y) return "top";
  return dx === x ? "left" : "right";
}

/** Draw the marks of a sector's kind over its floor and walls. */
export function drawKind(ctx, sec, s) {
  const [x, y, w, h] = sec.rect;
  const X = x * s, Y = y * s, W = w * s, H = h * s;
  const line = Math.max(1, s * 0.12);
  if (sec.kind === "home") {
    ctx.strokeStyle = ROOFS[pick(sec.name, ROOFS.length)]; ctx.lineWidth = Math.max(1.5, s * 0.28);
    ctx.beginPath(); ctx.roundRect(X + ctx.lineWidth / 2, Y + ctx.lineWidth / 2, W - ctx.lineWidth, H - ctx.lineWidth, s * 0.4); ctx.stroke();
    ctx.fillStyle = ctx.strokeStyle; // a chimney on the back wall
    ctx.fillRect(X + W * 0.7, Y - s * 0.25, s * 0.7, s * 0.7);
  } else if (sec.kind === "shop") {
    const side = doorSide(sec), colour = AWNINGS[pick(sec.name, AWNINGS.length)];
    const depth = s * 0.7, stripes = Math.max(3, Math.round((side === "left" || side === "right" ? h : w) * 1.5));
    for (let i = 0; i < stripes; i++) {
      ctx.fillStyle = i % 2 ? "#fffaf0" : colour;
      if (side === "bottom" || side === "top") {
        const sy = side === "bottom" ? Y + H - depth * 0.4 : Y - depth * 0.6;
        ctx.fillRect(X + (i * W) / stripes, sy, W / stripes + 0.5, depth);
      } else {
        const sx = side === "right" ? X + W - depth * 0.4 : X - depth * 0.6;
        ctx.fillRect(sx, Y + (i * H) / stripes, depth, H / stripes + 0.5);
      }
    }
  } else if (sec.kind === "work") {
    ctx.fillStyle = "rgba(190, 220, 245, 0.95)"; // windows along the back wall
    for (let i = 1; i < w - 1; i += 2) ctx.fillRect((x + i) * s + s * 0.2, Y + s * 0.25, s * 0.6, s * 0.45);
  } else if (sec.kind === "school") {
    ctx.strokeStyle = "#5b5346"; ctx.lineWidth = line;
    ctx.beginPath(); ctx.moveTo(X + s * 0.8, Y + s * 0.1); ctx.lineTo(X + s * 0.8, Y - s * 1.1); ctx.stroke();
    ctx.fillStyle = "#d1495b";
    ctx.beginPath(); ctx.moveTo(X + s * 0.8, Y - s * 1.1); ctx.lineTo(X + s * 1.9, Y - s * 0.8); ctx.lineTo(X + s * 0.8, Y - s * 0.5); ctx.fill();
  } else if (sec.kind === "park") {
    ctx.strokeStyle = "rgba(222, 200, 150, 0.95)"; ctx.lineWidth = Math.max(1.5, s * 0.45);
    ctx.beginPath(); ctx.roundRect(X + s * 0.5, Y + s * 0.5, W - s, H - s, s * 1.5); ctx.stroke();
  }
}
