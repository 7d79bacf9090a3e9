// The Play view: a form to seat a person and bots, then one game over a websocket. The page knows
// no rule: it draws the views it is sent and offers the legal decisions it is sent, as clicks on
// the drawing (the edition's `parts` of a decision) and as buttons.
import { api, drawing, el, socketUrl } from "./util.js";
import { drawInto } from "./svg.js";

const $ = (id) => document.getElementById(id);

export function setupPlay(setup) {
  const form = $("play-form");
  const editions = Object.fromEntries(setup.editions.map((e) => [e.name, e]));
  for (const e of setup.editions) form.edition.append(el("option", { value: e.name }, e.name));
  form.advisor.append(el("option", { value: "" }, "none"));
  for (const bot of setup.bots) form.advisor.append(el("option", { value: bot }, bot));
  form.advisor.value = setup.bots.includes("greedy") ? "greedy" : "";

  function seatRows() {
    const players = Number(form.players.value);
    const box = $("play-seats");
    box.replaceChildren();
    for (let s = 0; s < players; s++) {
      const select = el("select", { name: `seat${s}` }, el("option", { value: "person" }, "you"));
      for (const bot of setup.bots) select.append(el("option", { value: bot }, bot));
      select.value = s === 0 ? "person" : setup.bots.includes("random") ? "random" : setup.bots[0];
      box.append(el("label", {}, `seat ${s} `, select));
    }
  }
  function editionChanged() {
    const e = editions[form.edition.value];
    form.players.replaceChildren(...e.seats.map((n) => el("option", { value: n }, String(n))));
    form.players.value = e.default_players;
    const box = $("play-options");
    box.replaceChildren();
    for (const o of e.options) {
      const value = o.name in e.quick ? e.quick[o.name] : o.default;
      let input;
      if (o.choices) {
        input = el("select", { name: `option-${o.name}`, title: o.help });
        o.choices.forEach((c, i) => input.append(el("option", { value: o.low + i }, c)));
      } else {
        input = el("input", { name: `option-${o.name}`, type: "number", min: o.low, max: o.high, title: o.help });
      }
      input.value = value;
      box.append(el("label", {}, `${o.name} `, input));
    }
    seatRows();
  }
  form.edition.addEventListener("change", editionChanged);
  form.players.addEventListener("change", seatRows);
  editionChanged();

  let game = null;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (game) game.close();
    const e = editions[form.edition.value];
    const options = Object.fromEntries(e.options.map((o) => [o.name, Number(form[`option-${o.name}`].value)]));
    const seats = [...Array(Number(form.players.value)).keys()].map((s) => form[`seat${s}`].value);
    const message = { type: "start", edition: e.name, options, seats, movetime_ms: Number(form.movetime.value),
                      advisor: form.advisor.value || null };
    if (form.seed.value !== "") message.seed = Number(form.seed.value);
    game = new Game(message);
  });
  return true;
}

class Game {
  constructor(message) {
    this.socket = new WebSocket(socketUrl("/ws/play"));
    this.socket.onopen = () => this.socket.send(JSON.stringify(message));
    this.socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.socket.onclose = () => { $("status").textContent = "disconnected"; };
    this.picks = [];
    this.legal = [];
    for (const id of ["play-board", "play-choices", "play-result", "play-hands", "play-info", "play-log", "play-review-table"])
      $(id).replaceChildren();
    $("play-hint").onclick = () => this.send({ type: "hint" });
    $("play-review").onclick = () => { $("play-review").disabled = true; this.send({ type: "review" }); };
    $("play-review").disabled = true;
    document.body.dataset.state = "starting";
  }

  close() { this.socket.close(); }
  send(message) { this.socket.send(JSON.stringify(message)); }
  log(id, text, cls) {
    const box = $(id);
    box.append(el("div", cls ? { class: cls } : {}, text));
    box.scrollTop = box.scrollHeight;
  }

  async receive(frame) {
    const handler = this["on_" + frame.type.replace("-", "_")];
    if (handler) await handler.call(this, frame);
  }

  async on_start(frame) {
    this.start = frame;
    this.drawing = await drawing(frame.edition);
    const who = frame.seat === null ? "watching (public view)" : `you are seat ${frame.seat}`;
    $("status").textContent = `${frame.edition} seed ${frame.seed}: ${who}`;
  }

  ctx(seat = this.start.seat) {
    return { layout: this.start.layout, seat, names: this.start.names };
  }

  async on_view(frame) {
    if (!this.drawing) this.drawing = await drawing(this.start.edition);
    this.view = frame.view;
    window.expeditionsView = frame.view; // for tests and the console
    this.legal = frame.legal || [];
    this.picks = [];
    this.picture = drawInto($("play-board"), this.drawing, frame.view, this.ctx());
    this.picture.addEventListener("click", (event) => {
      const target = event.target.closest("[data-pick]");
      if (target) this.pick(target.dataset.pick);
    });
    $("play-hint").disabled = !this.legal.length || !this.start.names;
    document.body.dataset.state = this.legal.length ? "your-turn" : "waiting";
    document.body.dataset.ply = frame.ply;
    this.mark();
    if (this.legal.length && this.sentAt !== undefined) {
      // click to the next turn drawn, and the bots' own time in between (docs/performance.md)
      (window.expeditionsTimings ||= []).push({ ms: performance.now() - this.sentAt, bots: this.botMs });
      this.sentAt = undefined;
    }
  }

