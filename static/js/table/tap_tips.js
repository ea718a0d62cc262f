// Tooltips on touch screens: a finger has no hover, so a tap on anything with a tooltip
// (a title attribute, or an SVG <title> such as a hex's) shows its text in a bubble by
// the finger; the next tap anywhere replaces or closes it. The tap still does what it
// does (a highlighted hex still builds); the bubble only adds the words.

import { h } from "../dom.js";

function tipOf(target, root) {
  for (let el = target; el && el !== root && el.nodeType === 1; el = el.parentNode) {
    const title = el.getAttribute("title");
    if (title) return title;
    const inner = el.querySelector(":scope > title");
    if (inner?.textContent) return inner.textContent;
  }
  return null;
}

export function tapTips(root) {
  let bubble = null;
  let touch = false;
  const close = () => {
    bubble?.remove();
    bubble = null;
  };
  root.addEventListener("pointerdown", (ev) => {
    touch = ev.pointerType === "touch" || ev.pointerType === "pen";
    if (bubble && ev.target !== bubble) close();
  });
  root.addEventListener("click", (ev) => {
    if (!touch) return;
    const text = tipOf(ev.target, root);
    if (!text) return;
    bubble = h("div", { class: "tap-tip", role: "tooltip" }, text);
    document.body.append(bubble);
    const width = Math.min(280, window.innerWidth - 16);
    bubble.style.maxWidth = `${width}px`;
    const left = Math.max(8, Math.min(ev.clientX - width / 2, window.innerWidth - width - 8));
    bubble.style.left = `${left}px`;
    bubble.style.top = `${Math.max(8, ev.clientY - bubble.offsetHeight - 12)}px`;
  });
}
