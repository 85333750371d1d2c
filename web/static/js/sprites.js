// Little walking people drawn with canvas paths (no image files): a body in the persona's
// colour, a head facing where they go, legs and arms that swing while walking, a badge with the
// initials, and small signs of what an idle persona is doing.

const SKIN = ["#f1c9a5", "#e0ac84", "#c68a62", "#8d5a3b", "#f6d7bf", "#b57a55"];
const HAIR = ["#3b2a20", "#6b4226", "#1f1b18", "#a0522d", "#d8b36a", "#7a7a7a"];
const BADGE_FONT = '"Segoe UI", "Helvetica Neue", Helvetica, Arial, sans-serif';
const STEAMY = /coffee|tea\b|cook|breakfast|lunch|dinner|\beat|bak|brew|soup|☕|🍳|🍽|🍵/i;

/** A stable small integer from a persona id (picks skin and hair). */
function pick(id, n, salt) {
  let h = salt;
  for (const ch of String(id)) h = (h * 33 + ch.charCodeAt(0)) >>> 0;
  return h % n;
}

/** Direction of a move: "down" | "up" | "left" | "right" (null when there is no move). */
export function facingOf(dx, dy) {
  if (!dx && !dy) return null;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? "right" : "left";
  return dy > 0 ? "down" : "up";
}

/**
 * Draw one walker standing on (cx, feetY), `r` px wide-ish.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{id: string, color: string, facing: string, walking: boolean, phase: number,
 *          badge: string, ring: boolean}} who  phase: walking cycle position in [0, 1)
 */
