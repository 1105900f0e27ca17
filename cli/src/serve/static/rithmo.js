// The Rithmomachia analysis board: moves by clicking or dragging, legal
// destinations coloured by the capture they make, the engine's analysis,
// and play against the engine.
"use strict";

// The geometry of the server's SVG (engine::rithmo::render::svg).
const MARGIN = 28, CELL = 48;
const COLOURS = { plain: "#2a6fdb", encounter: "#d62728", ambush: "#9467bd", sally: "#ff7f0e", strike: "#8c2d04", siege: "#17becf" };

const state = {
  start: null,     // RFEN of the start (null: the standard start)
  moves: [],       // moves played since
  data: null,      // the position's answer
  selected: null,  // square picked
  dragFrom: null,
  analysis: null,  // { id, timer, forEngine }
  seq: 0,
};

function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

function squareXY(name) {
  const file = name.charCodeAt(0) - 97, rank = parseInt(name.slice(1), 10) - 1;
  return { x: MARGIN + file * CELL, y: MARGIN + (15 - rank) * CELL };
}

function gameParams() {
  const p = { rules: $("rules").value.trim() || "common" };
  const v = $("victory").value.trim();
  if (v) p.victory = v;
  if (state.start) p.fen = state.start;
  return p;
}

async function load() {
  const seq = ++state.seq;
  stopAnalysis();
  const q = new URLSearchParams(gameParams());
  if (state.moves.length) q.set("moves", state.moves.join(","));
  showError("");
  try {
    const data = await api(`/api/rithmo/position?${q}`);
    if (seq !== state.seq) return;
    state.data = data;
    state.selected = null;
    render();
    maybeEngineMove();
  } catch (e) {
    if (seq !== state.seq) return;
    showError(e.message);
  }
}

function movesFrom(square) {
  return state.data.moves.filter((m) => m.from === square);
}

function kindColour(m) {
  if (m.kind === "strike") return COLOURS.strike;
  if (m.kind === "plain") return COLOURS.plain;
  return COLOURS[m.by[0]] || COLOURS.encounter;
}

function svgSquare(evt, svg) {
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const file = Math.floor((p.x - MARGIN) / CELL), rank = 15 - Math.floor((p.y - MARGIN) / CELL);
  if (file < 0 || file > 7 || rank < 0 || rank > 15) return null;
  return squareName(file, rank);
}

function clickSquare(sq) {
  if (state.selected && sq !== state.selected) {
    const options = movesFrom(state.selected).filter((m) => m.to === sq);
    if (options.length === 1) return play(options[0].move);
    if (options.length > 1) return choose(options);
  }
  state.selected = movesFrom(sq).length > 0 && sq !== state.selected ? sq : null;
  $("choice").replaceChildren();
  render();
}

// Several moves between the same squares (a capture or a strike): ask.
function choose(options) {
  $("choice").replaceChildren("Which? ");
  for (const m of options) {
    const b = make("button", { "data-move": m.move }, [`${m.move} (${m.kind === "strike" ? "strike" : m.by.join(", ")})`]);
    b.addEventListener("click", () => play(m.move));
    $("choice").append(b, " ");
  }
}

function play(move) {
  $("choice").replaceChildren();
  state.moves.push(move);
  load();
}

function render() {
  const d = state.data;
  const board = $("board");
  board.innerHTML = d.svg;
  const svg = board.querySelector("svg");
  const overlay = svgEl("g", { id: "overlay" });
  svg.append(overlay);
  if (state.selected) {
    const s = squareXY(state.selected);
    overlay.append(svgEl("rect", { x: s.x + 1.5, y: s.y + 1.5, width: CELL - 3, height: CELL - 3, fill: "none", stroke: "#e0a000", "stroke-width": 3 }));
    const sieges = new Set();
    for (const m of movesFrom(state.selected)) {
      const t = squareXY(m.to);
      const colour = kindColour(m);
      if (m.kind === "plain") {
        overlay.append(svgEl("circle", { cx: t.x + CELL / 2, cy: t.y + CELL / 2, r: 7, fill: colour, opacity: 0.75, class: "dest", "data-square": m.to, "data-kind": m.kind }));
      } else {
        overlay.append(svgEl("rect", {
          x: t.x + 3, y: t.y + 3, width: CELL - 6, height: CELL - 6, fill: "none", stroke: colour, "stroke-width": 4,
          "stroke-dasharray": m.kind === "strike" ? "6 3" : null, class: "dest", "data-square": m.to, "data-kind": m.kind === "strike" ? "strike" : m.by.join(" "),
        }, [svgEl("title", {}, [`${m.move}: ${m.kind === "strike" ? "strike" : m.by.join(", ")}`])]));
      }
      for (const s of m.sieges) sieges.add(s);
    }
    for (const s of sieges) {
      const t = squareXY(s);
      overlay.append(svgEl("circle", { cx: t.x + CELL / 2, cy: t.y + CELL / 2, r: CELL / 2 - 4, fill: "none", stroke: COLOURS.siege, "stroke-width": 3, class: "siege" }));
    }
  }
  svg.addEventListener("click", (e) => {
    const sq = svgSquare(e, svg);
    if (sq) clickSquare(sq);
  });
  svg.addEventListener("pointerdown", (e) => {
    const sq = svgSquare(e, svg);
    state.dragFrom = sq && movesFrom(sq).length > 0 ? sq : null;
  });
  svg.addEventListener("pointerup", (e) => {
    const sq = svgSquare(e, svg);
    if (state.dragFrom && sq && sq !== state.dragFrom) {
      const options = movesFrom(state.dragFrom).filter((m) => m.to === sq);
      state.dragFrom = null;
      e.stopPropagation();
      if (options.length === 1) play(options[0].move);
      else if (options.length > 1) choose(options);
    }
  });
  const cap = (s) => `${d.captured[s].men} men (${d.captured[s].value})`;
  $("status").replaceChildren(make("b", { id: "status-text" }, [d.over ? d.status : `${d.side} to move`]),
    ` · captured by Even ${cap("Even")}, by Odd ${cap("Odd")} · quiet plies ${d.clock} · move ${d.fullmove}`);
  $("fen").value = d.fen;
  const played = $("played");
  played.replaceChildren();
  d.played.forEach((m, i) => played.append(make("span", { class: "played-move" }, [`${i + 1}. ${m}`]), " "));
  if (d.played.length === 0) played.append(make("span", { class: "note" }, ["none yet"]));
  $("count").textContent = `(${d.moves.length})`;
  const legal = $("legal");
  legal.replaceChildren();
  // Captures and strikes first.
  const listed = [...d.moves.filter((m) => m.kind !== "plain"), ...d.moves.filter((m) => m.kind === "plain")];
  for (const m of listed) {
    const why = m.kind === "strike" ? "strike" : m.kind === "plain" ? "move" : m.by.join(", ");
    const row = make("tr", { class: "move", "data-move": m.move }, [
      make("td", { class: "mono" }, [m.move]),
      make("td", {}, [make("span", { class: "swatch", style: `background:${kindColour(m)}` }), " ", why]),
      make("td", { class: "note" }, [m.sieges.length ? `besieges ${m.sieges.join(" ")}` : ""]),
    ]);
    row.addEventListener("click", () => play(m.move));
    legal.append(row);
  }
  const link = new URLSearchParams(gameParams());
  if (state.moves.length) link.set("moves", state.moves.join(","));
  $("link").href = `/rithmo?${link}`;
}

