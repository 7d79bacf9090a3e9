// SVG building, handed to the editions' drawings as ctx.svg (a drawing imports nothing).
const NS = "http://www.w3.org/2000/svg";

/** An SVG element: svg("rect", {x: 1}, child, "text", …). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** The `name=value` fields of a view or position (its first word, the edition, left out). */
export function fields(text) {
  const out = {};
  for (const token of text.trim().split(/\s+/).slice(1)) {
    const i = token.indexOf("=");
    if (i > 0) out[token.slice(0, i)] = token.slice(i + 1);
  }
  return out;
}

/** Draws `text` with the edition's drawing into `box`; returns the SVG. */
export function drawInto(box, drawing, text, ctx) {
  const picture = drawing.draw(text, { ...ctx, svg, fields });
  box.replaceChildren(picture);
  return picture;
}
