// Shared helpers of the page: the server's token on every request, SVG building, view fields.
const token = new URLSearchParams(location.search).get("token");

/** `path` with the page's token, if it has one. */
export function withToken(path) {
  if (!token) return path;
  return path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);
}

/** GET a JSON document of the server's API. */
export async function api(path) {
  const response = await fetch(withToken(path));
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

/** The websocket URL of `path`. */
export function socketUrl(path) {
  return withToken((location.protocol === "https:" ? "wss://" : "ws://") + location.host + path);
}

const drawings = new Map();
/** The edition's drawing module (engine/<family>/draw.js, served at /draw/<edition>.js). */
export async function drawing(edition) {
  if (!drawings.has(edition)) drawings.set(edition, await import(withToken(`/draw/${edition}.js`)));
  return drawings.get(edition);
}

/** An element (`tag`, attributes, children) in the HTML namespace. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
}
