// Table chat over /ws/games/<id>/chat/: history on connect, live lines, moderators' hides,
// and a report button on every other player's line. Reconnects with backoff (the
// server sends the history again on every connect).

import { showError, socketMessage, toast, wsUrl } from "./api.js";
import { clear, h } from "./dom.js";
import { ReconnectingSocket } from "./socket.js";

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
    if (this.form) this.form.addEventListener("submit", (ev) => this.say(ev));
    // Lines from others that came while the chat was out of sight: a mark that leads to it.
    this.unread = 0;
    this.inView = false;
    this.mark = h("a", { href: "#chat", class: "chat-unread", id: "chat-unread", hidden: true, onclick: () => this.markRead() });
    document.body.append(this.mark);
    new IntersectionObserver((entries) => {
      this.inView = entries.some((e) => e.isIntersecting);
      if (this.inView && !document.hidden) this.markRead();
    }).observe(this.log);
    document.addEventListener("visibilitychange", () => {
      if (this.inView && !document.hidden) this.markRead();
    });
    this.socket = new ReconnectingSocket(() => wsUrl(`/ws/games/${this.gameId}/chat/`), {
      first: 500,
      max: 15000,
      retry: (ev) => ev.code !== 4404, // no such game: asking again will not help
      onMessage: (ev) => {
        const message = socketMessage(ev);
        if (message !== undefined) this.receive(message);
      },
    }).open();
  }

  receive(message) {
    if (message.type === "history") {
      clear(this.log);
      message.messages.forEach((line) => this.append(line));
    } else if (message.type === "message") {
      const fresh = !this.log.querySelector(`[data-message="${message.message.id}"]`);
      this.append(message.message);
      if (fresh && !message.message.hidden && message.message.author !== this.me && (!this.inView || document.hidden)) this.countUnread();
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
        // A bot account's name reads as at the table's seats: "robo (bot)".
        h("span", { class: "chat-author" }, line.bot_account ? `${line.author} (bot)` : line.author),
        h("span", { class: "chat-body" }, line.body),
        this.canPost && !mine
          ? h("button", { type: "button", class: "link-button chat-report", title: "Report this message to the moderators", onclick: () => this.report(line) }, "report")
          : null,
      ),
    );
    this.log.scrollTop = this.log.scrollHeight;
  }

  countUnread() {
    this.unread += 1;
    const words = `${this.unread} new chat message${this.unread === 1 ? "" : "s"}`;
    this.mark.textContent = `Chat: ${this.unread} new ▾`;
    this.mark.setAttribute("aria-label", `${words}: show the chat`);
    this.mark.hidden = false;
    this.root.querySelector("#chat-heading").textContent = `Chat (${this.unread} new)`;
  }

  markRead() {
    this.unread = 0;
    this.mark.hidden = true;
    this.root.querySelector("#chat-heading").textContent = "Chat";
  }

  say(ev) {
    ev.preventDefault();
    const body = this.input.value.trim();
    if (!body) return;
    if (!this.socket.send({ type: "say", body })) {
      showError("The chat is reconnecting; try again in a moment.");
      return;
    }
    this.input.value = "";
  }

  report(line) {
    const reason = window.prompt(`Report ${line.author}'s message to the moderators. Why?`, "");
    if (reason === null) return;
    this.socket.send({ type: "report", message: line.id, reason });
  }
}

const root = document.getElementById("chat");
if (root) new TableChat(root);
