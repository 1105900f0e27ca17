// The match viewer: the games of an arena record, each replayed ply by ply.
"use strict";

const view = {
  records: [],   // the record's games, as read from the file
  game: null,    // the replayed game (frames)
  ply: 0,
  geometry: null,
  svgs: new Map(), // Rithmomachia pictures by ply
  seq: 0,
};

function readRecord(text) {
  const games = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let g;
    try {
      g = JSON.parse(line);
    } catch (e) {
      throw new Error(`line ${i + 1} is not a game record: ${e.message}`);
    }
    games.push(g);
  });
  return games;
}

function listGames() {
  const table = $("games");
  table.replaceChildren(make("tr", {}, ["game", "kind", "first", "a", "b", "result", "plies"].map((h) => make("th", {}, [h]))));
  view.records.forEach((g, i) => {
    const result = g.winner ? `${g.winner} wins` : g.ply_limit ? "ply limit" : "draw";
    const row = make("tr", { class: "move game", "data-index": String(g.index) }, [
      make("td", {}, [String(g.index)]), make("td", {}, [g.game]), make("td", {}, [g.first]),
      make("td", { class: "mono" }, [g.a]), make("td", { class: "mono" }, [g.b]),
      make("td", {}, [result]), make("td", {}, [String(g.plies)]),
    ]);
    row.addEventListener("click", () => openGame(i));
    table.append(row);
  });
}

async function openGame(i) {
  const seq = ++view.seq;
  showError("");
  try {
    const game = await postJson("/api/match/replay", view.records[i]);
    if (seq !== view.seq) return;
    view.game = game;
    view.svgs = new Map();
    if (game.game !== "rithmo") {
      const q = new URLSearchParams({ board: game.board });
      if (game.diagonals) q.set("diagonals", "true");
      view.geometry = await api(`/api/merels/board?${q}`);
    }
    for (const row of document.querySelectorAll("#games tr.game")) row.classList.toggle("current", row.dataset.index === String(game.index));
    $("title").textContent = `Game ${game.index}: ${game.rules}${game.victory ? ` (victory ${game.victory})` : ""}`;
    const who = (s) => `${s.toUpperCase()} (${game[s]})`;
    const second = game.first === "a" ? "b" : "a";
    const end = game.winner ? `${who(game.winner)} wins` : game.ply_limit ? "drawn by the ply limit" : "drawn";
    $("result").textContent = `${who(game.first)} moves first, ${who(second)} second · ${end}${game.status ? ` · ${game.status}` : ""}`;
    $("slider").max = String(game.frames.length - 1);
    const moves = $("moves");
    moves.replaceChildren();
    game.frames.slice(1).forEach((f) => {
      const row = make("tr", { class: "move ply", "data-ply": String(f.ply) }, [make("td", {}, [String(f.ply)]), make("td", {}, [f.mover]), make("td", { class: "mono" }, [f.move])]);
      row.addEventListener("click", () => show(f.ply));
      moves.append(row);
    });
    show(0);
  } catch (e) {
    showError(e.message);
  }
}

async function show(ply) {
  const game = view.game;
  if (!game) return;
  view.ply = Math.max(0, Math.min(game.frames.length - 1, ply));
  const frame = game.frames[view.ply];
  $("slider").value = String(view.ply);
  $("ply").textContent = `ply ${view.ply} of ${game.frames.length - 1}${frame.move ? ` · ${frame.mover} played ${frame.move}` : ""}`;
  for (const row of document.querySelectorAll("#moves tr.ply")) row.classList.toggle("current", row.dataset.ply === String(view.ply));
  const board = $("board");
  if (game.game === "rithmo") {
    const open = new URLSearchParams({ fen: frame.position, rules: game.rules, victory: game.victory });
    $("open").href = `/rithmo?${open}`;
    $("open").textContent = "open on the analysis board";
    let svg = view.svgs.get(view.ply);
    if (!svg) {
      const seq = view.seq;
      try {
        svg = (await api(`/api/rithmo/position?${open}`)).svg;
      } catch (e) {
        showError(e.message);
        return;
      }
      if (seq !== view.seq) return;
      view.svgs.set(view.ply, svg);
    }
    if (game.frames[view.ply] === frame) board.innerHTML = svg;
  } else {
    const s = svgEl("svg", { id: "match-board", width: 400, height: 400, style: "width: 400px; height: 400px" });
    board.replaceChildren(s);
    drawMerels(s, view.geometry, frame.position);
    board.append(make("div", { class: "mono", id: "frame-position" }, [frame.position]));
    $("open").href = `/merels?${game.query}&position=${encodeURIComponent(frame.position)}`;
    $("open").textContent = "open in the explorer";
  }
}

function init() {
  $("file").addEventListener("change", async () => {
    const f = $("file").files[0];
    if (!f) return;
    showError("");
    try {
      view.records = readRecord(await f.text());
      listGames();
      if (view.records.length) openGame(0);
    } catch (e) {
      showError(e.message);
    }
  });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(view.ply - 1));
  $("next").addEventListener("click", () => show(view.ply + 1));
  $("last").addEventListener("click", () => show(Infinity));
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowLeft") show(view.ply - 1);
    if (e.key === "ArrowRight") show(view.ply + 1);
  });
}

init();
