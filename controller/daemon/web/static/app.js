// The page: loads the layout, draws the board, follows the live state over a WebSocket and
// sends the player's clicks to the API (the virtual board's verbs, and commands).
"use strict";

const token = new URLSearchParams(location.search).get("token");
const withToken = (path) => token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path;
const $ = (id) => document.getElementById(id);
let layout = null, view = null, last = null;

// -- talking to the daemon -----------------------------------------------------------------------

// Never throws: a refused request shows the daemon's reason, an unreachable daemon says so (a
// click while the server is down must not vanish as an uncaught "Failed to fetch").
async function api(path, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(withToken(path), options);
  } catch (error) {
    showLocal(`Could not reach the board (${path.replace("/api/", "")}): the daemon is not answering. The page reconnects by itself.`);
    live.lost();
    return {};
  }
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

// The live link, shown in the header: "live" while the socket is open, "reconnecting" after a
// loss, "offline" once a few tries failed; it keeps trying with a growing pause (up to 8 s).
const live = {
  socket: null, failures: 0, timer: null,
  show(state, title) {
    $("link").className = `link ${state}`;
    $("link").textContent = state;
    $("link").title = title;
    document.body.classList.toggle("stale", state !== "live");  // what is drawn may be old
  },
  connect() {
    this.timer = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = this.socket = new WebSocket(withToken(`${scheme}://${location.host}/api/live`));
    socket.onopen = () => { this.failures = 0; this.show("live", "following the board live"); };
    socket.onmessage = (event) => render(JSON.parse(event.data));
    socket.onclose = () => this.retry();
  },
  retry() {
    if (this.timer !== null) return;
    this.failures += 1;
    const delay = Math.min(8000, 500 * 2 ** (this.failures - 1));
    this.show(this.failures > 3 ? "offline" : "reconnecting", `the board is not answering; trying again in ${delay / 1000} s`);
    this.timer = setTimeout(() => this.connect(), delay);
  },
  lost() {  // a request failed: the socket may not have noticed yet
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.close();
  },
};

// -- what the player does ------------------------------------------------------------------------

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
      (colour === "auto" ? "" : `<span class="dot" style="background:${layout.looks[colour]?.marble || colour}"></span>`) + `<span>${colour}</span>`;
    colours.appendChild(label);
  }
  $("ok").onclick = () => api("/api/board/press", { button: "ok" });
  $("back").onclick = () => api("/api/board/press", { button: "back" });
  $("clear").onclick = () => api("/api/board/clear", {});
  for (const game of settings.games) $("game").add(new Option(game, game));
  $("computer").checked = !!settings.defaults.computer;
  $("match-play").checked = !!settings.defaults.match;
  $("game").onchange = offerFlags;
  offerFlags();
  // The game's own options (players, twist) take its defaults; the flags only where it has them.
  $("new-game").onsubmit = (event) => {
    event.preventDefault();
    const args = { game: $("game").value };
    for (const [key, box] of [["computer", $("computer")], ["match", $("match-play")]]) if (!box.disabled) args[key] = box.checked;
    api("/api/command", { name: "new_game", args });
  };
  $("take-back").onclick = () => api("/api/command", { name: "take_back" });
  $("menu").onclick = () => api("/api/command", { name: "menu" });
  $("record").href = withToken("/api/record");
  buildLegend();
}

// The computer and match boxes only for a game that offers them (classic does, multiplayer not).
function offerFlags() {
  const pages = layout.menu?.pages?.[$("game").value] || {};
  $("computer").disabled = !("computer" in pages);
  $("match-play").disabled = !("match" in pages);
}

// Every LED colour the board shows and what it means (the same RGB the LEDs get).
function buildLegend() {
  $("legend").replaceChildren(...layout.legend.map(({ rgb, looks, means }) => {
    const li = document.createElement("li");
    const dot = Object.assign(document.createElement("span"), { className: "light" });
    dot.style.background = dot.style.color = `rgb(${rgb.join(",")})`;
    li.append(dot, Object.assign(document.createElement("span"), { textContent: `${looks}: ${means}` }));
    return li;
  }));
}

// -- showing the state ---------------------------------------------------------------------------

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
  renderTurn(state);
  renderMenu(state.menu, state.physical || []);
  followOptions(state);
  renderOutcome(state);
  renderList($("moves"), state.moves || []);
  renderList($("repair"), state.repair || []);
  $("repair").hidden = !(state.repair || []).length;
  renderList($("notices"), message.notices || []);
}

