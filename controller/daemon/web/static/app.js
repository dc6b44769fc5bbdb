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
  // The referee's own health, sent with every state: "paused" (it cannot save its moves) or
  // "stopped" (it does not answer) in the header, and in words over the board.
  health(health) {
    const status = health?.status || "live";
    if (this.socket?.readyState === WebSocket.OPEN) this.show(status, health?.words || "following the board live");
    $("health").hidden = status === "live";
    $("health").textContent = status === "live" ? "" : health.words;
  },
};

// -- what the player does ------------------------------------------------------------------------

// The colour of the marble put on ``index``: the hand's, or with "auto" the colour the board
// asks there (a hole lit in a marble colour: Picture-Puzzle's build, Triple's prompt; in repair
// the turn pixels show the marble to put back), else the colour of the seat due.
function chosenColour(index) {
  const picked = document.querySelector('input[name="colour"]:checked')?.value || "auto";
  if (picked !== "auto") return picked;
  const state = last?.state || {};
  const lit = marbleLit(state, layout.pixels.findIndex(p => p.kind === "hole" && p.hole === index));
  if (lit) return lit;
  if (state.state === "repair") {
    const shown = marbleLit(state, layout.pixels.findIndex(p => p.kind === "status"));
    if (shown) return shown;
  }
  if (!seatsWearMarbles(state)) return gameColours(state)[0];
  // While a seat may still twist, a placement means it skipped the twist: the next seat placed.
  const seat = state.to_move || 1;
  return seatColour(state, state.state === "awaiting_twist" ? nextPlaying(state, seat) : seat) || layout.colours[0];
}

// The game's marble colour pixel ``i`` of the frame shows (at any brightness), or null.
function marbleLit(state, i) {
  const rgb = (state.frame || [])[i] || [0, 0, 0], top = Math.max(...rgb);
  if (i < 0 || !top) return null;
  return gameColours(state).find(colour => {
    const want = layout.looks[colour]?.rgb || [0, 0, 0], full = Math.max(...want);
    return full && want.every((v, k) => Math.abs(v / full - rgb[k] / top) < 0.05);
  }) || null;
}

// The hand holds the marble it lifted, as a real hand does, until it is put down (then "auto"
// again, where the hand has it): picking a colour by hand lets it go.
const hand = {
  held: false,
  hold(colour) {
    const radio = document.querySelector(`input[name="colour"][value="${colour}"]`);
    if (!radio) return;
    this.held = !!document.querySelector('input[name="colour"][value="auto"]');
    radio.checked = true;
  },
  putDown() {
    if (!this.held) return;
    this.held = false;
    const auto = document.querySelector('input[name="colour"][value="auto"]');
    if (auto) auto.checked = true;
  },
};

// -- the seats of the game in play: names, colours, teams ----------------------------------------

function seatOf(state, seat) {
  return (state.seats || []).find(s => s.seat === seat);
}

function seatName(state, seat) {
  return seatOf(state, seat)?.name ?? `Seat ${seat}`;
}

function seatColour(state, seat) {
  return seatOf(state, seat)?.colour ?? layout.colours[seat - 1];
}

// The seat after ``seat`` among those still playing (winners no longer move).
function nextPlaying(state, seat) {
  const playing = state.playing?.length ? state.playing : (state.seats || []).map(s => s.seat);
  return playing.find(s => s > seat) ?? playing[0] ?? seat;
}

// The game's marble colours in colour-index order (partners share one): the board's own without a game.
function gameColours(state) {
  return state?.marbles?.length ? state.marbles : layout.colours;
}

// A seat plays its own colour (classic and the family), or every player chooses the marble's
// colour (Pentago Triple: the seats' colours are no marble's, and the hand has no "auto").
function seatsWearMarbles(state) {
  const marbles = gameColours(state);
  return (state?.seats || []).every(s => marbles.includes(s.colour));
}

// The sides of the game: one per seat, or one per pair where seats share a colour (team play).
function sides(state) {
  const byColour = new Map();
  for (const s of state.seats || []) {
    if (!byColour.has(s.colour)) byColour.set(s.colour, []);
    byColour.get(s.colour).push(s);
  }
  const teams = [...byColour.values()].some(group => group.length > 1);
  if (!teams) return (state.seats || []).map(s => ({ seats: [s.seat], colour: s.colour, name: s.name }));
  return [...byColour].map(([colour, group]) => ({ seats: group.map(s => s.seat), colour, team: true,
    name: `Team ${colour}: ${group.map(s => s.name).join(" & ")}` }));
}

