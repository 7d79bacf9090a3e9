#!/usr/bin/env node
// A client of the host protocol (docs/host.md) in JavaScript, with nothing but Node's standard
// library: it starts `expeditions host`, plays one game against a bot the host plays, and prints
// what its seat sees. A GUI does the same with buttons instead of the first legal decision.
//
//   node host_client.js [--edition classic] [--seed 7] [--bot greedy] [-- expeditions host]
//
// Everything after `--` is the host's command (default: `expeditions host`).
"use strict";

const { spawn } = require("child_process");
const readline = require("readline");

function parseArguments(argv) {
  const args = { edition: "classic", seed: null, bot: "greedy", host: ["expeditions", "host"] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") {
      args.host = argv.slice(i + 1);
      break;
    }
    const value = argv[i + 1];
    if (argv[i] === "--edition") args.edition = value;
    else if (argv[i] === "--seed") args.seed = Number(value);
    else if (argv[i] === "--bot") args.bot = value;
    else throw new Error(`unknown argument ${argv[i]}`);
    i++;
  }
  return args;
}

// One request at a time: send() returns a promise of the reply with the same id. Events (turns,
// decisions, round ends, the result) arrive between replies and go to onEvent.
class Host {
  constructor(command, onEvent) {
    this.process = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.waiting = new Map();
    this.nextId = 1;
    this.onEvent = onEvent;
    readline.createInterface({ input: this.process.stdout }).on("line", (line) => this.receive(JSON.parse(line)));
    this.process.on("exit", (code) => {
      for (const { reject } of this.waiting.values()) reject(new Error(`the host exited (${code})`));
    });
  }

  receive(message) {
    if ("event" in message) {
      this.onEvent(message);
    } else if (this.waiting.has(message.id)) {
      const { resolve, reject } = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.ok) resolve(message);
      else reject(new Error(`${message.reply}: ${message.error}`));
    }
  }

  send(request) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.process.stdin.write(JSON.stringify({ ...request, id }) + "\n");
    });
  }
}

async function main() {
  const args = parseArguments(process.argv.slice(2));
  const me = 0;
  let finished;
  const over = new Promise((resolve) => (finished = resolve));
  const host = new Host(args.host, (event) => {
    if (event.event === "decision") {
      // What my seat learned of it (a draw of mine shows the card, the bot's does not).
      console.log(`  seat ${event.seat} (${event.by}): ${event.seen[me]}`);
    } else if (event.event === "round") {
      const gained = event.gained.map((g) => (g >= 0 ? `+${g}` : `${g}`)).join(" / ");
      console.log(`round ${event.round} over: ${gained}; totals ${event.totals.join(" / ")}`);
    } else if (event.event === "turn" && event.by === "client") {
      // My turn: the event brings my view and my legal decisions. This client plays the first.
      host.send({ cmd: "apply", seat: event.seat, decision: event.legal[0] }).catch((error) => {
        console.error(error.message);
        process.exit(1);
      });
    } else if (event.event === "result") {
      finished(event);
    }
  });

  const hello = await host.send({ cmd: "hello" });
  const edition = hello.editions.find((e) => e.name === args.edition);
  if (!edition) throw new Error(`the host has no edition ${args.edition}`);
  const start = { cmd: "start", edition: edition.name, options: { rounds: 1 }, bots: {} };
  if (!edition.options.some((o) => o.name === "rounds")) delete start.options.rounds;
  if (args.seed !== null) start.seed = args.seed;
  for (let seat = 1; seat < edition.default_players; seat++) {
    start.bots[String(seat)] = { builtin: args.bot, limits: { movetime: 100 } };
  }
  const started = await host.send(start);
  console.log(`expeditions host protocol ${hello.protocol}: ${edition.name} seed ${started.game.seed}, ` +
              `seat ${me} against ${args.bot}`);
  const result = await over;
  const view = await host.send({ cmd: "view", seat: me });
  console.log(view.view.picture);
  console.log(`game over (${result.termination}): scores ${result.scores.join(" / ")}, ` +
              `my return ${result.returns[me]}`);
  await host.send({ cmd: "quit" });
}

main().catch((error) => {
  console.error(`host_client.js: ${error.message}`);
  process.exit(1);
});
