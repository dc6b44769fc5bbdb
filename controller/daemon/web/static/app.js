// The page: loads the layout, draws the board, follows the live state over a WebSocket and
// sends the player's clicks to the API (the virtual board's verbs, and commands).
"use strict";

const token = new URLSearchParams(location.search).get("token");
const withToken = (path) => token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path;
const $ = (id) => document.getElementById(id);
let layout = null, view = null, last = null;

async function api(path, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(withToken(path), options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) showLocal(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function showLocal(text) {
  const li = document.createElement("li");
  li.textContent = text;
  li.className = "local";
  $("notices").appendChild(li);
  li.scrollIntoView({ block: "nearest" });
}

function chosenColour() {
  const picked = document.querySelector('input[name="colour"]:checked')?.value || "auto";
  if (picked !== "auto") return picked;
  // While a seat may still twist, a placement means it skipped the twist: the next seat placed.
  const state = last?.state || {}, seat = state.to_move || 1;
  const placing = state.state === "awaiting_twist" ? seat % layout.colours.length + 1 : seat;
  return layout.colours[placing - 1] || layout.colours[0];
}

const actions = {
  hole(name, index) {
    if (!layout.virtual) return;
    const occupied = last && String(index) in (last.marbles || {});
    api(occupied ? "/api/board/lift" : "/api/board/place", occupied ? { hole: name } : { hole: name, colour: chosenColour() });
  },
  // A click turns a quarter; shift-click one encoder detent (to try half-made twists).
  quarter(block, clockwise, oneDetent) {
    if (!layout.virtual) return;
    if (oneDetent) api("/api/board/turn", { block, steps: clockwise ? 1 : -1 });
    else api("/api/board/quarter", { block, clockwise });
  },
};

function buildControls(settings) {
  const colours = $("colours");
  for (const colour of ["auto", ...layout.colours]) {
    const label = document.createElement("label");
    label.innerHTML = `<input type="radio" name="colour" value="${colour}"${colour === "auto" ? " checked" : ""}>` +
      (colour === "auto" ? "" : `<span class="dot" style="background:${colour}"></span>`) + `<span>${colour}</span>`;
    colours.appendChild(label);
  }
  $("ok").onclick = () => api("/api/board/press", { button: "ok" });
  $("back").onclick = () => api("/api/board/press", { button: "back" });
  for (const game of settings.games) $("game").add(new Option(game, game));
  $("computer").checked = !!settings.defaults.computer;
  $("match-play").checked = !!settings.defaults.match;
  $("new-game").onsubmit = (event) => {
    event.preventDefault();
    api("/api/command", { name: "new_game", args: { game: $("game").value, players: 2, computer: $("computer").checked, match: $("match-play").checked } });
  };
  $("take-back").onclick = () => api("/api/command", { name: "take_back" });
  $("menu").onclick = () => api("/api/command", { name: "menu" });
  $("record").href = withToken("/api/record");
}

const STATE_TEXT = {
  choosing: "Choose a game: put a marble on a lit hole, or start one here",
  awaiting_placement: "to place a marble",
  awaiting_twist: "to turn a block",
  repair: "Repair the board as lit",
  game_over: "Game over: clear the board for the next game",
  between_games: "Clear the board for the next game of the match",
};

function render(message) {
  last = message;
  const state = message.state || {};
  view.update(state, message.marbles || {});
  const seat = state.to_move;
  const statusIndex = layout.pixels.findIndex(p => p.kind === "status");
  const rgb = (state.frame || [])[statusIndex] || [0, 0, 0];
  $("turn-swatch").style.background = `rgb(${rgb.join(",")})`;
  $("turn-swatch").style.color = `rgb(${rgb.join(",")})`;
  const doing = STATE_TEXT[state.state] || state.state || "…";
  $("turn-text").textContent = seat && doing.startsWith("to ") ? `Seat ${seat} (${layout.colours[seat - 1]}) ${doing}` : doing;
  if (state.menu) $("turn-text").textContent = `Menu, ${state.menu.page}: put a marble on a lit hole (${state.menu.holes.join(", ")}) or start a game here`;
  renderOutcome(state);
  renderList($("moves"), state.moves || []);
  renderList($("repair"), state.repair || []);
  $("repair").hidden = !(state.repair || []).length;
  renderList($("notices"), message.notices || []);
}

function renderOutcome(state) {
  const outcome = state.outcome;
  $("outcome").hidden = !outcome;
  if (outcome) $("outcome").textContent = outcome.winners.length ? `Seat ${outcome.winners.join(" & ")} wins!` : "Draw";
  const match = state.match;
  $("match").hidden = !match;
  if (match) $("match").textContent = `Match: ${Object.entries(match.wins).map(([s, n]) => `seat ${s}: ${n}`).join(", ")} after ${match.games} game(s)`;
}

function renderList(list, items) {
  list.replaceChildren(...items.map(text => Object.assign(document.createElement("li"), { textContent: text })));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(withToken(`${scheme}://${location.host}/api/live`));
  socket.onopen = () => { $("link").className = "link up"; $("link").textContent = "live"; };
  socket.onmessage = (event) => render(JSON.parse(event.data));
  socket.onclose = () => {
    $("link").className = "link down"; $("link").textContent = "offline";
    setTimeout(connect, 1000);
  };
}

async function start() {
  const settings = await api("/api/layout");
  if (!settings.layout) return;
  layout = settings.layout;
  document.body.classList.toggle("virtual", layout.virtual);
  $("profile").textContent = `${layout.profile} · ${layout.size}x${layout.size}${layout.virtual ? " · virtual board" : ""}`;
  if (!layout.virtual) $("board-hint").textContent = "The board as the daemon sees it, with its LEDs.";
  view = new BoardView($("board"), layout, actions);
  buildControls(settings);
  connect();
}

start();
