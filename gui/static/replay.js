// The Replay view: a recorded game, decision by decision, with a slider and the arrow keys. A
// recorded game has ended, so its frames show every hand, or one seat's view when chosen.
import { api, drawing, el } from "./util.js";
import { drawInto } from "./svg.js";

const $ = (id) => document.getElementById(id);

export function setupReplay(setup) {
  const slider = $("replay-slider");
  let game = null, d = null;
  async function load() {
    const seat = $("replay-seat").value;
    game = await api(`/api/games/${$("replay-id").value}` + (seat === "" ? "" : `?seat=${seat}`));
    d = await drawing(game.edition);
    const seats = $("replay-seat");
    if (seats.options.length !== game.bots.length + 1) {
      seats.replaceChildren(el("option", { value: "" }, "all (the game has ended)"),
                            ...game.bots.map((b, s) => el("option", { value: s }, `as seat ${s} (${b}) saw it`)));
      seats.value = seat;
    }
    const end = game.termination === "normal" ? "" : ` — ${game.termination}: ${game.reason}`;
    $("replay-head").textContent = `game ${game.id}: ${game.edition}, ${game.bots.map((b, s) => `${s} ${b}`).join(", ")}; scores ${game.scores.join(" / ")}${end}`;
    slider.max = game.frames.length - 1;
    slider.value = Math.min(Number(slider.value), game.frames.length - 1);
    show();
  }
  function show() {
    const ply = Number(slider.value);
    const frame = game.frames[ply];
    const seat = game.seat;
    drawInto($("replay-board"), d, frame.text, { layout: game.layout, seat, names: game.bots });
    const next = frame.decision === null ? "the end" : `next: seat ${frame.seat} plays ${frame.decision} (${frame.ms.toFixed(1)} ms${frame.value === null ? "" : ", value " + frame.value.toFixed(2)})`;
    $("replay-ply").textContent = `decision ${ply} of ${game.frames.length - 1}: ${next}`;
    $("replay-ply").dataset.ply = ply;
  }
  $("replay-load").onclick = () => load().catch((err) => { $("replay-head").textContent = err.message; });
  $("replay-seat").onchange = () => load();
  slider.addEventListener("input", show);
  document.addEventListener("keydown", (event) => {
    if ($("replay").hidden || !game || event.target.tagName === "INPUT" && event.target.type !== "range") return;
    const step = { ArrowRight: 1, ArrowLeft: -1, End: game.frames.length, Home: -game.frames.length }[event.key];
    if (step === undefined) return;
    slider.value = Math.max(0, Math.min(game.frames.length - 1, Number(slider.value) + step));
    show();
    event.preventDefault();
  });
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) { $("replay-id").value = wanted; load(); }
  return true;
}
