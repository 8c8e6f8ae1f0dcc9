// Countdowns from the server's `timers` (milliseconds left when the message was sent) and optional
// sounds (off by default). Presentation only: the server keeps the time; the page shows it.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const deadlines = { turn: null, react: null, round: null };
// The timers by name (TIMERS.turn …): the turn, the people's reaction window, the wait for the next round.
export const TIMERS = Object.fromEntries(Object.keys(deadlines).map((key) => [key, key]));

// Take a message's `timers` (absent from an older server: no countdowns are shown).
export function setTimers(timers) {
  if (!timers) return;
  const now = performance.now();
  for (const key of Object.keys(deadlines)) {
    const ms = timers[key];
    deadlines[key] = typeof ms === "number" ? now + ms : null;
  }
}

export const secondsLeft = (key) => {
  const at = deadlines[key];
  return at === null ? null : Math.max(0, Math.ceil((at - performance.now()) / 1000));
};

// An element whose text counts down the `key` timer ("3 s"); empty when there is none.
export function countdown(key, cls = "countdown") {
  const el = h("span", { class: cls, "data-timer": key });
  tickOne(el);
  return el;
}

function tickOne(el) {
  const s = secondsLeft(el.dataset.timer);
  // TRANSLATORS: a countdown's seconds left, e.g. "5 s"
  const left = t("{n} s", { n: s });
  el.textContent = s === null ? "" : ` ${left}`;
  el.classList.toggle("urgent", s !== null && s <= 3);
}

setInterval(() => {
  for (const el of document.querySelectorAll("[data-timer]")) tickOne(el);
}, 250);

// -- sounds: short WebAudio beeps, off unless the player turns them on ----------------------------
const SOUND_KEY = "uno.sound";
let audio = null;
export const soundOn = () => localStorage.getItem(SOUND_KEY) === "1";
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "1" : "0");
}

// A beep: "yours" (your turn), "play" (a card played), "alert" (UNO / catch window).
export function beep(kind) {
  if (!soundOn()) return;
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = { yours: 660, play: 440, alert: 880 }[kind] || 500;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.18);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.2);
  } catch {
    /* no audio on this device */
  }
}
