// What every page of ludus serve shares: calling the API, showing errors,
// describing and colouring values, and drawing merels boards.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

// Calls the API; throws an Error carrying the server's message.
async function api(path, options) {
  const response = await fetch(path, options);
  let body;
  try {
    body = await response.json();
  } catch (e) {
    throw new Error(`${response.status} ${response.statusText}`);
  }
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

function postJson(path, value) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) });
}

function $(id) {
  return document.getElementById(id);
}

function showError(message) {
  const e = $("error");
  if (e) e.textContent = message || "";
}

// An element with attributes and children (SVG when ns is given).
function make(tag, attrs, children, ns) {
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const c of children || []) e.append(c);
  return e;
}

function svgEl(tag, attrs, children) {
  return make(tag, attrs, children, SVG_NS);
}

// A merels value in words: "win in 5", "draw", "+0.0972 = 7/72",
// "+0.1234 [+0.1230, +0.1238]".
function valueText(v) {
  if (v.value === undefined || v.value === null) return "not solved";
  if (v.outcome) return v.outcome + (v.plies !== null && v.plies !== undefined && v.outcome !== "draw" ? ` in ${v.plies}` : "");
  const sign = (x) => (x >= 0 ? "+" : "") + x.toFixed(4);
  if (v.exact) return `${sign(v.value)} = ${v.exact}`;
  if (v.error_bound > 0) return `${sign(v.value)} [${sign(v.lower)}, ${sign(v.upper)}]`;
  return sign(v.value);
}

// Green for a win, grey for a draw, red for a loss; shades between under chance.
function valueColour(v) {
  if (v.value === undefined || v.value === null) return "#999";
  if (v.outcome === "draw") return "hsl(45, 10%, 55%)";
  const x = Math.max(-1, Math.min(1, v.value));
  const hue = 60 + 60 * x;
  const sat = 25 + 60 * Math.abs(x);
  return `hsl(${hue}, ${sat}%, 42%)`;
}

// Draws a merels board into `svg` (a viewBox of 0..100 with a margin) and
// returns each point's centre by name.
function drawMerels(svg, geometry, position) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "-12 -12 124 124");
  const at = {};
  for (const p of geometry.points) at[p.name] = { x: p.x * 100, y: p.y * 100 };
  svg.append(svgEl("rect", { x: -12, y: -12, width: 124, height: 124, fill: "#f4efe1" }));
  const g = svgEl("g", { stroke: "#5a4630", "stroke-width": 1.2, fill: "none" });
  if (geometry.board === "rota") g.append(svgEl("circle", { cx: 50, cy: 50, r: 50 }));
  for (const [a, b] of geometry.steps) {
    if (geometry.board === "rota" && a !== "c" && b !== "c") continue; // the rim is the circle
    g.append(svgEl("line", { x1: at[a].x, y1: at[a].y, x2: at[b].x, y2: at[b].y }));
  }
  svg.append(g);
  const men = (position.split(" ")[0].split(":")[1] || "").split("");
  geometry.points.forEach((p, i) => {
    const c = at[p.name];
    const man = men[i];
    svg.append(svgEl("circle", { cx: c.x, cy: c.y, r: 1.8, fill: "#5a4630" }));
    if (man === "x" || man === "o") {
      svg.append(svgEl("circle", {
        cx: c.x, cy: c.y, r: 6, class: "man", "data-man": man, "data-point": p.name,
        fill: man === "x" ? "#222" : "#fffdf7", stroke: "#222", "stroke-width": 1,
      }));
    }
    svg.append(svgEl("text", { x: c.x + 5, y: c.y - 5.5, "font-size": 3.6, fill: "#7a6650" }, [p.name]));
  });
  return at;
}

// The square-board page links in the header mark the page shown.
document.addEventListener("DOMContentLoaded", () => {
  for (const a of document.querySelectorAll("header a[href]")) {
    if (a.getAttribute("href") === location.pathname) a.classList.add("here");
  }
});
