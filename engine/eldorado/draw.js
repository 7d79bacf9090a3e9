// `eldorado`'s drawing for `expeditions serve` (engine/drawing.py): the route's hex map from the
// layout (hexes by terrain with their powers, caves, start and finishing spaces), the blockades on
// their borders, the pieces, the market, and each seat's cards, read from a view's text
// (docs/eldorado.md). Clicks: a card, then the hex (or blockade) to move to; a market pile to buy.
const TERRAIN = { j: "#3a9d3a", w: "#3b7dd8", v: "#e8c547", r: "#9a9a9a", c: "#c8463c", M: "#5b4636", "*": "#222", s: "#f4f1e8" };
const SEATS = ["#ffffff", "#111111", "#e0457b", "#ff8c1a"];
const SIZE = 16, ROOT3 = Math.sqrt(3);

const codes = (text) => (!text || text === "-" ? [] : text.match(/\?\d+|../g) || []);

/** The clicks of a decision (docs/eldorado.md, "Decision ids and texts"); others are buttons. */
export function parts(decision) {
  let m;
  if ((m = /^(\w\w)[ab]?>B(\d+)$/.exec(decision))) return [`card:${m[1]}`, `blockade:${m[2]}`];
  if ((m = /^(\w\w)[ab]?>(\d+)$/.exec(decision))) return [`card:${m[1]}`, `hex:${m[2]}`];
  if ((m = /^>B(\d+)$/.exec(decision))) return [`blockade:${m[1]}`];
  if ((m = /^>(\d+)$/.exec(decision))) return [`hex:${m[1]}`];
  if ((m = /^#(\w\w)$/.exec(decision))) return [`card:${m[1]}`];
  if ((m = /^\$(\w\w)$/.exec(decision))) return [`card:${m[1]}`, "coins"];
  if ((m = /^\*(\w\w)$/.exec(decision))) return [`market:${m[1]}`];
  if ((m = /^(\w\w)\*(\w\w)$/.exec(decision))) return [`card:${m[1]}`, `market:${m[2]}`];
  if ((m = /^-(\w\w)$/.exec(decision))) return [`card:${m[1]}`, "discard"];
  return [];
}

function corner(cx, cy, degrees) {
  const a = (Math.PI / 180) * degrees;
  return [cx + SIZE * Math.cos(a), cy + SIZE * Math.sin(a)];
}

export function draw(text, ctx) {
  const { svg } = ctx;
  const f = ctx.fields(text);
  const layout = ctx.layout;
  const mine = f.seat !== undefined ? Number(f.seat) : ctx.seat;
  const hands = (f.hands || "").split("/");
  const seats = hands.length;
  const picture = svg("svg", { "font-family": "sans-serif" });
  if (!layout) { picture.append(svg("text", { x: 10, y: 20 }, "no map")); return picture; }
  const centre = {};
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [n, q, r] of layout.hexes) {
    const c = [SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r];
    centre[n] = c;
    minX = Math.min(minX, c[0]); maxX = Math.max(maxX, c[0]); minY = Math.min(minY, c[1]); maxY = Math.max(maxY, c[1]);
  }
  const ox = -minX + SIZE + 8, oy = -minY + SIZE + 30;
  const map = svg("g", { transform: `translate(${ox},${oy})` });
  for (const [n, , , terrain, power, finishing] of layout.hexes) {
    const [cx, cy] = centre[n];
    const points = [0, 1, 2, 3, 4, 5].map((i) => corner(cx, cy, 30 + 60 * i).join(",")).join(" ");
    const label = terrain === "s" ? `s${layout.starts.indexOf(n) + 1}` : terrain === "*" ? String.fromCharCode(97 + layout.caves.indexOf(n))
      : terrain === "M" ? "" : String(power);
    map.append(svg("g", { "data-pick": `hex:${n}` },
      svg("polygon", { points, fill: TERRAIN[terrain] || "#ccc", stroke: finishing ? "#d4a017" : "#555", "stroke-width": finishing ? 3 : 0.8 }),
      svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, fill: terrain === "*" || terrain === "M" ? "#eee" : "#111" },
          finishing ? "E" : label)));
  }
  const blockades = (f.blockades || "").split(",");
  layout.borders.forEach((edges, k) => {
    if (!blockades[k] || blockades[k] === "-") return;
    const g = svg("g", { "data-pick": `blockade:${k}` });
    for (const [h, d] of edges) {
      const [cx, cy] = centre[h];
      const [a, b] = [corner(cx, cy, -30 - 60 * d), corner(cx, cy, 30 - 60 * d)];
      g.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#8b1a1a", "stroke-width": 5, "stroke-linecap": "round" }));
    }
    const [h] = edges[0];
    g.append(svg("text", { x: centre[h][0], y: centre[h][1] - 6, "font-size": 9, fill: "#fff", "font-weight": "bold" }, `B${blockades[k]}`));
    map.append(g);
  });
  (f.pieces || "").split("/").forEach((list, s) => list.split(",").forEach((at, p) => {
    if (at === "E" || !(at in centre)) return;
    const [cx, cy] = centre[at];
    map.append(svg("circle", { cx: cx + (p ? 5 : -5), cy: cy - 3, r: 6, fill: SEATS[s], stroke: "#c0162c", "stroke-width": 1.5 }),
               svg("text", { x: cx + (p ? 5 : -5), y: cy, "text-anchor": "middle", "font-size": 8, fill: s === 0 ? "#111" : "#fff" }, `${s}${p ? "b" : ""}`));
  }));
  const mapWidth = maxX - minX + 2 * SIZE + 16, mapHeight = maxY - minY + 2 * SIZE + 30;
  picture.append(svg("text", { x: 10, y: 18, "font-size": 13 },
    `${layout.route}  turn ${f.turn || 0}  ${f.phase === "over" ? "game over" : `seat ${f.to_move} to ${f.phase}`}` +
    `  played ${f.played || "-"}  coins ${(Number(f.coins || 0) / 2)}  moving ${f.moving || "-"}  pay ${f.pay || "-"}`), map);
  // the market, then each seat's cards
  let y = mapHeight + 20;
  const [board, beside] = (f.market || "-/-").split("/");
  const piles = (text, x0, label) => {
    picture.append(svg("text", { x: x0, y: y + 12, "font-size": 11 }, label));
    (text === "-" ? [] : text.match(/...?/g) || []).filter((t) => t.length === 3).forEach((pile, i) => {
      const x = x0 + i * 44;
      picture.append(svg("g", { "data-pick": `market:${pile.slice(0, 2)}` },
        svg("rect", { x, y: y + 18, width: 40, height: 26, rx: 4, fill: "#f6efe0", stroke: "#777" }),
        svg("text", { x: x + 20, y: y + 35, "text-anchor": "middle", "font-size": 11 }, `${pile.slice(0, 2)}×${pile[2]}`)));
    });
  };
  piles(board, 10, "market");
  y += 50;
  piles(beside, 10, "beside the board");
  y += 56;
  picture.append(svg("g", { "data-pick": "coins" }, svg("rect", { x: 10, y, width: 70, height: 24, rx: 4, fill: "#e8c547", stroke: "#777" }),
                     svg("text", { x: 16, y: y + 16, "font-size": 11 }, "play for coins")),
                 svg("g", { "data-pick": "discard" }, svg("rect", { x: 90, y, width: 60, height: 24, rx: 4, fill: "#ddd", stroke: "#777" }),
                     svg("text", { x: 96, y: y + 16, "font-size": 11 }, "discard")));
  y += 34;
  const fieldsPer = (name) => (f[name] || "").split("/");
  const [draws, discards, removed] = [fieldsPer("draws"), fieldsPer("discards"), fieldsPer("removed")];
  for (let s = 0; s < seats; s++) {
    const name = ctx.names ? ` ${ctx.names[s]}` : "";
    const drawn = /^\d+$/.test(draws[s] || "") ? draws[s] : String(codes(draws[s]).length);
    picture.append(svg("circle", { cx: 16, cy: y + 8, r: 6, fill: SEATS[s], stroke: "#333" }),
                   svg("text", { x: 28, y: y + 12, "font-size": 12, "font-weight": String(f.to_move) === String(s) ? "bold" : "normal" },
                       `seat ${s}${name}  draw pile ${drawn}  discards ${discards[s] || "-"}  removed ${removed[s] || "-"}`));
    codes(hands[s]).flatMap((c) => (c[0] === "?" ? Array(Number(c.slice(1))).fill("??") : [c])).forEach((c, i) => {
      const x = 10 + i * 42;
      picture.append(svg("g", s === mine && c !== "??" ? { "data-pick": `card:${c}` } : {},
        svg("rect", { x, y: y + 18, width: 38, height: 30, rx: 4, fill: c === "??" ? "#6b5a45" : "#fffaf0", stroke: "#555" }),
        svg("text", { x: x + 19, y: y + 38, "text-anchor": "middle", "font-size": 12 }, c === "??" ? "" : c)));
    });
    y += 58;
  }
  const width = Math.max(mapWidth, 600), height = y + 8;
  picture.setAttribute("viewBox", `0 0 ${width} ${height}`);
  picture.setAttribute("width", width);
  return picture;
}