// The swatch is the turn light as the board shows it: the seat's marble ringed by its LED glow
// (a black marble glows violet), so the words and the colours agree.
function renderTurn(state) {
  const seat = state.to_move, colour = seat ? layout.colours[seat - 1] : null;
  const statusIndex = layout.pixels.findIndex(p => p.kind === "status");
  const rgb = `rgb(${((state.frame || [])[statusIndex] || [0, 0, 0]).join(",")})`;
  $("turn-swatch").style.background = colour ? layout.looks[colour]?.marble || colour : rgb;
  $("turn-swatch").classList.toggle("off", !colour && rgb === "rgb(0,0,0)");
  $("turn-swatch").style.color = rgb;
  $("turn-swatch").title = colour ? `turn light: ${layout.looks[colour]?.light || colour} for ${colour}` : "the turn light";
  const doing = STATE_TEXT[state.state] || state.state || "…";
  $("turn-text").textContent = seat && doing.startsWith("to ") ? `Seat ${seat}${colour ? ` (${colour})` : ""} ${doing}` : doing;
  if (state.menu) $("turn-text").textContent = `Menu, ${state.menu.page}: put a marble on a lit hole (${state.menu.holes.join(", ")}) or start a game here`;
}

// The menu's page explained: what each lit hole picks, what was chosen, and a marble that sits
// on no option (it picks nothing: say so, or the player waits for ever).
function renderMenu(menu, physical) {
  $("menu-help").hidden = !menu;
  if (!menu) return;
  const options = pageOptions(menu);
  $("menu-options").replaceChildren(...menu.holes.map((hole, i) => Object.assign(document.createElement("li"), {
    textContent: `${hole}: ${options[i]?.means ?? "?"}${menu.pick === i ? " (picked)" : ""}`,
    className: menu.pick === i ? "picked" : "",
  })));
  const chosen = Object.entries(menu.chosen || {}).map(([page, value]) => meaning(page, value, menu.chosen));
  $("menu-chosen").hidden = !chosen.length;
  $("menu-chosen").textContent = `Chosen so far: ${chosen.join("; ")}`;
  const stray = occupiedHoles(physical).filter(name => !menu.holes.includes(name));
  $("menu-stray").hidden = !stray.length;
  $("menu-stray").textContent = `${stray.join(", ")} ${stray.length > 1 ? "are" : "is"} not a menu option: lift ${stray.length > 1 ? "those marbles" : "that marble"} (the options are ${menu.holes.join(", ")}).`;
}

// The current page's options in hole order, {value, means}: from the state when the core sends
// them, else from the layout's menu (the games, then the chosen game's own pages).
function pageOptions(menu) {
  return menu.options || optionsOf(menu.page, menu.chosen || {});
}

function optionsOf(page, chosen) {
  const games = layout.menu?.games || [];
  if (page === "game") return games;
  return layout.menu?.pages?.[chosen.game ?? games[0]?.value]?.[page] || [];
}

function meaning(page, value, chosen) {
  return optionsOf(page, chosen).find(option => option.value === value)?.means ?? String(value);
}

// Hole names holding a marble, from the state's physical rows (top row first).
function occupiedHoles(rows) {
  return layout.holes.filter(h => ![undefined, "."].includes((rows[layout.size - 1 - h.row] || "")[h.column])).map(h => h.name);
}

// The checkboxes follow the game the menu picks or started, but only when that changes, so a
// player's own tick is not undone by the next frame.
const followed = {};
function followOptions(state) {
  const menu = state.menu;
  const picked = menu && menu.pick !== null ? { [menu.page]: pageOptions(menu)[menu.pick]?.value } : {};
  const options = menu ? { ...menu.chosen, ...picked } : (state.options || {});
  for (const [key, box] of [["computer", $("computer")], ["match", $("match-play")]]) {
    if (typeof options[key] !== "boolean" || options[key] === followed[key]) continue;
    box.checked = followed[key] = options[key];
  }
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

// -- start ---------------------------------------------------------------------------------------

async function start() {
  const settings = await api("/api/layout");
  if (!settings.layout) {  // the message says why; only an unreachable daemon is worth a retry
    live.show("offline", settings.error || "could not load the board; trying again");
    if (!settings.error) setTimeout(start, 3000);
    return;
  }
  layout = settings.layout;
  document.body.classList.toggle("virtual", layout.virtual);
  $("profile").textContent = `${layout.profile} · ${layout.size}x${layout.size}${layout.virtual ? " · virtual board" : ""}`;
  if (!layout.virtual) $("board-hint").textContent = "The board as the daemon sees it, with its LEDs.";
  view = new BoardView($("board"), layout, actions);
  buildControls(settings);
  live.connect();
}

start();
