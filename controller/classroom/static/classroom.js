// The classroom console: polls the boards every second and sends a new game to the ticked
// boards (or every board online). The token, when the address carries one, goes with each call.
// Each board's row says in words what it is at (its own summary), and how it answered the last
// command: the console checks a command for each board as the board does, and a board's own
// refusal comes back on its event topic.
"use strict";

const token = new URLSearchParams(location.search).get("token");
const withToken = (path) => (token ? `${path}?token=${encodeURIComponent(token)}` : path);
const $ = (id) => document.getElementById(id);
const ticked = new Set();
let games = [], pictures = {};

const LABELS = ["Board", "Status", "Game", "Now", "Players", "Standings", "Picture-Puzzle", "Last command"];

function cell(text, className = "") {
  return Object.assign(document.createElement("td"), { textContent: text, className });
}

function title(name) {
  return games.find((g) => g.name === name)?.title || name;
}

function puzzleText(p) {
  if (!p) return "";
  const parts = [`${p.picture}, k = ${p.k}`];
  if (p.left_s !== null && p.left_s !== undefined) parts.push(`${Math.ceil(p.left_s)} s left`);
  if (p.out.length) parts.push(`out: ${p.out.join(", ")}`);
  if (p.restorer) parts.push(`${p.restorer} to restore`);  // true in the build too ("restores" was not yet)
  if (p.rounds) parts.push(`${p.passed} of ${p.rounds} ${p.rounds === 1 ? "round" : "rounds"} passed`);
  return parts.join("; ");
}

// The board's status as it last said: online, paused (it cannot save), stopped (its referee does
// not answer) or offline, with why in its own words; unknown while the broker is away (the
// boards play on meanwhile; only the broker can tell).
function statusCell(b, connected) {
  const td = document.createElement("td");
  const kind = connected ? b.status : "unknown";
  const tag = Object.assign(document.createElement("span"), { className: `status ${kind}`,
    textContent: connected ? b.status : "unknown: the broker is away", title: b.status_words || "" });
  tag.dataset.status = kind;
  td.append(tag);
  if (connected && b.status_words) td.append(" ", Object.assign(document.createElement("span"), { className: "status-words", textContent: b.status_words }));
  return td;
}

function answerCell(answer) {
  if (!answer) return cell("");
  const text = { sent: "sent, no answer yet", taken: "started" }[answer.answer] || answer.reason;  // a refusal says itself ("Could not ...")
  return cell(text, `answer ${answer.answer}`);
}

function show(data) {
  const live = data.connected;
  $("broker").className = `link ${live ? "live" : "reconnecting"}`;
  $("broker").textContent = live ? "broker connected" : "broker away (retrying)";
  const body = document.querySelector("#boards tbody");
  $("no-boards").hidden = data.boards.length > 0;
  body.replaceChildren(...data.boards.map((b) => {
    const tr = document.createElement("tr");
    tr.dataset.board = b.board;
    tr.className = b.status === "offline" && live ? "offline" : "";
    const tick = Object.assign(document.createElement("input"), { type: "checkbox", name: "board", value: b.board,
      checked: ticked.has(b.board), title: `start the game on ${b.board}` });
    tick.addEventListener("change", () => (tick.checked ? ticked.add(b.board) : ticked.delete(b.board)));
    const first = document.createElement("td");
    first.append(tick);
    const size = b.size ? ` (${b.size}x${b.size})` : "";
    const turn = b.winner ? `won by ${b.winner}` : b.doing;
    const cells = [cell(`${b.board}${size}`, "board"), statusCell(b, live), cell(b.game ? title(b.game) : "—"),
      cell(turn), cell(b.players.join(", ")), cell(b.standings.join(", then ")), cell(puzzleText(b.puzzle)),
      answerCell(b.answer)];
    cells.forEach((td, i) => { if (i > 1) td.dataset.label = LABELS[i]; });  // a phone shows each cell's name
    tr.append(first, ...cells);
    return tr;
  }));
}

