// Player colours (Okabe–Ito, safe for colour-blind readers) and a shape per seat.

import { s } from "./dom.js";

export const COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00"];
export const COLOUR_NAMES = ["orange", "sky blue", "green", "purple", "blue", "vermilion"];
export const SHAPES = ["circle", "square", "triangle", "diamond", "star", "hexagon"];

export const seatColour = (seat) => COLOURS[((seat ?? 0) % COLOURS.length + COLOURS.length) % COLOURS.length];
export const seatShape = (seat) => SHAPES[((seat ?? 0) % SHAPES.length + SHAPES.length) % SHAPES.length];

function starPoints(cx, cy, outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** An SVG shape element centred on (cx, cy) with radius r. */
export function shapeElement(shape, cx, cy, r, attrs = {}) {
  switch (shape) {
    case "square":
      return s("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, ...attrs });
    case "triangle":
      return s("polygon", { points: `${cx},${cy - r} ${cx + r * 0.95},${cy + r * 0.75} ${cx - r * 0.95},${cy + r * 0.75}`, ...attrs });
    case "diamond":
      return s("polygon", { points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`, ...attrs });
    case "star":
      return s("polygon", { points: starPoints(cx, cy, r, r * 0.45), ...attrs });
    case "hexagon": {
      const pts = [];
      for (let i = 0; i < 6; i++) {
        const a = (Math.PI / 3) * i;
        pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
      }
      return s("polygon", { points: pts.join(" "), ...attrs });
    }
    default:
      return s("circle", { cx, cy, r, ...attrs });
  }
}

/** A small inline badge: the seat's colour, with its shape when shapes are on (CSS). */
export function seatBadge(seat, size = 16) {
  const r = size / 2 - 1;
  const svg = s("svg", {
    class: "seat-badge",
    width: size,
    height: size,
    viewBox: `0 0 ${size} ${size}`,
    "aria-hidden": "true",
  });
  svg.append(
    s("circle", { class: "badge-plain", cx: size / 2, cy: size / 2, r, fill: seatColour(seat), stroke: "#222", "stroke-width": 1 }),
    shapeElement(seatShape(seat), size / 2, size / 2, r, { class: "badge-shape", fill: seatColour(seat), stroke: "#222", "stroke-width": 1 }),
  );
  return svg;
}
