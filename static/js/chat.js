// Table chat over /ws/games/<id>/chat/: history on connect, live lines, moderators' hides,
// and a report button on every other player's line. Reconnects with backoff.

import { showError, socketMessage, toast, wsUrl } from "./api.js";
import { clear, h } from "./dom.js";

const BACKOFF_FIRST = 500;
const BACKOFF_MAX = 15000;

function myName() {
  const config = document.getElementById("table-config");
  try {
    return config ? JSON.parse(config.textContent).username : null;
  } catch {
    return null;
  }
}

class TableChat {
  constructor(root) {
    this.root = root;
    this.gameId = root.dataset.gameId;
    this.canPost = root.dataset.canPost === "1";
    this.me = myName();
    this.log = root.querySelector("#chat-log");
    this.form = root.querySelector("#chat-form");
    this.input = root.querySelector("#chat-input");
    this.backoff = BACKOFF_FIRST;
    this.socket = null;
    if (this.form) this.form.addEventListener("submit", (ev) => this.say(ev));
    this.connect();
  }

  connect() {
    const socket = new WebSocket(wsUrl(`/ws/games/${this.gameId}/chat/`));
    this.socket = socket;
    socket.addEventListener("open", () => { this.backoff = BACKOFF_FIRST; });
    socket.addEventListener("message", (ev) => {
      const message = socketMessage(ev);
      if (message !== undefined) this.receive(message);
    });
    socket.addEventListener("close", (ev) => {
      if (ev.code === 4404) return;
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX);
    });
  }

  receive(message) {
    if (message.type === "history") {
      clear(this.log);
      message.messages.forEach((line) => this.append(line));
    } else if (message.type === "message") {
      this.append(message.message);
    } else if (message.type === "hidden") {
      const line = this.log.querySelector(`[data-message="${message.message}"]`);
      if (line) line.remove();
    } else if (message.type === "reported") {
      toast("Reported to the moderators. Thank you.", "info");
    } else if (message.type === "error") {
      showError(message.message || "The chat refused that.");
    }
  }

  append(line) {
    if (line.hidden || this.log.querySelector(`[data-message="${line.id}"]`)) return;
    const mine = this.me && line.author === this.me;
    this.log.append(
      h(
        "li",
        { class: "chat-line", dataset: { message: String(line.id) } },
        line.created_at
          ? h("time", { class: "chat-time", datetime: line.created_at, title: new Date(line.created_at).toLocaleString() }, new Date(line.created_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }))
          : null,
        h("span", { class: "chat-author" }, line.author),
        h("span", { class: "chat-body" }, line.body),
        this.canPost && !mine
          ? h("button", { type: "button", class: "link-button chat-report", title: "Report this message to the moderators", onclick: () => this.report(line) }, "report")
          : null,
      ),
    );
    this.log.scrollTop = this.log.scrollHeight;
  }

  say(ev) {
    ev.preventDefault();
    const body = this.input.value.trim();
    if (!body) return;
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      showError("The chat is reconnecting; try again in a moment.");
      return;
    }
    this.socket.send(JSON.stringify({ type: "say", body }));
    this.input.value = "";
  }

  report(line) {
    const reason = window.prompt(`Report ${line.author}'s message to the moderators. Why?`, "");
    if (reason === null) return;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ type: "report", message: line.id, reason }));
    }
  }
}

const root = document.getElementById("chat");
if (root) new TableChat(root);