async function poll() {
  try {
    const answer = await fetch(withToken("api/boards"));
    if (answer.ok) show(await answer.json());
  } catch (error) {
    $("broker").className = "link offline";
    $("broker").textContent = "the console is not answering";
  }
}

function names() {
  return $("names").value.split(",").map((n) => n.trim()).filter(Boolean);
}

// Whether the game (by name) takes the option: its spec's options, as /api/games lists them.
function takes(game, option) {
  return (games.find((g) => g.name === game)?.options || []).includes(option);
}

// A game's own fields (Picture-Puzzle's) are sent when the game takes their options; practice
// is one player (the computer dismantles, with no dismantle limit).
function newGameArgs() {
  const game = $("game").value, args = { game }, typed = names();
  args.players = Number($("players").value);
  if (takes(game, "practice") && $("practice").checked) args.players = 1;
  if (takes(game, "picture")) args.picture = $("picture").value;
  for (const [option, empty] of [["start_k", 1], ["show_s", 0]]) {
    if (takes(game, option)) args[option] = Number($(option).value || empty);
  }
  for (const limit of ["restore_limit_s", "dismantle_limit_s"]) {
    const value = $(limit).value;
    if (takes(game, limit) && value && !(limit === "dismantle_limit_s" && args.players === 1)) args[limit] = Number(value);
  }
  if (typed.length) args.names = typed;
  return args;
}

async function start(boards) {
  const answer = $("answer");
  const reply = await fetch(withToken("api/command"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ boards, name: "new_game", args: newGameArgs() }),
  });
  const data = await reply.json();
  const refused = Object.entries(data.refused || {});
  answer.className = reply.ok && !refused.length ? "" : "error";
  answer.textContent = reply.ok
    ? `sent to ${data.sent.join(", ")}${refused.length ? `. ${refused.map(([, why]) => why).join("; ")}` : ""}`  // each "Could not ... on board b2: ..."
    : data.error;
  poll();
}

// The form follows the game: its numbers of players, and its own fields (Picture-Puzzle's: a
// field's id is the option it sets) where it takes their options.
function followGame() {
  const game = games.find((g) => g.name === $("game").value);
  $("players").replaceChildren(...game.players.map((n) => new Option(`${n} players`, String(n), false, n === game.default_players)));
  $("puzzle-fields").disabled = ![...$("puzzle-fields").elements].some((field) => takes(game.name, field.id));
  $("players").disabled = game.players.length === 1 || (takes(game.name, "practice") && $("practice").checked);
}

// Every picture, by its title and difficulty; one drawn for a single board size says so (a 6x6
// board refuses Four W, and the console says it before sending).
function pictureOptions() {
  const nine = pictures["9"] || [], six = pictures["6"] || [];
  const names = [...new Set([...nine, ...six].map((p) => p.name))];
  return names.map((name) => {
    const picture = nine.find((p) => p.name === name) || six.find((p) => p.name === name);
    const only = !six.some((p) => p.name === name) ? " (9x9 boards only)" : !nine.some((p) => p.name === name) ? " (6x6 boards only)" : "";
    return new Option(`${picture.means}${only}`, name);
  });
}

async function setUp() {
  const reply = await fetch(withToken("api/games"));
  if (!reply.ok) {
    $("broker").className = "link offline";
    $("broker").textContent = reply.status === 401 ? "no token" : "refused";
    $("answer").className = "error";
    $("answer").textContent = (await reply.json().catch(() => ({}))).error
      || "open the address the console printed on its terminal, with its ?token=";
    return;
  }
  ({ games, pictures } = await reply.json());
  $("game").replaceChildren(...games.map((g) => new Option(g.title, g.name)));
  $("picture").replaceChildren(...pictureOptions());
  $("game").addEventListener("change", followGame);
  $("practice").addEventListener("change", followGame);
  followGame();
  $("summary").href = withToken("api/summary");
  $("start").addEventListener("submit", (event) => {
    event.preventDefault();
    start([...ticked]);
  });
  $("start-all").addEventListener("click", () => start("all"));
  await poll();
  setInterval(poll, 1000);
}

setUp();
