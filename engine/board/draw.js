// `board`'s drawing for `expeditions serve` (engine/drawing.py): the five paths of nine stones
// with the bridge, the event tiles still lying there, every seat's pieces (the researcher ringed),
// the columns of cards, the discard piles and the draw pile, and the hands, read from a view's
// text (docs/board.md). The layout gives the stones' values, the bridge and the event spaces.
const PATHS = ["y", "b", "w", "g", "r"];
const COLOURS = { y: "#e9c430", b: "#3f7fd1", w: "#d9d6cf", g: "#3d9b4a", r: "#d24a3c" };
const SEATS = ["#222", "#f5f5f5", "#e0457b", "#ff8c1a"];
const W = 30, H = 42;

const cardsOf = (text) => (!text || text === "-" ? [] : text.match(/\?\d+|../g) || []);

/** The clicks of a decision: a card, then its path, the researcher or its pile; a pile or the deck; a piece. */
export function parts(decision) {
  if (decision === "D") return ["deck"];
  if (decision === ">-") return [];
  if (decision[0] === "D") return [`pile:${decision[1]}`];
  if (decision[0] === ">") return [`piece:${decision[1]}`];
  const c = decision.slice(1, 3);
  if (decision[0] === "+") return [`card:${c}`, decision.endsWith("R") ? "researcher" : `path:${c[0]}`];
  if (decision[0] === "-") return [`card:${c}`, `pile:${c[0]}`];
  return [];
}

function card(svg, code, x, y, pick) {
  const hidden = code[0] === "?";
  const value = code[1] === "T" ? "10" : code[1];
  return svg("g", pick ? { "data-pick": pick } : {},
    svg("rect", { x, y, width: W, height: H, rx: 4, fill: hidden ? "#6b5a45" : COLOURS[code[0]], stroke: "#333" }),
    hidden ? null : svg("text", { x: x + W / 2, y: y + H / 2 + 6, "text-anchor": "middle", "font-size": 15,
                                   "font-weight": "bold", fill: code[0] === "w" || code[0] === "y" ? "#333" : "#fff" }, value));
}

export function draw(text, ctx) {
  const { svg } = ctx;
  const f = ctx.fields(text);
  const layout = ctx.layout || { values: [-20, -15, -10, 5, 10, 15, 30, 35, 50], bridge: 6, events: [[], [], [], [], []] };
  const hands = (f.hands || "").split("/");
  const seats = hands.length;
  const mine = f.seat !== undefined ? Number(f.seat) : ctx.seat;
  const pieces = (f.pieces || "").split("/");
  const researcher = (f.researcher || "").split("/");
  const tiles = (f.tiles || "").split("/").map((t) => t.match(/V\d+|[A>.]/g) || []);
  const cols = (f.cols || "").split("/");
  const piles = (f.piles || "-/-/-/-/-").split("/");
  const step = 62, left = 70, width = left + 10 * step + 90;
  const height = 60 + 5 * 54 + 30 + seats * (H + 40) + 10;
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, "font-family": "sans-serif" });
  picture.append(svg("text", { x: 10, y: 18, "font-size": 13 },
    `round ${f.round || "-"}  turn ${f.turn || 0}  ${f.phase === "over" ? "game over" : `seat ${f.to_move} to ${f.phase}`}` +
    `  points ${f.totals || ""}  artifacts ${f.artifacts || ""}`));
  PATHS.forEach((colour, p) => {
    const y = 40 + p * 54;
    const row = svg("g", { "data-pick": `path:${colour}` },
      svg("rect", { x: 8, y: y - 4, width: left + 9 * step + 4, height: 46, rx: 6, fill: COLOURS[colour], opacity: 0.25, stroke: "none" }));
    picture.append(row);
    for (let stone = 0; stone <= 9; stone++) {
      const x = left + (stone - 1) * step;
      if (stone === 0) { row.append(svg("text", { x: 14, y: y + 24, "font-size": 12 }, "start")); continue; }
      row.append(svg("rect", { x, y, width: step - 8, height: 38, rx: 8, fill: "#fff", stroke: "#888" }),
                 svg("text", { x: x + 4, y: y + 12, "font-size": 9, fill: "#666" }, String(layout.values[stone - 1])));
      const event = layout.events[p].indexOf(stone);
      if (event >= 0 && tiles[p][event] && tiles[p][event] !== ".")
        row.append(svg("text", { x: x + step - 14, y: y + 12, "font-size": 10, "text-anchor": "end", fill: "#8a4b00" }, tiles[p][event]));
      if (stone === layout.bridge) row.append(svg("line", { x1: x + step - 4, x2: x + step - 4, y1: y - 4, y2: y + 42, stroke: "#6b4a2b", "stroke-width": 5 }));
    }
    for (let s = 0; s < seats; s++) {
      const at = (pieces[s] || "")[p];
      if (!at || at === ".") continue;
      const x = at === "0" ? 40 : left + (Number(at) - 1) * step + 12 + 10 * s;
      picture.append(svg("g", s === mine ? { "data-pick": `piece:${colour}` } : {},
        svg("circle", { cx: x, cy: y + 26, r: researcher[s] === colour ? 9 : 6, fill: SEATS[s], stroke: researcher[s] === colour ? "#c0162c" : "#333", "stroke-width": 2 })));
    }
    const top = cardsOf(piles[p]).pop();
    const px = left + 9 * step + 20;
    picture.append(top ? card(svg, top, px, y - 2, `pile:${colour}`)
      : svg("g", { "data-pick": `pile:${colour}` }, svg("rect", { x: px, y: y - 2, width: W, height: H, rx: 4, fill: "rgba(0,0,0,0)", stroke: "#999", "stroke-dasharray": "4 3" })));
  });
  let y = 40 + 5 * 54 + 6;
  const deck = /^\d+$/.test(f.deck || "") ? Number(f.deck) : cardsOf(f.deck).length;
  picture.append(svg("g", { "data-pick": "deck" }, svg("rect", { x: 10, y, width: W, height: H, rx: 4, fill: "#6b5a45", stroke: "#333" }),
                     svg("text", { x: 10 + W / 2, y: y + 26, "text-anchor": "middle", fill: "#fff", "font-size": 12 }, String(deck))),
                 svg("g", { "data-pick": "researcher" }, svg("rect", { x: 50, y: y + 8, width: 110, height: 26, rx: 5, fill: "#fff", stroke: "#c0162c" }),
                     svg("text", { x: 56, y: y + 26, "font-size": 12 }, "with researcher")));
  y += H + 14;
  for (let s = 0; s < seats; s++) {
    const name = ctx.names ? ` ${ctx.names[s]}` : "";
    picture.append(svg("circle", { cx: 16, cy: y + 8, r: 6, fill: SEATS[s], stroke: "#333" }),
                   svg("text", { x: 28, y: y + 12, "font-size": 12, "font-weight": String(f.to_move) === String(s) ? "bold" : "normal" },
                       `seat ${s}${name}  columns ${cols[s] || "-"}`));
    cardsOf(hands[s]).flatMap((c) => (c[0] === "?" ? Array(Number(c.slice(1))).fill("??") : [c])).forEach((c, i) =>
      picture.append(card(svg, c, 10 + i * (W + 4), y + 18, s === mine && c !== "??" ? `card:${c}` : null)));
    y += H + 40;
  }
  return picture;
}
