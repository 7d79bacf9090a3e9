// The card editions' drawing for `expeditions serve` (engine/drawing.py says what a drawing is):
// hands, expeditions (rows), discard piles and the draw pile, read from a view's text (or a
// spectator's public view, or a full position once the game has ended). Cards are two characters,
// colour then rank (docs/notation.md); `?n` is n hidden cards.
const COLOURS = { y: "#e9c430", b: "#3f7fd1", w: "#d9d6cf", g: "#3d9b4a", r: "#d24a3c",
                  c: "#7b5bb5", d: "#c07a2c", h: "#d15f96", s: "#4aa6a0", p: "#8e8e8e" };
const W = 34, H = 48;

const cardsOf = (text) => (!text || text === "-" ? [] : text.match(/\?\d+|../g) || []);

/** The clicks of a decision: a card then its row or pile; a pile or the deck to draw; two cards to pass. */
export function parts(decision, view) {
  const piles = view && /piles=(\S+)/.exec(view);
  const single = piles && !piles[1].includes("/");
  if (decision === "D") return ["deck"];
  if (decision[0] === "D") return [`pile:${single ? "-" : decision[1]}`];
  if (decision[0] === "+") return [`card:${decision.slice(1, 3)}`, "row"];
  if (decision[0] === "-") return [`card:${decision.slice(1, 3)}`, `pile:${single ? "-" : decision[1]}`];
  if (decision[0] === ">") return [`card:${decision.slice(1, 3)}`, `card:${decision.slice(3, 5)}`];
  return [];
}

function card(svg, code, x, y, pick) {
  const hidden = code[0] === "?";
  const g = svg("g", pick ? { "data-pick": pick } : {},
    svg("rect", { x, y, width: W, height: H, rx: 4, fill: hidden ? "#6b5a45" : COLOURS[code[0]] || "#aaa", stroke: "#333" }),
    hidden ? null : svg("text", { x: x + W / 2, y: y + H / 2 + 6, "text-anchor": "middle", "font-size": 17,
                                   "font-weight": "bold", fill: code[0] === "w" ? "#333" : "#fff" }, code[1] === "T" ? "10" : code[1]));
  return g;
}

export function draw(text, ctx) {
  const { svg } = ctx;
  const f = ctx.fields(text);
  const hands = (f.hands || "").split("/");
  const rows = (f.rows || "").split("/");
  const piles = (f.piles || "-").split("/");
  const seats = hands.length;
  const mine = f.seat !== undefined ? Number(f.seat) : ctx.seat;
  const width = 40 + Math.max(12, ...hands.map((h) => handSize(h))) * (W + 4);
  const height = 70 + seats * 2 * (H + 22) + H + 40;
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, "font-family": "sans-serif" });
  const deck = /^\d+$/.test(f.deck || "") ? Number(f.deck) : cardsOf(f.deck).length;
  picture.append(svg("text", { x: 10, y: 18, "font-size": 13 },
    `round ${f.round || "-"}  turn ${f.turn || 0}  ${f.phase === "over" ? "game over" : `seat ${f.to_move} to ${f.phase}`}  totals ${f.totals || ""}`));
  // the draw pile and the discard piles
  let y = 30;
  picture.append(svg("g", { "data-pick": "deck" },
    svg("rect", { x: 10, y, width: W, height: H, rx: 4, fill: "#6b5a45", stroke: "#333" }),
    svg("text", { x: 10 + W / 2, y: y + H / 2 + 5, "text-anchor": "middle", fill: "#fff", "font-size": 13 }, String(deck))));
  const pileColours = piles.length === 1 ? ["-"] : Object.keys(COLOURS).slice(0, piles.length);
  piles.forEach((pile, k) => {
    const x = 60 + k * (W + 14);
    const top = cardsOf(pile).pop();
    const id = `pile:${pileColours[k]}`;
    if (top) picture.append(card(svg, top, x, y, id));
    else picture.append(svg("g", { "data-pick": id }, svg("rect", { x, y, width: W, height: H, rx: 4, fill: "rgba(0,0,0,0)",
      stroke: COLOURS[pileColours[k]] || "#999", "stroke-dasharray": "4 3" })));
  });
  y += H + 24;
  const teams = rows.length < seats;
  for (let s = 0; s < seats; s++) {
    const name = ctx.names ? ` ${ctx.names[s]}` : "";
    const row = rows[teams ? s % rows.length : s];
    picture.append(svg("text", { x: 10, y: y + 12, "font-size": 12, "font-weight": String(f.to_move) === String(s) ? "bold" : "normal" },
      `seat ${s}${name}${teams ? ` — team ${s % rows.length}` : ""}: expeditions`));
    let x = 10;
    const byColour = {};
    for (const c of cardsOf(row)) (byColour[c[0]] ||= []).push(c);
    if (!teams || s < rows.length) {
      for (const [colour, list] of Object.entries(byColour)) {
        list.forEach((c, i) => picture.append(card(svg, c, x + i * 9, y + 16, s === mine ? "row" : null)));
        x += W + 9 * (list.length - 1) + 10;
      }
      if (s === mine) picture.append(svg("g", { "data-pick": "row" }, svg("rect", { x, y: y + 16, width: W, height: H, rx: 4,
        fill: "rgba(0,0,0,0)", stroke: "#999", "stroke-dasharray": "4 3" }), svg("text", { x: x + 4, y: y + 44, "font-size": 10 }, "play")));
    }
    y += H + 22;
    picture.append(svg("text", { x: 10, y: y + 12, "font-size": 12 }, `hand`));
    cardsOf(hands[s]).flatMap((c) => (c[0] === "?" ? Array(Number(c.slice(1))).fill("??") : [c])).forEach((c, i) =>
      picture.append(card(svg, c, 10 + i * (W + 4), y + 16, s === mine && c !== "??" ? `card:${c}` : null)));
    y += H + 22;
  }
  return picture;
}

function handSize(text) {
  return cardsOf(text).reduce((n, c) => n + (c[0] === "?" ? Number(c.slice(1)) : 1), 0);
}