const ORDINALS = ["1st", "2nd", "3rd", "4th"];

const actions = {
  async hole(name, index) {
    if (!layout.virtual) return;
    const marbles = last?.marbles || {}, occupied = String(index) in marbles;
    const answer = await api(occupied ? "/api/board/lift" : "/api/board/place",
      occupied ? { hole: name } : { hole: name, colour: chosenColour(index) });
    if (answer.done && occupied && marbles[String(index)]) hand.hold(marbles[String(index)]);
    else if (answer.done) hand.putDown();
  },
  // A click turns a quarter; shift-click one encoder detent (to try half-made twists).
  quarter(block, clockwise, oneDetent) {
    if (!layout.virtual) return;
    if (oneDetent) api("/api/board/turn", { block, steps: clockwise ? 1 : -1 });
    else api("/api/board/quarter", { block, clockwise });
  },
};

function buildControls(settings) {
  buildHand(layout.colours);
  $("ok").onclick = () => api("/api/board/press", { button: "ok" });
  $("back").onclick = () => api("/api/board/press", { button: "back" });
  $("clear").onclick = () => api("/api/board/clear", {});
  for (const game of layout.games) $("game").add(new Option(game.title, game.name));
  const defaults = settings.defaults || {};
  if (layout.games.some(game => game.name === defaults.game)) $("game").value = defaults.game;
  $("game").onchange = () => buildGameOptions({});
  buildGameOptions(defaults.game === $("game").value ? defaults : {});
  $("new-game").onsubmit = (event) => {
    event.preventDefault();
    api("/api/command", { name: "new_game", args: newGameArgs() });
  };
  $("take-back").onclick = () => api("/api/command", { name: "take_back" });
  $("hint").onclick = () => api("/api/command", { name: "hint" });
  $("menu").onclick = () => api("/api/command", { name: "menu" });
  $("save-picture").onsubmit = (event) => {  // the board as it stands, among the user pictures
    event.preventDefault();
    api("/api/command", { name: "save_picture", args: { title: $("picture-title").value } });
  };
  $("record").href = withToken("/api/record");
  $("summary").href = withToken("/api/summary");
  $("legend-all").replaceChildren(...legendItems(layout.legend.all));
}

// "Your hand": the marble colours of the game in play (auto: the colour of the seat due, in the
// games where a seat plays its own colour).
// A prompted move (the computer's, a hint) with its marble's colour: the hand takes that colour
// once per prompt where the players choose colours (Pentago Triple), so a click plays it.
let prompted = null;
function followPrompt(state) {
  const prompt = state.prompt, key = prompt ? `${prompt.move} ${prompt.seat}` : null;
  if (key === prompted) return;
  prompted = key;
  if (prompt?.colour && !document.querySelector('input[name="colour"][value="auto"]')) {
    const radio = document.querySelector(`input[name="colour"][value="${prompt.colour}"]`);
    if (radio) radio.checked = true;
  }
}

function buildHand(colours, auto = true) {
  const picked = document.querySelector('input[name="colour"]:checked')?.value;
  const first = colours.includes(picked) ? picked : auto ? "auto" : colours[0];
  $("colours").replaceChildren(...[...(auto ? ["auto"] : []), ...colours].map(colour => {
    const label = document.createElement("label");
    label.innerHTML = `<input type="radio" name="colour" value="${colour}"${colour === first ? " checked" : ""}>` +
      (colour === "auto" ? "" : `<span class="dot" style="background:${layout.looks[colour]?.marble || colour}"></span>`) + `<span>${colour}</span>`;
    return label;
  }));
  $("colours").dataset.colours = `${auto ? "auto," : ""}${colours.join(",")}`;
  $("colours").onchange = () => { hand.held = false; };
}

const chosenGame = () => layout.games.find(game => game.name === $("game").value) || layout.games[0];

