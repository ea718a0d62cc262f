// fetch wrapper: JSON in and out, the CSRF header on writes, errors as ApiError.

import { h } from "./dom.js";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `The server answered ${status}.`);
    this.status = status;
    this.code = (body && body.code) || "error";
    this.body = body || {};
  }
}

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (match) return decodeURIComponent(match[1]);
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

export async function api(path, { method = "GET", body, signal } = {}) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin", signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = csrfToken();
  let response;
  try {
    response = await fetch(path.startsWith("/") ? path : `/api/${path}`, init);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, { code: "network", message: "Could not reach the server. Check your connection." });
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { code: "error", message: `The server answered ${response.status}.` };
    }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path, opts) => api(path, { ...opts, method: "GET" });
export const post = (path, body, opts) => api(path, { ...opts, method: "POST", body: body ?? {} });
export const del = (path, opts) => api(path, { ...opts, method: "DELETE" });

/** A v4 UUID; crypto.randomUUID needs a secure context, so fall back to getRandomValues. */
export function newCommandId() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
  const b = window.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Show a short message in the page's live region (errors stay until dismissed). */
export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h(
    "div",
    { class: ["toast", `toast-${kind}`], role: kind === "error" ? "alert" : "status" },
    h("span", { class: "toast-text" }, message),
    h("button", { type: "button", class: "toast-close", "aria-label": "Dismiss", onclick: () => item.remove() }, "×"),
  );
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 3000);
}

export function showError(err) {
  toast(err instanceof ApiError || err instanceof Error ? err.message : String(err), "error");
}

export function wsUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}

/** A socket message's data read as JSON; undefined when it is not JSON (the caller skips it). */
export function socketMessage(ev) {
  try {
    return JSON.parse(ev.data);
  } catch {
    return undefined;
  }
}
