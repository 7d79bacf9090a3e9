// The page: three views in tabs (Play, Watch, Replay), each in a module of its own.
import { setupPlay } from "./play.js";
import { setupWatch } from "./watch.js";
import { setupReplay } from "./replay.js";
import { api } from "./util.js";

const views = { play: setupPlay, watch: setupWatch, replay: setupReplay };
const started = {};

async function show(name) {
  for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== name;
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  if (!started[name]) started[name] = views[name](window.expeditionsSetup);
  location.hash = name;
}

window.expeditionsSetup = await api("/api/setup");
for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => show(tab.dataset.tab));
await show((location.hash || "#play").slice(1) in views ? (location.hash || "#play").slice(1) : "play");
document.body.dataset.ready = "1";
