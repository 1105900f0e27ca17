// The merels and Rota explorer: the board, the position's value and every
// legal action rated, clicked on the board or in the list.
"use strict";

const OPTIONS = ["board", "dice", "blocked", "placement_mills", "special_72"];
const FLAGS = ["diagonals", "flying", "no_take_from_mills", "double_mill_one"];

const state = {
  position: null,   // notation of the position shown
  data: null,       // the probe's answer
  geometry: null,   // the board's points and lines
  geometryKey: "",
  throw: null,      // the throw chosen when dice are thrown
  clicks: [],       // points clicked towards an action
  history: [],      // positions before, for Back
  seq: 0,           // answers to older requests are dropped
};

// The rules' query parameters from the controls.
function ruleQuery() {
  const q = new URLSearchParams();
  for (const k of OPTIONS) {
    const v = $(k).value;
    if (v !== "" && !(k === "special_72" && v === "5")) q.set(k, v);
  }
  for (const k of FLAGS) if ($(k).checked) q.set(k, "true");
  return q;
}

function setControls(q) {
  for (const k of OPTIONS) if (q.has(k)) $(k).value = q.get(k);
  for (const k of FLAGS) $(k).checked = q.get(k) === "true";
}

async function load() {
  const seq = ++state.seq;
  const q = ruleQuery();
  if (state.position) q.set("position", state.position);
  showError("");
  $("status").textContent = "Solving or reading the values…";
  try {
    const geoKey = `${q.get("board")}/${q.get("diagonals") || ""}`;
    if (geoKey !== state.geometryKey) {
      const g = new URLSearchParams({ board: q.get("board") });
      if (q.get("diagonals")) g.set("diagonals", "true");
      state.geometry = await api(`/api/merels/board?${g}`);
      state.geometryKey = geoKey;
    }
    const data = await api(`/api/merels/probe?${q}`);
    if (seq !== state.seq) return;
    state.data = data;
    state.position = data.position;
    state.clicks = [];
    const throws = data.throws.map((t) => t.throw);
    if (!throws.includes(state.throw)) state.throw = throws.includes("normal") ? "normal" : throws[0] ?? null;
    $("status").textContent = data.source === "memory" ? `values from the in-memory solution (${data.seconds.toFixed(2)} s)` : "values from the database";
    render();
  } catch (e) {
    if (seq !== state.seq) return;
    $("status").textContent = "";
    showError(e.message);
  }
}

// The clicks that pick an action: each slot is the set of points allowed.
function slots(m) {
  const s = [];
  if (m.kind === "place") s.push([m.to]);
  if (m.kind === "move" || m.kind === "leap") s.push([m.from], [m.to]);
  if (m.kind === "line") for (let i = 0; i < 3; i++) s.push(m.line);
  for (let i = 0; i < m.captures.length; i++) s.push(m.captures);
  return s;
}

function prefixLength(m) {
  return { place: 1, move: 2, leap: 2, line: 3 }[m.kind] || 0;
}

function matches(m, clicks) {
  const s = slots(m);
  if (clicks.length > s.length || new Set(clicks).size !== clicks.length) return false;
  return clicks.every((p, i) => s[i].includes(p));
}

function shownMoves() {
  return state.data ? state.data.moves.filter((m) => m.throw === state.throw) : [];
}

function clickPoint(name) {
  const moves = shownMoves();
  let clicks = [...state.clicks, name];
  let cands = moves.filter((m) => matches(m, clicks));
  if (cands.length === 0) {
    clicks = [name];
    cands = moves.filter((m) => matches(m, clicks));
  }
  if (cands.length === 0) clicks = [];
  state.clicks = clicks;
  if (cands.length === 1 && clicks.length >= prefixLength(cands[0])) return play(cands[0]);
  render();
}

function play(m) {
  state.history.push(state.position);
  state.position = m.next;
  state.clicks = [];
  load();
}

