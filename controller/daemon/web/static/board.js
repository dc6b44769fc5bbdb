// Draws the board from /api/layout as SVG and repaints marbles and LEDs from each state.
// Geometry: P is the hole pitch; each 3x3 block has padding (room for its arrows) and the
// blocks are separated by a small gap, like the wooden board.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const P = 60, PAD = 26, GAP = 10, MARGIN = 34, STRIP = 70;
const CARD_GAP = 0.8; // between the cards of a card strip, in pixel steps

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// Enter or space on a focused hole or arrow does what a click does (keyboard players).
function onKeys(node, act) {
  node.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    act();
  });
}

class BoardView {
  constructor(svg, layout, actions) {
    this.svg = svg;
    this.layout = layout;
    this.actions = actions; // { hole(name, index), quarter(block, clockwise) }
    this.blockSide = 3 * P + 2 * PAD;
    this.perSide = layout.size / 3;
    this.side = 2 * MARGIN + this.perSide * this.blockSide + (this.perSide - 1) * GAP;
    this.leds = []; // one {glow, core} per chain pixel
    this.marbles = new Map(); // hole index -> circle
    this.blockGroups = new Map(); // block -> [its group, its centre]
    this.cardParts = []; // the card pixels and their caption: shown only while a game uses them
    this.draw();
  }

  blockOrigin(block) {
    const i = block - 1, bx = i % this.perSide, by = Math.floor(i / this.perSide);
    return [MARGIN + bx * (this.blockSide + GAP), MARGIN + by * (this.blockSide + GAP)];
  }

  holeCentre(hole) {
    const h = this.layout.holes[hole];
    const fromTop = this.layout.size - 1 - h.row;
    const [x0, y0] = this.blockOrigin(h.block);
    return [x0 + PAD + ((h.column % 3) + 0.5) * P, y0 + PAD + ((fromTop % 3) + 0.5) * P];
  }

