// What the page's scripts share: an element with its class and text, and the server's JSON.

export function node(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

// The JSON a request answers; an Error saying the server's reason when it refuses.
export async function fetchJson(url, options = {}) {
  const response = await fetch(url, {
    ...options,
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
  });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const detail = body && body.detail;
    const message = typeof detail === "string" ? detail
      : Array.isArray(detail) && detail.length ? `${(detail[0].loc || []).join(".")}: ${detail[0].msg}`
        : `HTTP ${response.status}`;
    // The kind of refusal (docs/online.md), by which the page says it in its own words (``refusal``).
    throw Object.assign(new Error(message), { code: body && body.code, values: (body && body.values) || {} });
  }
  return body;
}
