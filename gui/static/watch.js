// The Watch view: a tournament of the server's database, read again every second: standings with
// Elo and its 95% interval, the recent games, a plot of the ratings over the games, and the games
// in progress, each drawn from its public view (a running game never shows a hand).
import { api, drawing, el } from "./util.js";
import { drawInto, svg } from "./svg.js";

const $ = (id) => document.getElementById(id);
const fmt = (x, digits = 0) => (x === null || x === undefined ? "" : x.toFixed(digits));

export async function setupWatch(setup) {
  if (!setup.db) { $("watch-summary").textContent = "no database: start the server with --db FILE"; return true; }
  const select = $("watch-select");
  async function refreshList() {
    const list = await api("/api/tournaments");
    const chosen = select.value;
    select.replaceChildren(...list.map((t) => el("option", { value: t.id }, `#${t.id} ${t.edition} ${t.format} ${t.bots.join(" v ")} (${t.status})`)));
    if (chosen && list.some((t) => String(t.id) === chosen)) select.value = chosen;
  }
  await refreshList();
  select.addEventListener("change", () => update());
  async function update() {
    if (!select.value) return;
    const t = await api(`/api/tournaments/${select.value}`);
    $("watch-summary").textContent = `${t.edition}: ${t.done} of ${t.planned} games, ${t.status}`;
    $("watch-summary").dataset.done = t.done;
    standingsTable(t);
    $("watch-plot").replaceChildren(plot(t.plot));
    $("watch-games").replaceChildren(...t.games.slice().reverse().map((g) =>
      el("div", {}, `#${g.index} ${g.bots.join(" v ")}: ${g.scores.join("/")}${g.termination === "normal" ? "" : " " + g.termination}`)));
    const live = $("watch-live");
    const boxes = [];
    const d = await drawing(t.edition);
    for (const game of t.live) {
      const board = el("div", { class: "board" });
      drawInto(board, d, game.view, { layout: game.layout, seat: null, names: game.bots });
      boxes.push(el("div", { class: "live" }, el("div", {}, `#${game.index} ${game.bots.join(" v ")}, decision ${game.ply}`), board));
    }
    live.replaceChildren(...boxes);
    live.dataset.count = t.live.length;
  }
  await update();
  setInterval(async () => { try { await update(); } catch (err) { $("status").textContent = err.message; } }, 1000);
  setInterval(refreshList, 10000);
  return true;
}

function standingsTable(t) {
  // A race's scores are places, not points: no margin column (the server sends null).
  const margins = t.standings.some((r) => r.margin !== null);
  const head = ["#", "bot", "games", "points", "score", ...(margins ? ["margin"] : []), "Elo", "95%", "fails"];
  const rows = t.standings.map((r, i) => el("tr", {}, ...[String(i + 1), r.name, String(r.games), fmt(r.points, 1),
    fmt(100 * r.share, 1) + "%", ...(margins ? [fmt(r.margin, 1)] : []), fmt(r.elo),
    r.error === null ? "" : "±" + fmt(r.error), String(r.failures)]
    .map((c) => el("td", {}, c))));
  $("watch-standings").replaceChildren(el("tr", {}, ...head.map((h) => el("th", {}, h))), ...rows);
}

/** Elo of each bot after growing numbers of games, with its 95% interval as a band. */
function plot(points) {
  const w = 520, h = 220, pad = 36;
  const picture = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h });
  if (!points.length) { picture.append(svg("text", { x: 10, y: 20 }, "ratings: for two-sided games, once games are in")); return picture; }
  const names = [...new Set(points.flatMap((p) => p.ratings.map((r) => r.name)))];
  const values = points.flatMap((p) => p.ratings.flatMap((r) => (r.elo === null ? [] : [r.elo - (r.error ?? 0), r.elo + (r.error ?? 0)])));
  const lo = Math.min(-50, ...values), hi = Math.max(50, ...values);
  const maxGames = points[points.length - 1].games;
  const x = (g) => pad + (w - 2 * pad) * (g / maxGames);
  const y = (v) => h - pad - (h - 2 * pad) * ((v - lo) / (hi - lo));
  picture.append(svg("line", { x1: pad, x2: w - pad, y1: y(0), y2: y(0), stroke: "#999" }),
                 svg("text", { x: 2, y: y(0) + 4, "font-size": 10 }, "0"),
                 svg("text", { x: w - pad, y: h - 8, "font-size": 10, "text-anchor": "end" }, `${maxGames} games`),
                 svg("text", { x: 2, y: 12, "font-size": 10 }, "Elo (95% band)"));
  const colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
  names.forEach((name, k) => {
    const series = points.map((p) => [p.games, p.ratings.find((r) => r.name === name)]).filter(([, r]) => r && r.elo !== null);
    if (!series.length) return;
    const colour = colours[k % colours.length];
    const band = series.map(([g, r]) => `${x(g)},${y(r.elo + (r.error ?? 0))}`).concat(
      series.slice().reverse().map(([g, r]) => `${x(g)},${y(r.elo - (r.error ?? 0))}`));
    picture.append(svg("polygon", { points: band.join(" "), fill: colour, opacity: 0.15 }),
                   svg("polyline", { points: series.map(([g, r]) => `${x(g)},${y(r.elo)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2 }),
                   svg("text", { x: w - pad + 2, y: y(series[series.length - 1][1].elo), "font-size": 11, fill: colour }, name));
  });
  return picture;
}
