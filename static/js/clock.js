// Time controls and clock readouts. The server keeps the clocks; the page only counts
// down from the deadlines it sends, corrected by the server's time.

export function timeControlText(control) {
  if (!control || !control.kind || control.kind === "none") return "";
  if (control.kind === "realtime") return `${control.minutes} min + ${control.increment_seconds} s`;
  if (control.kind === "turn") return `${control.hours} h per move`;
  return control.kind;
}

/** 0:42, 12:05, 3:04:10 or 2 d 4 h */
export function formatDuration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days) return `${days} d ${hours} h`;
  if (hours) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

/** What a seat's clock shows now: {text, running, low, out} or null for an unclocked seat. */
export function clockReading(clock, seat, nowMs) {
  if (!clock || !clock.control) return null;
  const key = String(seat);
  const out = (clock.timed_out || []).includes(seat);
  const deadline = clock.deadlines?.[key];
  const running = deadline !== undefined && deadline !== null;
  if (clock.control.kind === "realtime") {
    if (!(key in (clock.banks || {}))) return null;
    const left = running ? deadline - nowMs : clock.banks[key];
    return { text: out ? "out of time" : formatDuration(left), running, low: left < 30000, out };
  }
  if (out) return { text: "out of time", running: false, low: true, out };
  if (!running) return { text: "", running: false, low: false, out };
  const left = deadline - nowMs;
  return { text: `${formatDuration(left)} to move`, running, low: left < 3600000, out };
}
