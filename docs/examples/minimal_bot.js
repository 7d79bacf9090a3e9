#!/usr/bin/env node
// A minimal UEI bot in JavaScript (Node.js): it asks the referee for its legal decisions
// (`request legal`) and plays one of them at random, so it knows no rule of any edition.
// Check it: expeditions protocol-check -- node docs/examples/minimal_bot.js
"use strict";
const readline = require("readline");

function say(line) {
  process.stdout.write(line + "\n");
}

let pending = null; // the answer of a `go infinite`, given at `stop`
const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  const words = line.trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return;
  switch (words[0]) {
    case "uei":
      say("id name minimal-js");
      say("id author expeditions");
      say("id protocol 2");
      say("request legal");
      say("editions classic partners expedition board eldorado");
      say("ueiok");
      break;
    case "isready":
      say("readyok");
      break;
    case "newgame":
    case "position":
    case "gameover":
      break; // the legal decisions come with each go: nothing to remember
    case "go": {
      const at = words.indexOf("legal");
      if (at < 0 || at === words.length - 1) {
        say("info string error go: no legal decisions given (is the seat to move?)");
        break;
      }
      const legal = words.slice(at + 1);
      const choice = legal[Math.floor(Math.random() * legal.length)];
      if (words.includes("infinite")) pending = choice;
      else say("bestmove " + choice);
      break;
    }
    case "stop":
      if (pending !== null) {
        say("bestmove " + pending);
        pending = null;
      }
      break;
    case "quit":
      process.exit(0);
      break;
    case "setoption":
      say("info string error setoption: this bot has no options");
      break;
    default:
      say("info string error unknown command " + words[0]);
  }
});
input.on("close", () => process.exit(0));
