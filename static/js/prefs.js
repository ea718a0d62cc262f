// Display preferences kept in localStorage: player shapes (besides colours).

const SHAPES_KEY = "kingdom.shapes";

export function readPref(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

export function writePref(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode: the preference lasts for this page only */
  }
}

export function shapesOn() {
  try {
    return localStorage.getItem(SHAPES_KEY) === "on";
  } catch {
    return false;
  }
}

function applyShapes(on) {
  document.documentElement.classList.toggle("shapes-on", on);
  const button = document.getElementById("shapes-toggle");
  if (button) {
    button.setAttribute("aria-pressed", String(on));
    button.textContent = `Colour-blind shapes: ${on ? "on" : "off"}`;
  }
}

export function setShapes(on) {
  try {
    localStorage.setItem(SHAPES_KEY, on ? "on" : "off");
  } catch {
    /* ignore */
  }
  applyShapes(on);
  window.dispatchEvent(new CustomEvent("kingdom:prefs"));
}

function init() {
  applyShapes(shapesOn());
  const button = document.getElementById("shapes-toggle");
  if (button && !button.dataset.bound) {
    button.dataset.bound = "1";
    button.addEventListener("click", () => setShapes(!shapesOn()));
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