  draw() {
    const svg = this.svg;
    svg.setAttribute("viewBox", `0 0 ${this.side} ${this.side + STRIP}`);
    const defs = el("defs", {}, svg);
    const blur = el("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, defs);
    el("feGaussianBlur", { stdDeviation: "7" }, blur);
    el("rect", { class: "plate", x: 8, y: 8, width: this.side - 16, height: this.side - 16, rx: 14 }, svg);
    this.layers = { glow: el("g", {}, svg), blocks: el("g", {}, svg) };
    for (const block of this.layout.blocks) this.drawBlock(block);
    this.drawLabels();
    this.drawPixels();
  }

  drawBlock(block) {
    const [x0, y0] = this.blockOrigin(block.block);
    const g = el("g", { "data-block": block.block }, this.layers.blocks);
    this.blockGroups.set(block.block, [g, x0 + this.blockSide / 2, y0 + this.blockSide / 2]);
    el("rect", { class: "block", x: x0, y: y0, width: this.blockSide, height: this.blockSide, rx: 10 }, g);
    for (const hole of block.holes) this.drawHole(hole, g);
    for (const clockwise of [true, false]) this.drawArrow(block.block, clockwise, g);
    this.enableDrag(block.block, g, x0 + this.blockSide / 2, y0 + this.blockSide / 2);
  }

  // Dragging a block round its centre turns it: the drawing follows the pointer, and letting go
  // past DRAG_DEG sends a quarter turn that way (the board then redraws the marbles turned).
  enableDrag(block, g, cx, cy) {
    const DRAG_DEG = 35;
    const plate = g.querySelector(".block");
    let start = null, angle = 0;
    const at = (event) => {
      const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(this.svg.getScreenCTM().inverse());
      return Math.atan2(p.y - cy, p.x - cx) * 180 / Math.PI;
    };
    plate.addEventListener("pointerdown", (event) => {
      start = at(event); angle = 0;
      this.dragging = block;
      plate.setPointerCapture(event.pointerId);
    });
    plate.addEventListener("pointermove", (event) => {
      if (start === null) return;
      angle = Math.max(-90, Math.min(90, ((at(event) - start + 540) % 360) - 180));
      g.setAttribute("transform", `rotate(${angle} ${cx} ${cy})`);
    });
    const end = () => {
      if (start === null) return;
      this.dragging = null;
      this.standTurned(block, this.offsets?.[String(block)] || 0);
      if (Math.abs(angle) >= DRAG_DEG) this.actions.quarter(block, angle > 0, false);
      start = null;
    };
    plate.addEventListener("pointerup", end);
    plate.addEventListener("pointercancel", end);
  }

  drawHole(hole, parent) {
    const [cx, cy] = this.holeCentre(hole);
    const name = this.layout.holes[hole].name;
    el("circle", { class: "hole", cx, cy, r: P * 0.3 }, parent);
    const marble = el("circle", { class: "marble", cx, cy, r: P * 0.27, visibility: "hidden" }, parent);
    this.marbles.set(hole, marble);
    const hit = el("circle", { class: "hole-hit", cx, cy, r: P * 0.45, "data-hole": name, tabindex: 0 }, parent);
    const title = el("title", {}, hit);
    title.textContent = name;
    hit.addEventListener("click", () => this.actions.hole(name, hole));
    onKeys(hit, () => this.actions.hole(name, hole));
  }

  // The arrow along the block's top edge: clockwise on the right half pointing right (the top
  // edge of a block turning clockwise moves right), counter-clockwise on the left pointing left.
  arrowPath(block, clockwise) {
    const [x0, y0] = this.blockOrigin(block);
    const mid = x0 + this.blockSide / 2, y = y0 + PAD / 2, s = clockwise ? 1 : -1;
    const start = mid + s * 12, end = mid + s * (this.blockSide / 2 - 14);
    return { start, end, y, s, d: `M ${start} ${y} L ${end - s * 10} ${y} Q ${end} ${y} ${end} ${y + 10} M ${end - 6} ${y + 3} L ${end} ${y + 12} L ${end + 6} ${y + 3}` };
  }

  drawArrow(block, clockwise, parent) {
    const a = this.arrowPath(block, clockwise);
    const hit = el("rect", { class: "arrow-hit", x: Math.min(a.start, a.end) - 6, y: a.y - PAD / 2, width: Math.abs(a.end - a.start) + 12, height: PAD + 4,
      "data-block": block, "data-dir": clockwise ? "R" : "L", tabindex: 0 }, parent);
    el("title", {}, hit).textContent = `turn block ${block} ${clockwise ? "clockwise (R)" : "counter-clockwise (L)"}; shift-click: one detent`;
    el("path", { class: "arrow", d: a.d }, parent);
    hit.addEventListener("click", (event) => this.actions.quarter(block, clockwise, event.shiftKey));
    onKeys(hit, () => this.actions.quarter(block, clockwise, false));
  }

  drawLabels() {
    for (const h of this.layout.holes) {
      const [cx, cy] = this.holeCentre(h.hole);
      if (h.row === 0) el("text", { class: "label", x: cx, y: this.side - 16 }, this.svg).textContent = h.name[0];
      if (h.column === 0) el("text", { class: "label", x: 20, y: cy }, this.svg).textContent = String(h.row + 1);
    }
  }

  pixelPosition(pixel, counters) {
    if (pixel.kind === "hole") return [...this.holeCentre(pixel.hole), 0.42 * P];
    if (pixel.kind === "arrow") {
      const key = `${pixel.block}${pixel.clockwise}`;
      const n = counters[key] = (counters[key] || 0) + 1;
      const a = this.arrowPath(pixel.block, pixel.clockwise);
      return [a.start + (a.end - a.start) * (n - 0.5) / 3, a.y, 9];
    }
    const y = this.side + STRIP / 2, count = this.counts[pixel.kind];
    if (pixel.kind === "status") return [this.side / 2 - 40 - (count - 1 - pixel.index) * 30, y, 11];
    const x = this.side / 2 + 40 + (pixel.index + this.cardGap * (pixel.card || 0)) * this.cardStep();
    return [x, y, Math.min(11, this.cardStep() * 0.4)];
  }

  // Card pixels share the right half of the strip: a card strip (3 cards x 5) packs closer, with a
  // gap between its cards (a profile with one pixel per card spaces them evenly).
  cardStep() { return Math.min(30, (this.side / 2 - 60) / Math.max(1, this.cardSpan())); }

  cardSpan() { return this.counts.card - 1 + this.cardGap * Math.max(0, this.cards - 1); }

  drawPixels() {
    const counters = {};
    this.counts = { status: 0, card: 0 };
    for (const pixel of this.layout.pixels) if (pixel.kind in this.counts) this.counts[pixel.kind] += 1;
    this.cards = new Set(this.layout.pixels.filter((p) => p.kind === "card").map((p) => p.card)).size;
    this.cardGap = this.cards > 1 && this.cards < this.counts.card ? CARD_GAP : 0;
    for (const [i, pixel] of this.layout.pixels.entries()) {
      const [x, y, r] = this.pixelPosition(pixel, counters);
      const onHole = pixel.kind === "hole";
      const glow = el("circle", { class: "led", cx: x, cy: y, r: onHole ? r * 1.15 : r * 1.8, filter: "url(#glow)", opacity: 0,
        "data-pixel": i, "data-kind": pixel.kind }, onHole ? this.layers.glow : this.svg);
      // A hole's LED shines up around the marble: a soft glow below and a ring around the hole.
      const core = onHole
        ? el("circle", { class: "led-ring", cx: x, cy: y, r: 0.37 * P, "data-pixel": i, "data-kind": pixel.kind, opacity: 0 }, this.svg)
        : el("circle", { class: "led-core", cx: x, cy: y, r, fill: "#111", "data-pixel": i, "data-kind": pixel.kind }, this.svg);
      glow.setAttribute("data-rgb", "0,0,0");
      if (onHole) glow.setAttribute("data-led-hole", this.layout.holes[pixel.hole].name);
      this.leds.push({ glow, core, pixel });
      if (pixel.kind === "card") this.cardParts.push(glow, core);
    }
    const y = this.side + STRIP / 2 + 28;
    const caption = (x, text) => { el("text", { class: "caption", x, y }, this.svg).textContent = text; };
    if (this.counts.status) caption(this.side / 2 - 40 - (this.counts.status - 1) * 15, "turn / status");
    if (this.counts.card) {
      caption(this.side / 2 + 40 + this.cardSpan() * this.cardStep() / 2, "cards");
      this.cardCaption = this.svg.lastChild;
      this.cardParts.push(this.cardCaption);
    }
  }

  // The card pixels light Pentago Triple's pattern cards and a match's score; a game that has
  // neither shows no strip (it looked like part of every game).
  showCards(state) {
    const cards = (state.cards || []).length > 0 || !!state.taken, match = !!state.match;
    for (const part of this.cardParts) part.setAttribute("visibility", cards || match ? "visible" : "hidden");
    if (this.cardCaption) this.cardCaption.textContent = match && !cards ? "match" : "cards";
  }

  // A block the virtual board has part-way through a turn stands drawn that far round (a
  // quarter is the profile's detents), so a one-detent twist shows; square again at 0.
  standTurned(block, detents) {
    const [g, cx, cy] = this.blockGroups.get(block) || [];
    if (!g || this.dragging === block) return;
    if (detents) g.setAttribute("transform", `rotate(${90 * detents / this.layout.detents_per_quarter} ${cx} ${cy})`);
    else g.removeAttribute("transform");
    g.classList.toggle("part-turned", !!detents);
  }

  update(state, marbles, offsets = {}) {
    const frame = state.frame || [];
    this.offsets = offsets;
    for (const block of this.blockGroups.keys()) this.standTurned(block, offsets[String(block)] || 0);
    this.showCards(state);
    this.leds.forEach(({ glow, core, pixel }, i) => {
      const [r, g, b] = frame[i] || [0, 0, 0];
      const level = Math.max(r, g, b) / 255;
      const rgb = `rgb(${r},${g},${b})`;
      glow.setAttribute("fill", rgb);
      glow.setAttribute("opacity", (pixel.kind === "hole" ? 0.95 : 0.8) * level);
      glow.setAttribute("data-rgb", `${r},${g},${b}`);
      if (pixel.kind === "hole") {
        core.setAttribute("stroke", rgb);
        core.setAttribute("opacity", Math.min(1, 0.3 + level) * (level > 0));
      } else {
        core.setAttribute("fill", level ? rgb : "#111");
        core.setAttribute("data-rgb", `${r},${g},${b}`);
      }
    });
    this.paintMarbles(state, marbles);
  }

  // The simulator shows the marbles physically on its board; the console shows the game's, in
  // the game's marble colours by colour index (the state's "marbles"), the board's own without a game.
  paintMarbles(state, marbles) {
    const colours = state.marbles?.length ? state.marbles : this.layout.colours, size = this.layout.size;
    for (const [hole, circle] of this.marbles) {
      let colour = null;
      if (this.layout.virtual) {
        if (String(hole) in marbles) colour = marbles[String(hole)] || "grey";
      } else {
        const h = this.layout.holes[hole];
        const symbol = (state.board || [])[size - 1 - h.row]?.[h.column];
        const index = "xoyz".indexOf(symbol);
        if (index >= 0) colour = colours[index] || "grey";
      }
      circle.setAttribute("visibility", colour ? "visible" : "hidden");
      if (colour) circle.setAttribute("fill", this.layout.looks[colour]?.marble || colour);
      circle.setAttribute("data-colour", colour || "");
    }
  }
}

window.BoardView = BoardView;
