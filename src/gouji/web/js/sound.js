// Short tones made with the Web Audio API (no sound files): your turn, 够级, burns.
// Muting is remembered in localStorage.
const MUTE_KEY = "gouji.mute";

// kind → [[frequency Hz, start s, length s], …]
const TONES = {
  turn: [
    [660, 0, 0.09],
    [880, 0.1, 0.12],
  ],
  gouji: [
    [523, 0, 0.1],
    [659, 0.1, 0.1],
    [784, 0.2, 0.18],
  ],
  burn: [
    [392, 0, 0.08],
    [311, 0.09, 0.08],
    [262, 0.18, 0.2],
  ],
};

let ctx = null;
export const played = []; // the kinds played so far (the tests read it)

export function isMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch (e) {
    return false;
  }
}

export function setMuted(on) {
  try {
    localStorage.setItem(MUTE_KEY, on ? "1" : "0");
  } catch (e) {
    /* storage unavailable */
  }
}

function audio() {
  if (ctx) return ctx;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  try {
    ctx = new AC();
  } catch (e) {
    ctx = null;
  }
  return ctx;
}

/** Browsers start audio only after a gesture: resume the context on the first one. */
export function unlockOnGesture() {
  const resume = () => {
    const a = audio();
    if (a && a.state === "suspended") a.resume().catch(() => {});
  };
  for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, resume, { once: true });
}

function tone(a, freq, start, length) {
  const osc = a.createOscillator();
  const gain = a.createGain();
  const t0 = a.currentTime + start;
  osc.type = "sine";
  osc.frequency.setValueAtTime(freq, t0);
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(0.18, t0 + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(a.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

/** Play the tone of `kind` ("turn", "gouji", "burn") unless muted. */
export function sound(kind) {
  if (isMuted() || !TONES[kind]) return;
  played.push(kind);
  if (played.length > 200) played.shift();
  const a = audio();
  if (!a || a.state !== "running") return;
  for (const [f, s, l] of TONES[kind]) tone(a, f, s, l);
}
