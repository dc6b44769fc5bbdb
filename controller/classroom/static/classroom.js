// The classroom console: polls the boards every second and sends a new game to the ticked
// boards (or every board online). The token, when the address carries one, goes with each call.
"use strict";

const token = new URLSearchParams(location.search).get("token");
const withToken = (path) => (token ? `${path}?token=${encodeURIComponent(token)}` : path);
const ticked = new Set();

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function puzzleText(p) {
  if (!p) return "";
  const parts = [`${p.picture}, k = ${p.k}`];
  if (p.restorer) parts.push(`${p.restorer} restores`);
  if (p.left_s !== null && p.left_s !== undefined) parts.push(`${Math.ceil(p.left_s)} s left`);
  if (p.out.length) parts.push(`out: ${p.out.join(", ")}`);
  parts.push(`${p.passed}/${p.rounds} rounds passed`);
  return parts.join("; ");
}

function show(data) {
  document.getElementById("broker").textContent = data.connected ? "connected" : "not connected (retrying)";
  const body = document.querySelector("#boards tbody");
  body.replaceChildren();
  for (const b of data.boards) {
    const tr = document.createElement("tr");
    tr.dataset.board = b.board;
    tr.className = b.online ? "online-row" : "offline";
    const tick = document.createElement("input");
    tick.type = "checkbox";
    tick.name = "board";
    tick.value = b.board;
    tick.checked = ticked.has(b.board);
    tick.addEventListener("change", () => (tick.checked ? ticked.add(b.board) : ticked.delete(b.board)));
    const first = document.createElement("td");
    first.append(tick);
    const status = cell(b.status);  // online, paused (cannot save), stopped (not answering), offline
    status.className = b.status === "online" ? "online" : "offline-tag";
    status.dataset.status = b.status;
    status.title = b.status_words;
    const game = b.game ? `${b.game} (${b.state})` : b.state || "—";
    const turn = b.winner ? `won: ${b.winner}` : b.turn;
    tr.append(first, cell(b.board), status, cell(game), cell(b.players.join(", ")), cell(turn),
              cell(b.standings.join(" > ")), cell(puzzleText(b.puzzle)));
    body.append(tr);
  }
}

async function poll() {
  try {
    const answer = await fetch(withToken("api/boards"));
    if (answer.ok) show(await answer.json());
  } catch (error) {
    document.getElementById("broker").textContent = "the console is not answering";
  }
}

function newGameArgs() {
  const game = document.getElementById("game").value;
  const args = { game };
  const names = document.getElementById("names").value.split(",").map((n) => n.trim()).filter(Boolean);
  if (names.length) args.names = names;
  if (game === "puzzle") {
    args.picture = document.getElementById("picture").value;
    args.start_k = Number(document.getElementById("start_k").value);
    if (names.length) args.players = names.length;
    for (const limit of ["restore_limit_s", "dismantle_limit_s"]) {
      const value = document.getElementById(limit).value;
      if (value) args[limit] = Number(value);
    }
  }
  return args;
}

async function start(boards) {
  const answer = document.getElementById("answer");
  const reply = await fetch(withToken("api/command"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ boards, name: "new_game", args: newGameArgs() }),
  });
  const data = await reply.json();
  answer.className = reply.ok ? "" : "error";
  answer.textContent = reply.ok ? `sent to ${data.sent.join(", ")}` : data.error;
}

async function setUp() {
  const reply = await fetch(withToken("api/games"));
  const data = await reply.json();
  document.getElementById("game").replaceChildren(...data.games.map((g) => new Option(g.title, g.name)));
  document.getElementById("picture").replaceChildren(...data.pictures.map((p) => new Option(p, p)));
  const toggle = () => {
    document.getElementById("puzzle-fields").disabled = document.getElementById("game").value !== "puzzle";
  };
  document.getElementById("game").addEventListener("change", toggle);
  toggle();
  document.getElementById("summary").href = withToken("api/summary");
  document.getElementById("start").addEventListener("submit", (event) => {
    event.preventDefault();
    start([...ticked]);
  });
  document.getElementById("start-all").addEventListener("click", () => start("all"));
  await poll();
  setInterval(poll, 1000);
}

setUp();
