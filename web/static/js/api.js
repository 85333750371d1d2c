// JSON API client. The control token (if any) comes from the page's ?token= parameter.

export const token = new URLSearchParams(window.location.search).get("token");

/** GET a JSON API path; throws Error(message) on an error status. */
export async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}
