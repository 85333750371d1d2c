// JSON API client. The control token (if any) comes from the page's ?token= parameter.

export const token = new URLSearchParams(window.location.search).get("token");

async function parse(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

/** GET a JSON API path; throws Error(message) on an error status. */
export async function getJSON(path) {
  return parse(await fetch(path, { headers: { Accept: "application/json" } }));
}

/** POST `body` as JSON (with the control token, if any, and `extra` headers); throws Error(message) on an error status. */
export async function postJSON(path, body, extra = {}) {
  const headers = { Accept: "application/json", "Content-Type": "application/json", ...extra };
  if (token) headers["X-Control-Token"] = token;
  return parse(await fetch(path, { method: "POST", headers, body: JSON.stringify(body) }));
}

/** "path?a=1&b=2" from an object of query parameters (null/undefined/"" left out). */
export function withQuery(path, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * What a queued input did (a whisper, a player's move or line: the town applies it between two
 * ticks): polls `/api/inputs/<id>` until it is done (its result) or refused (thrown as an Error).
 * @param {number} input the id the request answered
 * @param {number} [waitMs] how long to keep asking
 */
export async function applied(input, waitMs = 60000) {
  const end = Date.now() + waitMs;
  for (;;) {
    const outcome = await getJSON(`/api/inputs/${input}`);
    if (outcome.state === "done") return outcome.result;
    if (outcome.state === "refused") throw new Error(outcome.error);
    if (Date.now() > end) throw new Error("the town has not taken it yet (is the run paused in a long tick?)");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
