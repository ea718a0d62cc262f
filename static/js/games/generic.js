// Fallback for a game without its own renderer: the legal commands as buttons and the
// view as JSON, so any ruleset is playable from the page.

import { clear, h } from "../dom.js";

export function render(root, view, legal, ctx) {
  clear(root).append(
    h(
      "div",
      { class: "generic-game" },
      legal.length
        ? h(
            "div",
            { class: "actions wrap", role: "group", "aria-label": "Legal moves" },
            legal.map((command) => h("button", { type: "button", class: "small", onclick: () => ctx.send(command) }, JSON.stringify(command))),
          )
        : null,
      h("details", { open: true }, h("summary", {}, "The board as you see it"), h("pre", { class: "mono view-json" }, JSON.stringify(view, null, 2))),
    ),
  );
}