function render() {
  const d = state.data;
  const svg = $("merels-board");
  const at = drawMerels(svg, state.geometry, d.position);
  // What the next click may be, coloured by the best action it leads to.
  const moves = shownMoves();
  const cands = moves.filter((m) => matches(m, state.clicks));
  const next = new Map();
  for (const m of cands) {
    const s = slots(m)[state.clicks.length];
    if (!s) continue;
    for (const p of s) if (!state.clicks.includes(p) && !next.has(p)) next.set(p, m);
  }
  for (const p of state.clicks) {
    svg.append(svgEl("circle", { cx: at[p].x, cy: at[p].y, r: 8.2, fill: "none", stroke: "#e0a000", "stroke-width": 2 }));
  }
  for (const [p, m] of next) {
    svg.append(svgEl("circle", {
      cx: at[p].x, cy: at[p].y, r: 8.2, fill: "none", stroke: valueColour(m), "stroke-width": 2.2,
      "stroke-dasharray": "3 1.5", class: "target", "data-point": p,
    }, [svgEl("title", {}, [`${m.move}: ${valueText(m)}`])]));
  }
  // Every point answers clicks (a larger invisible disc).
  for (const p of state.geometry.points) {
    const hit = svgEl("circle", { cx: at[p.name].x, cy: at[p.name].y, r: 8, fill: "transparent", class: "point", "data-point": p.name, style: "cursor: pointer" });
    hit.addEventListener("click", () => clickPoint(p.name));
    svg.append(hit);
  }
  const side = d.side;
  let text;
  if (d.over) text = `Game over: ${d.winner} has won.`;
  else if (d.value === undefined) text = `${side} to move · in hand: x ${d.hand.x}, o ${d.hand.o}`;
  else text = `Value for ${side} (to move): ${valueText(d)} · in hand: x ${d.hand.x}, o ${d.hand.o}`;
  $("value").replaceChildren(make("span", { class: "swatch", style: `background:${valueColour(d)}` }), " ", make("b", { id: "value-text" }, [text]));
  $("missing").replaceChildren();
  if (d.missing) {
    $("missing").append(
      make("p", { class: "error" }, [`Sectors missing in ${d.missing.directory}: ${d.missing.sectors.join(", ")}. Solve them with:`]),
      make("pre", { id: "command" }, [d.missing.command]),
    );
  }
  const throws = d.throws.filter((t) => t.throw !== null);
  $("throws").replaceChildren();
  if (throws.length > 0) {
    $("throws").append("Throw: ");
    for (const t of throws) {
      const input = make("input", { type: "radio", name: "throw", value: t.throw, id: `throw-${t.throw}` });
      input.checked = t.throw === state.throw;
      input.addEventListener("change", () => { state.throw = t.throw; state.clicks = []; render(); });
      $("throws").append(make("label", {}, [input, ` ${t.throw} (${t.in_72}/72)`]));
    }
  }
  const table = $("moves");
  table.replaceChildren(make("tr", {}, [make("th", {}, ["action"]), make("th", {}, ["value for the mover"])]));
  for (const m of moves) {
    const row = make("tr", { class: "move", "data-move": m.move }, [
      make("td", { class: "mono" }, [m.move]),
      make("td", {}, [make("span", { class: "swatch", style: `background:${valueColour(m)}` }), " ", valueText(m)]),
    ]);
    row.addEventListener("click", () => play(m));
    table.append(row);
  }
  if (moves.length === 0 && !d.over) table.append(make("tr", {}, [make("td", {}, ["no legal action"])]));
  $("notation").value = d.position;
  const link = ruleQuery();
  link.set("position", d.position);
  $("link").href = `/merels?${link}`;
}

function init() {
  const q = new URLSearchParams(location.search);
  setControls(q);
  state.position = q.get("position");
  if (state.position) $("board").value = state.position.split(":")[0];
  for (const k of [...OPTIONS, ...FLAGS]) {
    $(k).addEventListener("change", () => {
      if (k === "board") {
        state.position = null;
        state.history = [];
        if ($("board").value !== "three") $("diagonals").checked = false;
      }
      load();
    });
  }
  $("back").addEventListener("click", () => {
    if (state.history.length === 0) return;
    state.position = state.history.pop();
    load();
  });
  $("start").addEventListener("click", () => { state.history = []; state.position = null; load(); });
  $("set").addEventListener("click", () => {
    const text = $("notation").value.trim();
    const board = text.split(":")[0];
    if (["rota", "three", "six", "nine"].includes(board)) $("board").value = board;
    state.history.push(state.position);
    state.position = text;
    load();
  });
  load();
}

init();
