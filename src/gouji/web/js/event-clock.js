// The organiser's round clock (POST /api/events/{code}/clock) as the pages show it: the time
// left, counted on the server's clock. The event's JSON carries the clock and the server's
// `now`, so a projector whose own clock is minutes off still shows the right time left.
import { loadEvent } from "./event-api.js";

export class RoundClock {
  constructor() {
    this.offset = 0; // the server's time minus this browser's, in ms
    this.clock = null; // {round, started, minutes} or null
  }

  /** Read the event's JSON, timing the request: the server's `now` is taken to be the middle
   * of it. Resolves to the event (a refusal rejects, as loadEvent does). */
  async load(code) {
    const sent = Date.now();
    const ev = await loadEvent(code);
    this.take(ev, sent, Date.now());
    return ev;
  }

  /** Take the clock of an event's JSON read between `sent` and `got` (Date.now() ms). */
  take(ev, sent, got) {
    if (typeof ev.now === "number" && Number.isFinite(ev.now)) this.offset = ev.now * 1000 - (sent + got) / 2;
    const c = ev.clock;
    this.clock =
      c && typeof c.started === "number" && typeof c.minutes === "number" && c.minutes > 0 ? c : null;
  }

  /** Whole seconds left (0 once the time is up), or null when no clock runs. */
  left(now = Date.now()) {
    if (!this.clock) return null;
    const end = (this.clock.started + this.clock.minutes * 60) * 1000;
    return Math.max(0, Math.ceil((end - (now + this.offset)) / 1000));
  }
}

/** Seconds as a clock shows them: 39:59, 1:05:00. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}