export function drawWalker(ctx, cx, feetY, r, who) {
  const swing = who.walking ? Math.sin(who.phase * Math.PI * 2) : 0;
  const side = who.facing === "left" || who.facing === "right";
  const flip = who.facing === "left" ? -1 : 1;
  const bodyH = r * 1.05, bodyW = r * (side ? 0.8 : 1.0);
  const hipY = feetY - r * 0.55, shoulderY = hipY - bodyH, headR = r * 0.52, headY = shoulderY - headR * 0.85;
  ctx.fillStyle = "rgba(0, 0, 0, 0.22)";
  ctx.beginPath(); ctx.ellipse(cx, feetY, r * 0.7, r * 0.24, 0, 0, Math.PI * 2); ctx.fill();
  if (who.ring) {
    ctx.strokeStyle = "rgba(255, 214, 10, 0.95)"; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.ellipse(cx, feetY, r * 1.0, r * 0.38, 0, 0, Math.PI * 2); ctx.stroke();
  }
  // legs: apart front/back when seen from the side, up/down in step when seen from the front
  ctx.strokeStyle = "#3a3340"; ctx.lineCap = "round"; ctx.lineWidth = Math.max(2, r * 0.26);
  const legs = side ? [swing * r * 0.35, -swing * r * 0.35] : [0, 0];
  const lift = side ? [0, 0] : [Math.max(0, swing) * r * 0.22, Math.max(0, -swing) * r * 0.22];
  [-1, 1].forEach((k, i) => {
    const x0 = cx + (side ? 0 : k * bodyW * 0.22);
    ctx.beginPath(); ctx.moveTo(x0, hipY); ctx.lineTo(x0 + legs[i] * flip, feetY - lift[i]); ctx.stroke();
  });
  // arms swing against the legs
  ctx.strokeStyle = shadeOf(who.color); ctx.lineWidth = Math.max(1.5, r * 0.2);
  [-1, 1].forEach((k, i) => {
    if (side && k === -flip) return; // the far arm is behind the body
    const x0 = cx + (side ? 0 : k * bodyW * 0.5);
    const reach = (side ? -legs[i] * flip : 0);
    ctx.beginPath(); ctx.moveTo(x0, shoulderY + r * 0.15); ctx.lineTo(x0 + reach, hipY - r * 0.05 - lift[1 - i]); ctx.stroke();
  });
  ctx.fillStyle = who.color; ctx.strokeStyle = "#ffffff"; ctx.lineWidth = 1.5;
  ctx.beginPath(); ctx.roundRect(cx - bodyW / 2, shoulderY, bodyW, bodyH, r * 0.3); ctx.fill(); ctx.stroke();
  // head: skin, hair on the back of the head, eyes on the side it faces
  const skin = SKIN[pick(who.id, SKIN.length, 7)], hair = HAIR[pick(who.id, HAIR.length, 13)];
  ctx.fillStyle = skin;
  ctx.beginPath(); ctx.arc(cx, headY, headR, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = hair;
  ctx.beginPath();
  if (who.facing === "up") ctx.arc(cx, headY, headR, 0, Math.PI * 2);
  else if (side) ctx.arc(cx, headY, headR, flip > 0 ? Math.PI * 0.5 : -Math.PI * 0.5, flip > 0 ? Math.PI * 1.9 : Math.PI * 0.1 - Math.PI);
  else ctx.arc(cx, headY, headR, Math.PI * 1.05, Math.PI * 1.95);
  ctx.fill();
  if (who.facing !== "up") {
    ctx.fillStyle = "#2a2320";
    const eye = Math.max(1, headR * 0.16);
    const eyes = side ? [cx + flip * headR * 0.45] : [cx - headR * 0.35, cx + headR * 0.35];
    for (const ex of eyes) { ctx.beginPath(); ctx.arc(ex, headY + headR * 0.1, eye, 0, Math.PI * 2); ctx.fill(); }
  }
  if (who.badge) badge(ctx, cx + r * 0.75, headY - headR * 0.4, Math.max(6, r * 0.48), who.badge);
  return { top: headY - headR };
}

/** A white round badge with initials (or an emoji). */
function badge(ctx, x, y, br, text) {
  ctx.fillStyle = "rgba(255, 255, 255, 0.95)"; ctx.strokeStyle = "rgba(60, 50, 40, 0.35)"; ctx.lineWidth = 1;
  ctx.beginPath(); ctx.arc(x, y, br, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
  ctx.fillStyle = "#2f2a22"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  const initials = /^[A-Z?][A-Za-z0-9]{0,2}$/.test(text);
  const size = !initials ? 1.25 : text.length > 2 ? 0.72 : 0.95; // three letters ("MLo") fit the same badge
  ctx.font = `${initials ? 700 : 400} ${Math.round(br * size)}px ${BADGE_FONT}`;
  ctx.fillText(text, x, y + 0.5);
}

function shadeOf(hex) {
  const n = parseInt(String(hex || "#888888").slice(1), 16);
  const f = (v) => Math.round(v * 0.7);
  return `rgb(${f((n >> 16) & 255)}, ${f((n >> 8) & 255)}, ${f(n & 255)})`;
}

/** Which idle sign an action shows: "sleep" ("z"s), "steam" (cups, cooking) or null. */
export function idleSign(kind, action, emoji) {
  if (kind === "sleep") return "sleep";
  if (kind === "do" && STEAMY.test(`${action || ""} ${emoji || ""}`)) return "steam";
  return null;
}

/** Draw an idle sign above a head at (cx, topY); `now` in ms animates it. */
export function drawIdleSign(ctx, sign, cx, topY, r, now) {
  if (sign === "sleep") {
    ctx.textAlign = "left"; ctx.textBaseline = "bottom";
    for (let i = 0; i < 3; i++) {
      const t = ((now / 1400) + i / 3) % 1;
      ctx.globalAlpha = 1 - t;
      ctx.fillStyle = "#3b4a8c";
      ctx.font = `700 ${Math.round(r * (0.6 + 0.5 * t))}px ${BADGE_FONT}`;
      ctx.fillText("z", cx + r * 0.3 + t * r * 0.9, topY - t * r * 1.6);
    }
    ctx.globalAlpha = 1;
  } else if (sign === "steam") {
    ctx.strokeStyle = "rgba(255, 255, 255, 0.85)"; ctx.lineWidth = Math.max(1.2, r * 0.12); ctx.lineCap = "round";
    for (let i = 0; i < 3; i++) {
      const x = cx - r * 0.9 + i * r * 0.3, t = ((now / 1200) + i / 3) % 1;
      ctx.globalAlpha = 1 - t;
      ctx.beginPath();
      for (let k = 0; k <= 6; k++) {
        const yy = topY + r * 0.6 - t * r * 0.8 - k * r * 0.12;
        const xx = x + Math.sin(k * 1.2 + now / 300 + i) * r * 0.1;
        if (k === 0) ctx.moveTo(xx, yy); else ctx.lineTo(xx, yy);
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }
}