// The chosen game's own options, from the layout: a choice of several values is a select (a
// yes/no one a checkbox saying what "yes" means), a single value is said in words. Each control
// has the option's name as its id; ``values`` are the ones to show (defaults otherwise). The
// computer's seats are a box beside each seat's name (see buildNames).
function buildGameOptions(values) {
  const game = chosenGame();
  $("game-options").replaceChildren(...game.options.filter(option => option.name !== "computer").map(option => {
    const value = option.name in values ? values[option.name] : option.default;
    const label = document.createElement("label");
    if (option.input) {  // a free option (Triple's cards or seed): typed, empty for its default
      const field = Object.assign(document.createElement("input"), { type: option.input, id: option.name,
        placeholder: option.values[0].means, value: value ?? "", autocomplete: "off" });
      if (option.input === "number") field.min = "0";
      label.className = "free";
      label.append(`${option.label} `, field);
    } else if (option.values.length === 1) {
      label.className = "fixed";
      label.textContent = option.values[0].means;
    } else if (typeof option.default === "boolean") {
      const box = Object.assign(document.createElement("input"), { type: "checkbox", id: option.name, checked: !!value });
      if (option.name === "hints") box.onchange = followLevel;
      if (option.name === "practice") box.onchange = () => buildNames();  // practice is one child: one name
      label.append(box, ` ${option.values.find(v => v.value === true)?.means ?? option.name}`);
    } else {
      const select = Object.assign(document.createElement("select"), { id: option.name });
      const practice = game.options.some(o => o.name === "practice");  // its box asks for the 1 player the menu offers
      option.values.forEach((v, i) => {
        if (!(practice && option.name === "players" && v.value === 1)) select.add(new Option(v.means, String(i), false, v.value === value));
      });
      if (option.name === "players") select.onchange = () => buildNames();
      if (option.name === "level") select.title = practice ? "the computer's dismantle in practice" : "the computer's level (for its seats and hints)";
      label.append(`${option.label} `, select);
    }
    return label;
  }));
  buildNames(computerSeats("computer" in values ? values.computer : game.options.find(o => o.name === "computer")?.default));
}

// The seats a "computer" value names: true is seat 2, false none, else the list.
function computerSeats(value) {
  return value === true ? [2] : Array.isArray(value) ? value : [];
}

// The value each of the chosen game's options has in the form.
function formOptions() {
  const out = {};
  for (const option of chosenGame().options) {
    if (option.name === "computer") {
      out.computer = [...$("name-fields").querySelectorAll("input.computer:checked")].map(box => Number(box.dataset.seat));
      continue;
    }
    const control = $("game-options").querySelector(`#${option.name}`);
    if (!control) out[option.name] = option.values[0].value;
    else if (option.input) out[option.name] = freeValue(option, control.value.trim());
    else out[option.name] = control.type === "checkbox" ? control.checked : option.values[Number(control.value)].value;
  }
  if (out.practice === true) out.players = 1;  // Picture-Puzzle practice: the child alone, the computer dismantles
  return out;
}

// One name field per seat, its colour beside it (partners share one), and a box for the computer
// to play it where the game has a computer opponent; typed names and ticked boxes are kept when
// the number of players changes (``seats``: the computer's seats to tick instead).
function buildNames(seats) {
  const game = chosenGame(), players = formOptions().players ?? 2;
  const colours = game.seats[String(players)] || (players === 1 ? (game.seats["2"] || []).slice(0, 1) : []);  // 1: practice
  const typed = [...$("name-fields").querySelectorAll("input[type=text]")].map(input => input.value);
  const ticked = seats ?? [...$("name-fields").querySelectorAll("input.computer:checked")].map(box => Number(box.dataset.seat));
  const computer = game.options.some(option => option.name === "computer");
  const shared = colours.filter((c, i) => colours.indexOf(c) !== i).length > 0;
  $("name-fields").replaceChildren(...colours.map((colour, i) => {
    const label = Object.assign(document.createElement(computer ? "div" : "label"), { className: "name-field" });
    const dot = Object.assign(document.createElement("span"), { className: "dot", title: colour });
    dot.style.background = layout.looks[colour]?.marble || colour;
    const input = Object.assign(document.createElement("input"), { type: "text", id: `name-${i + 1}`, value: typed[i] || "",
      placeholder: `Seat ${i + 1}`, maxLength: layout.name_chars || 24, autocomplete: "off" });
    input.setAttribute("aria-label", `name of seat ${i + 1} (${colour})`);
    label.append(dot, Object.assign(document.createElement("span"), { className: "seat-colour", textContent: shared ? `team ${colour}` : colour }), input);
    if (computer) {
      const box = Object.assign(document.createElement("input"), { type: "checkbox", className: "computer", id: `computer-${i + 1}`,
        checked: ticked.includes(i + 1), title: `the computer plays seat ${i + 1}` });
      box.dataset.seat = String(i + 1);
      box.onchange = () => { input.placeholder = box.checked ? "Computer" : `Seat ${i + 1}`; followLevel(); };
      if (box.checked) input.placeholder = "Computer";
      const tick = Object.assign(document.createElement("label"), { className: "computer-seat" });
      tick.append(box, " computer");
      label.append(tick);
    }
    return label;
  }));
  followLevel();
}