function stopAnalysis() {
  const a = state.analysis;
  if (!a) return;
  clearTimeout(a.timer);
  state.analysis = null;
  $("thinking").textContent = "";
  fetch(`/api/rithmo/analysis/${a.id}/stop`, { method: "POST" }).catch(() => {});
}

// Starts the engine on the position; `then` gets the result when done.
async function startAnalysis(movetime, forEngine) {
  stopAnalysis();
  const seq = state.seq;
  const body = { ...gameParams(), moves: state.moves, movetime };
  try {
    const { id } = await postJson("/api/rithmo/analyse", body);
    if (seq !== state.seq) {
      fetch(`/api/rithmo/analysis/${id}/stop`, { method: "POST" }).catch(() => {});
      return;
    }
    state.analysis = { id, timer: null, forEngine };
    $("thinking").textContent = forEngine ? `${state.data.side} (engine) is thinking…` : "analysing…";
    poll(id, seq);
  } catch (e) {
    showError(e.message);
  }
}

async function poll(id, seq) {
  if (!state.analysis || state.analysis.id !== id) return;
  let job;
  try {
    job = await api(`/api/rithmo/analysis/${id}`);
  } catch (e) {
    showError(e.message);
    return;
  }
  if (!state.analysis || state.analysis.id !== id || seq !== state.seq) return;
  const table = $("analysis");
  table.replaceChildren(make("tr", {}, ["depth", "score", "nodes", "principal variation"].map((h) => make("th", {}, [h]))));
  for (const l of job.lines.slice().reverse()) {
    table.append(make("tr", { class: "line" }, [
      make("td", {}, [String(l.depth)]), make("td", { class: "score" }, [l.score_text]),
      make("td", {}, [String(l.nodes)]), make("td", { class: "pv" }, [l.pv.join(" ")]),
    ]));
  }
  if (job.running) {
    state.analysis.timer = setTimeout(() => poll(id, seq), 250);
    return;
  }
  const forEngine = state.analysis.forEngine;
  state.analysis = null;
  $("thinking").textContent = job.result.best_move ? `best move ${job.result.best_move} (${job.result.score_text})` : "no move";
  if (forEngine && job.result.best_move) play(job.result.best_move);
}

function engineToMove() {
  const e = $("engine").value;
  return state.data && !state.data.over && (e === "both" || e === state.data.side);
}

function maybeEngineMove() {
  if (engineToMove()) startAnalysis(Number($("movetime").value) || 1000, true);
}

function init() {
  const q = new URLSearchParams(location.search);
  if (q.get("fen")) state.start = q.get("fen");
  if (q.get("rules")) $("rules").value = q.get("rules");
  if (q.get("victory")) $("victory").value = q.get("victory");
  if (q.get("moves")) state.moves = q.get("moves").split(",").filter((m) => m);
  $("set").addEventListener("click", () => { state.start = $("fen").value.trim() || null; state.moves = []; load(); });
  $("start").addEventListener("click", () => { state.start = null; state.moves = []; load(); });
  $("undo").addEventListener("click", () => {
    // Against the engine, take back its reply too.
    state.moves.pop();
    if ($("engine").value && $("engine").value !== "both" && state.moves.length && state.data && $("engine").value !== state.data.side) state.moves.pop();
    load();
  });
  for (const id of ["rules", "victory"]) $(id).addEventListener("change", () => load());
  $("analyse").addEventListener("click", () => startAnalysis(Number($("movetime").value) || 3000, false));
  $("stop").addEventListener("click", () => stopAnalysis());
  $("engine").addEventListener("change", () => maybeEngineMove());
  load();
}

init();
