// Turn alerts: when a turn becomes yours, a short beep (WebAudio: no sound file to fetch),
// the browser's notification while the page is out of sight (once the player allowed
// them), and the tab's title. A toggle in the table's head turns them off and on.

const KEY = "kingdom.turnAlerts";

export class AlertsPart {
  constructor(table, client) {
    this.table = table;
    this.client = client;
    this.wasYours = null; // the turn as last settled: null until the first view
    this.given = 0; // alerts given on this page (the browser tests read it)
    this.rematchRings = 0; // rematch offers rung (the browser tests read it)
    this.audio = null; // one AudioContext, made on the first beep
  }

  enabled() {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch {
      return true;
    }
  }

  /** The toggle in the table's head; turning alerts on asks leave to notify. */
  renderToggle() {
    const button = document.getElementById("turn-alerts");
    if (!button) return;
    const on = this.enabled();
    // On, but the browser has not been asked yet: the first click asks, and says so.
    const ask = on && this.canAsk();
    button.textContent = on ? (ask ? "Turn alerts: on · allow notifications" : "Turn alerts: on") : "Turn alerts: off";
    button.setAttribute("aria-pressed", String(on));
    if (button.dataset.wired) return;
    button.dataset.wired = "1";
    button.addEventListener("click", () => {
      if (this.enabled() && this.canAsk()) {
        Promise.resolve(Notification.requestPermission()).finally(() => this.renderToggle());
        return;
      }
      const next = !this.enabled();
      try {
        localStorage.setItem(KEY, next ? "on" : "off");
      } catch {
        /* private mode: this page only */
      }
      if (next && this.canAsk()) Promise.resolve(Notification.requestPermission()).finally(() => this.renderToggle());
      this.renderToggle();
    });
  }

  canAsk() {
    return "Notification" in window && Notification.permission === "default";
  }

  /** Called on every render with whether the settled view gives us a turn now. */
  turnNow(yours) {
    const was = this.wasYours;
    this.wasYours = yours;
    if (was === false && yours && this.enabled()) this.alert();
  }

  alert() {
    this.given += 1;
    this.beep();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        new Notification(`Your turn · ${this.table.rulesetName}`, { body: "The table is waiting for your move.", tag: `turn-${this.table.id}` });
      } catch {
        /* some browsers allow notifications from a service worker only */
      }
    }
  }

  /** Another player opened a rematch: the same beep and notification as a turn. */
  rematchOffered(by) {
    if (!this.enabled()) return;
    this.rematchRings += 1;
    this.beep();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        new Notification(`${by} offers a rematch · ${this.table.rulesetName}`, { body: "Join their table from the game's page.", tag: `rematch-${this.table.id}` });
      } catch {
        /* some browsers allow notifications from a service worker only */
      }
    }
  }

  beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      this.audio ||= new Context();
      const audio = this.audio;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.0001, audio.currentTime);
      volume.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      tone.connect(volume).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.26);
    } catch {
      /* no sound device: the title and the banner still say it */
    }
  }
}