  /** Legal decisions whose clicks begin with `picks`; `whole`: those the picks complete. */
  matching(picks, whole = false) {
    return this.legal.filter((d) => {
      const parts = this.drawing.parts(d, this.view);
      if (parts.length < picks.length || (whole && parts.length !== picks.length)) return false;
      return picks.every((p, i) => parts[i] === p);
    });
  }

  pick(id) {
    let picks = [...this.picks, id];
    if (!this.matching(picks).length) picks = this.matching([id]).length ? [id] : [];
    this.picks = picks;
    const done = this.matching(picks, true);
    if (picks.length && done.length === 1 && this.matching(picks).length === 1) return this.decide(done[0]);
    this.mark(done);
  }

  /** Highlights what can be clicked next and offers buttons: every decision without clicks, the
   * decisions the picks so far complete, and all of them as a fallback list. */
  mark(done = []) {
    const next = new Set(this.matching(this.picks).map((d) => this.drawing.parts(d, this.view)[this.picks.length]));
    for (const node of this.picture.querySelectorAll("[data-pick]")) {
      node.classList.toggle("can", next.has(node.dataset.pick));
      node.classList.toggle("picked", this.picks.includes(node.dataset.pick));
    }
    const box = $("play-choices");
    box.replaceChildren();
    const buttons = done.length ? done : this.legal;
    for (const d of buttons) {
      const b = el("button", { "data-decision": d }, d);
      b.onclick = () => this.decide(d);
      box.append(b);
    }
  }

  decide(decision) {
    this.sentAt = performance.now();
    this.botMs = 0;
    this.legal = [];
    this.mark();
    this.send({ type: "decide", decision });
  }

  on_decision(frame) {
    if (frame.seat !== this.start.seat) this.botMs += frame.ms;
    const name = this.start.names[frame.seat];
    this.log("play-log", `seat ${frame.seat} (${name}): ${frame.text}`);
  }
  on_round(frame) { this.log("play-log", `round over: totals ${frame.scores.join(" / ")}`); }
  on_info(frame) {
    const i = frame.info;
    const parts = Object.entries(i).map(([k, v]) => `${k} ${v}`).join("  ");
    this.log("play-info", `seat ${frame.seat}: ${parts}`);
  }
  on_hint_info(frame) {
    const i = frame.info;
    if (i.pv) this.log("play-info", `hint: value ${i.value ?? "-"} pv ${i.pv.join(" ")}`);
  }
  on_hint(frame) {
    if (frame.error) return this.log("play-info", `hint: ${frame.error}`, "fault");
    const value = frame.lines.length && frame.lines[0].value !== undefined ? ` (value ${frame.lines[0].value.toFixed(2)})` : "";
    this.log("play-info", `${frame.bot} suggests ${frame.decision}${value}`);
    for (const node of $("play-choices").querySelectorAll("button"))
      node.style.outline = node.dataset.decision === frame.decision ? "2px solid #d08b00" : "";
  }
  on_fault(frame) {
    this.log("play-log", `seat ${frame.seat} (${this.start.names[frame.seat]}): ${frame.termination} — ${frame.reason}`, "fault");
  }
  on_error(frame) { this.log("play-log", frame.message, "fault"); if (!this.start) $("status").textContent = frame.message; }
  on_kept(frame) { this.log("play-log", `kept as game ${frame.game} (Replay)`); }

  on_end(frame) {
    const names = this.start.names;
    const result = frame.termination === "normal" ? "game over" : `ended by ${frame.termination} of seat ${frame.failed_seat}: ${frame.reason}`;
    $("play-result").textContent = `${result}; scores ${frame.scores.map((s, i) => `${names[i]} ${s}`).join(", ")}`;
    $("play-result").dataset.scores = JSON.stringify(frame.scores);
    this.legal = [];
    $("play-choices").replaceChildren();
    drawInto($("play-board"), this.drawing, frame.final, this.ctx(null));
    frame.infos.forEach((infos, ply) => {
      const last = infos[infos.length - 1];
      if (last && (last.pv || last.value !== undefined))
        this.log("play-info", `ply ${ply}: value ${last.value ?? "-"} pv ${(last.pv || []).join(" ")}`);
    });
    $("play-review").disabled = this.start.seat === null;
    $("play-hint").disabled = true;
    document.body.dataset.state = "over";
  }

  on_review_row(frame) {
    let table = $("play-review-table").querySelector("table");
    if (!table) {
      table = el("table", {}, el("tr", {}, ...["ply", "played", "bot's", "loss"].map((h) => el("th", {}, h))));
      $("play-review-table").append(el("h3", {}, "Review"), table);
    }
    const loss = frame.loss === null ? "-" : frame.loss.toFixed(3);
    table.append(el("tr", {}, el("td", {}, String(frame.ply)), el("td", {}, frame.played),
                    el("td", {}, frame.best + (frame.best === frame.played ? "" : " *")), el("td", {}, loss)));
  }
  on_review(frame) { if (frame.error) this.log("play-log", frame.error, "fault"); }
}