// The level matters only when the computer plays a seat (hints use it too, so it stays on then),
// or in Picture-Puzzle's practice, where it dismantles.
function followLevel() {
  const level = $("game-options").querySelector("#level");
  const hints = $("game-options").querySelector("#hints"), practice = $("game-options").querySelector("#practice");
  if (level) level.disabled = practice ? !practice.checked
    : !$("name-fields").querySelector("input.computer:checked") && !(hints && hints.checked);
}

// A free option's typed text as the API takes it: a number field's number (the daemon refuses
// what is not a whole number, saying why), the text itself; empty: the option's default.
function freeValue(option, text) {
  if (text === "") return option.default;
  return option.input === "number" && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

function newGameArgs() {
  const game = chosenGame(), options = formOptions(), args = { game: game.name };
  for (const option of game.options) {
    if (option.values.length > 1 || (option.input && options[option.name] !== option.default)) args[option.name] = options[option.name];
  }
  const names = [...$("name-fields").querySelectorAll("input[type=text]")].map(input => input.value.trim());
  if (names.some(Boolean)) args.names = names.map((name, i) => name || `Seat ${i + 1}`);
  return args;
}

// What the LEDs' colours mean: the game's in play (at the menu, the game being chosen) first,
// so a phone shows a handful of lines, and every game's below, folded (the same RGB the LEDs get).
function renderLegend(state) {
  const name = state.game ?? state.menu?.chosen?.game ?? layout.menu?.games?.[0]?.value ?? layout.games[0]?.name;
  if ($("legend").dataset.game === name) return;
  $("legend").dataset.game = name;
  const game = layout.games.find(g => g.name === name);
  $("legend-game").textContent = game ? `in ${game.title}` : "";
  $("legend").replaceChildren(...legendItems(layout.legend.games[name] || layout.legend.all));
}

function legendItems(entries) {
  return entries.map(({ rgb, looks, means }) => {
    const li = document.createElement("li");
    const dot = Object.assign(document.createElement("span"), { className: "light" });
    dot.style.background = dot.style.color = `rgb(${rgb.join(",")})`;
    li.append(dot, Object.assign(document.createElement("span"), { textContent: `${looks}: ${means}` }));
    return li;
  });
}

// -- showing the state ---------------------------------------------------------------------------

function render(message) {
  last = message;
  live.health(message.health);
  const state = message.state || {};
  view.update(state, message.marbles || {}, message.offsets || {});
  renderSensors(state);
  renderTurn(state);
  renderLegend(state);
  renderPrompt(state);
  renderMidTurn(state, message.offsets || {});
  renderStandings(state);
  const colours = gameColours(state), auto = seatsWearMarbles(state);
  if ($("colours").dataset.colours !== `${auto ? "auto," : ""}${colours.join(",")}`) buildHand(colours, auto);
  followPrompt(state);
  followLibrary(state);
  renderCards(state);
  renderConfirm(state);
  renderMenu(state.menu, state.physical || []);
  followOptions(state);
  renderOutcome(state);
  renderRound(state);
  renderList($("moves"), state.moves || []);
  renderList($("repair"), state.repair || []);
  $("repair").hidden = !(state.repair || []).length;
  renderList($("notices"), message.notices || []);
}

// While the sensor link is down nothing is refused or accepted: say so, why and what to do (the
// board's turn pixels flash cyan side to side meanwhile).
function renderSensors(state) {
  const down = state.link === false;
  $("sensors").hidden = !down;
  if (down) $("sensors").textContent = `The sensors are not connected, so nothing is refereed: ${state.link_problem || "the sensor link is down"}.`;
}

// The swatch is the turn light as the board shows it: the seat's marble ringed by its LED glow
// (a black marble glows violet), so the words and the colours agree.
function renderTurn(state) {
  const seat = state.to_move, colour = seat ? seatColour(state, seat) : null;
  const statusIndex = layout.pixels.findIndex(p => p.kind === "status");
  const rgb = `rgb(${((state.frame || [])[statusIndex] || [0, 0, 0]).join(",")})`;
  $("turn-swatch").style.background = colour ? layout.looks[colour]?.marble || colour : rgb;
  $("turn-swatch").classList.toggle("off", !colour && rgb === "rgb(0,0,0)");
  $("turn-swatch").style.color = rgb;
  $("turn-swatch").title = colour ? `turn light: ${layout.looks[colour]?.light || colour} for ${colour}` : "the turn light";
  const doing = state.doing || "…";
  const name = seatName(state, seat), plays = !colour ? "" : name.endsWith(")") ? `, ${seatWords(state, colour)},` : ` (${seatWords(state, colour)})`;
  $("turn-text").textContent = seat && doing.startsWith("to ") ? `${name}${plays} ${doing}` : doing;
  if (state.menu) $("turn-text").textContent = `Menu, ${pageLabel(state.menu)}: put a marble on a lit hole (${state.menu.holes.join(", ")}) or start a game here`;
}

// A seat's colour as the headline names it: its marbles' colour, or where the seats wear no
// marble colour (Pentago Triple: every player places blue, yellow and red), its turn light as it
// looks ("white light", "violet light"), so no one looks for a white marble.
function seatWords(state, colour) {
  return seatsWearMarbles(state) ? colour : `${layout.looks[colour]?.light || colour} light`;
}

// The menu page's name in words ("First k", never start_k).
function pageLabel(menu) {
  if (menu.page === "game") return "game";
  const game = menu.chosen?.game ?? layout.menu?.games?.[0]?.value;
  return (layout.menu?.labels?.[game]?.[menu.page] ?? menu.page).toLowerCase();
}

// What the board lights for the player to move, on the Game card beside the turn: the
// computer's move or a hint, the move and what to do ("put a black marble on e5, then turn
// block 3 clockwise"), as the messages say it far below.
function renderPrompt(state) {
  const prompt = state.prompt;
  $("prompt").hidden = !prompt;
  if (!prompt) return;
  $("prompt").textContent = prompt.by === "hint"
    ? `Hint for ${prompt.name}: ${prompt.move}, ${prompt.words}.`
    : `${prompt.name} plays ${prompt.move}: ${prompt.words}.`;
  $("prompt").dataset.by = prompt.by;
}

// A block left part-way through a turn (a shift-click is one detent): its holes take no marble
// and no move counts until it stands square again.
function renderMidTurn(state, offsets) {
  const blocks = [...new Set([...(state.mid_turn || []), ...Object.keys(offsets).map(Number)])].sort((a, b) => a - b);
  $("mid-turn").hidden = !blocks.length;
  if (!blocks.length) return;
  const which = blocks.length > 1 ? `blocks ${blocks.join(" and ")}` : `block ${blocks[0]}`;
  $("mid-turn").textContent = `Finish or undo the turn of ${which}: ${blocks.length > 1 ? "they stand" : "it stands"} part-way `
    + "through a quarter turn (turn it on to the next quarter, or back), and takes no marble until then.";
}

// The players of the game in play, best placed first: each side's place (a shared place says
// so), its colour as it looks (the marble ringed by its light), its name (a pair for team play)
// and whether it still plays or is to move. Placed rows are lit in their colour, like their rows
// of marbles on the board.
function renderStandings(state) {
  const all = sides(state);
  $("players-card").hidden = !all.length;
  const standings = state.standings || [], playing = state.playing || [];
  const rows = [], placed = new Set();
  let rank = 1;
  for (const place of standings) {
    const here = all.filter(side => side.seats.some(seat => place.includes(seat)));
    for (const side of here) {
      rows.push({ side, place: `${ORDINALS[rank - 1] || `${rank}th`}${here.length > 1 ? " (shared)" : ""}`, rank });
      placed.add(side);
    }
    rank += here.length;
  }
  for (const side of all) {
    if (placed.has(side)) continue;
    const plays = side.seats.some(seat => playing.includes(seat));
    const moving = plays && side.seats.includes(state.to_move);
    const out = side.seats.some(seat => (state.eliminated || []).includes(seat));
    const status = moving ? (side.team ? `${seatName(state, state.to_move)} to move` : "to move") : plays ? "plays" : out ? "out" : "";
    rows.push({ side, place: "", status, moving });
  }
  $("standings").tBodies[0].replaceChildren(...rows.map(({ side, place, rank, status, moving }) => {
    const tr = document.createElement("tr");
    tr.dataset.seats = side.seats.join(",");
    tr.classList.toggle("placed", !!place);
    tr.classList.toggle("first", rank === 1);
    tr.classList.toggle("moving", !!moving);
    const light = layout.looks[side.colour]?.rgb || [128, 128, 128];
    tr.style.setProperty("--light", `rgb(${light.join(",")})`);
    const dot = Object.assign(document.createElement("span"), { className: "swatch small", title: `${side.colour}, glows ${layout.looks[side.colour]?.light || side.colour}` });
    dot.style.background = layout.looks[side.colour]?.marble || side.colour;
    dot.style.color = `rgb(${light.join(",")})`;
    const cells = [place, dot, side.name, status || ""].map((content, i) => {
      const td = document.createElement("td");
      td.className = ["place", "colour", "name", "status"][i];
      td.append(content);
      return td;
    });
    tr.append(...cells);
    return tr;
  }));
  const over = !!state.outcome;
  const left = all.filter(side => !placed.has(side) && side.seats.some(seat => playing.includes(seat)));
  $("standings-note").textContent = over ? "Final standings" : placed.size && left.length
    ? `${left.map(side => side.name).join(" and ")} ${left.length > 1 ? "play" : "plays"} on for ${ORDINALS[rank - 1] || `${rank}th`} place` : "";
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
  return optionsOf(page, chosen).find(option => JSON.stringify(option.value) === JSON.stringify(value))?.means ?? String(value);  // seat lists too
}

// Hole names holding a marble, from the state's physical rows (top row first).
function occupiedHoles(rows) {
  return layout.holes.filter(h => ![undefined, "."].includes((rows[layout.size - 1 - h.row] || "")[h.column])).map(h => h.name);
}

// The form follows the game the menu picks or started (its options and names), but only when a
// value changes, so a player's own choice in the form is not undone by the next frame.
const followed = {};
function followOptions(state) {
  const menu = state.menu;
  const picked = menu && menu.pick !== null ? { [menu.page]: pageOptions(menu)[menu.pick]?.value } : {};
  const options = menu ? { ...menu.chosen, ...picked } : (state.options || {});
  if (options.game !== undefined && options.game !== followed.game) {
    followed.game = options.game;
    if (layout.games.some(game => game.name === options.game) && $("game").value !== options.game) {
      $("game").value = options.game;
      buildGameOptions({});
    }
  }
  let rebuilt = false;
  for (const option of chosenGame().options) {
    const key = option.name, value = options[key];
    if (key === "computer" && value !== undefined && JSON.stringify(value) !== JSON.stringify(followed[key])) {
      followed[key] = value;
      const seats = computerSeats(value);
      $("name-fields").querySelectorAll("input.computer").forEach(box => { box.checked = seats.includes(Number(box.dataset.seat)); });
      followLevel();
      continue;
    }
    const control = $("game-options").querySelector(`#${key}`);
    if (option.input) continue;  // typed by the player (a game started without a seed gets one: not the next game's)
    if (value === undefined || !control || JSON.stringify(value) === JSON.stringify(followed[key])) continue;
    followed[key] = value;
    const index = option.values.findIndex(v => v.value === value);
    if (control.type === "checkbox") control.checked = !!value;
    else if (index >= 0) { control.value = String(index); rebuilt ||= key === "players"; }
  }
  if (rebuilt) buildNames();
  followLevel();
  const names = options.names;
  if (Array.isArray(names) && JSON.stringify(names) !== JSON.stringify(followed.names)) {
    followed.names = names;
    names.forEach((name, i) => { const input = $(`name-${i + 1}`); if (input) input.value = name === `Seat ${i + 1}` ? "" : name; });
  }
}

// The face-up pattern cards (Pentago Triple), each as its five marbles; personal cards by seat,
// and in the bonus game the cards each seat took.
function renderCards(state) {
  const cards = state.cards || [], taken = state.taken || {};
  const personal = state.options?.mode === "personal";
  $("face-up").hidden = !cards.length && !Object.values(taken).some(list => list.length);
  const item = (label, card) => {
    const span = Object.assign(document.createElement("span"), { className: "card-item" });
    const row = Object.assign(document.createElement("span"), { className: "pattern", title: card });
    row.dataset.card = card;
    for (const letter of card) {
      const colour = { B: "blue", Y: "yellow", R: "red" }[letter];
      const dot = Object.assign(document.createElement("span"), { className: "dot" });
      dot.style.background = layout.looks[colour]?.marble || colour;
      row.append(dot);
    }
    span.append(`${label} `, row);
    return span;
  };
  const items = cards.map((card, i) => item(personal ? `${seatName(state, i + 1)}:` : "Card:", card));
  for (const [seat, list] of Object.entries(taken)) {
    if (list.length) items.push(Object.assign(document.createElement("span"), { textContent: `${seatName(state, Number(seat))} took ${list.length}` }));
  }
  $("face-up").replaceChildren(...items);
}

// The board asks the colour of the marble just put down (a board that cannot see it): the
// hole's pixel blinks in the colour it assumes; Back shows the next colour, OK confirms.
function renderConfirm(state) {
  const ask = state.confirm;
  $("confirm").hidden = !ask;
  if (ask) $("confirm").textContent = `Is the marble on ${ask.hole} ${ask.colour}? Its hole blinks ${ask.colour}: press Back for the next colour, OK to confirm.`;
}

// A game's own view of the play (the state's "detail"; Picture-Puzzle's round in hand: the
// stage, k and who dismantles and restores), and its summary to download where it keeps one.
// The headline says the step in hand (the state's "doing"); this line, the stage, k and the
// time left.
function renderRound(state) {
  const detail = state.detail;
  $("summary-link").hidden = !(detail && detail.summary_csv);
  $("round").hidden = !(detail && detail.k && !state.outcome);
  if ($("round").hidden) return;
  const left = detail.left_s == null ? "" : `, ${Math.max(0, Math.ceil(detail.left_s))} s left`;
  $("round").textContent = `${detail.picture}: stage ${detail.stage}, k = ${detail.k} (stones out and twists in each dismantle)${left}`;
}

// A picture saved from the board is offered in the form at once, under its title with its
// difficulty: the layout is read afresh whenever the board says it saved one.
let saved = 0;
async function followLibrary(state) {
  if ((state.pictures_saved ?? 0) === saved) return;
  saved = state.pictures_saved;
  const settings = await api("/api/layout");
  if (!settings.layout) return;
  layout.games = settings.layout.games;
  layout.menu = settings.layout.menu;
  const values = formOptions();
  buildGameOptions(values);
}

function renderOutcome(state) {
  const outcome = state.outcome;
  $("outcome").hidden = !outcome;
  const names = (seats) => seats.map(seat => seatName(state, seat)).join(" & ");
  if (outcome) $("outcome").textContent = outcome.winners.length ? `${names(outcome.winners)} ${outcome.winners.length > 1 ? "win" : "wins"}!` : "Draw";
  const match = state.match;
  $("match-score").hidden = !match;
  if (match) $("match-score").textContent = `Match: ${Object.entries(match.wins).map(([s, n]) => `${seatName(state, Number(s))}: ${n}`).join(", ")} after ${match.games} game(s)`;
}

function renderList(list, items) {
  list.replaceChildren(...items.map(text => Object.assign(document.createElement("li"), { textContent: text })));
}

// -- start ---------------------------------------------------------------------------------------

async function start() {
  const settings = await api("/api/layout");
  if (!settings.layout) {  // the message says why; only an unreachable daemon is worth a retry
    live.show("offline", settings.error || "could not load the board; trying again");
    if (settings.error) noBoard(settings.error);
    else setTimeout(start, 3000);
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

// The daemon answered but will not show this page the board (no token, or the wrong one): say
// so plainly where the board would be, with the address to open, instead of a grey board, an
// empty form and "offline".
function noBoard(error) {
  document.body.classList.add("no-board-page");
  $("no-board").hidden = false;
  $("no-board-why").textContent = token
    ? `The board refused this address's token (${error}): a simulator makes a new token each time it starts.`
    : "This address carries no token, and the board shows itself only at an address that does.";
  const code = (text) => Object.assign(document.createElement("code"), { textContent: text });
  $("no-board-what").replaceChildren("Open the address exactly as ", code("pentago-board sim"),
    " printed it on its terminal: ", code(`${location.origin}/?token=…`), ". For the board's service: this address with the token of its config (web.token, or "
    + "PENTAGO_BOARD_TOKEN), or the one in the web-token file beside its journal.");
  live.show("offline", "this page has no token for the board");
  $("link").textContent = token ? "wrong token" : "no token";
}

start();
