// The table's short sounds, made with the Web Audio API (no files to ship): a tile placed, a
// Lewat, your turn, a round won. The header's switch mutes them, remembered in localStorage.
// Nothing sounds before the person has interacted with the page (the browsers' autoplay rule),
// and each sound played is announced as a `meja:sound` event on window, so a page or a test
// can see what was heard.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "meja.muted";

/** Each cue as notes: [frequency Hz, start s, length s, waveform, volume]. */
export const CUES = {
  tile: [[880, 0, 0.05, "triangle", 0.25], [1320, 0.02, 0.04, "sine", 0.12]],
  lewat: [[440, 0, 0.12, "sawtooth", 0.12], [330, 0.12, 0.18, "sawtooth", 0.12]],
  turn: [[660, 0, 0.1, "sine", 0.2], [990, 0.1, 0.14, "sine", 0.2]],
  win: [[523, 0, 0.1, "sine", 0.2], [659, 0.1, 0.1, "sine", 0.2], [784, 0.2, 0.1, "sine", 0.2],
    [1047, 0.3, 0.25, "sine", 0.2]],
};

let audio = null;
let idle = null;
let muted = read();
const buttons = new Set();

function read() {
  try { return globalThis.localStorage?.getItem(KEY) === "1"; } catch { return false; }
}

export function isMuted() { return muted; }

export function setMuted(on) {
  muted = !!on;
  try { globalThis.localStorage?.setItem(KEY, muted ? "1" : "0"); } catch { /* not kept */ }
  for (const b of buttons) label(b);
}

/** Play a cue now; false when muted, before any interaction, or without Web Audio. */
export function play(cue) {
  const notes = CUES[cue];
  const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!notes || muted || !Ctx || !(navigator.userActivation?.hasBeenActive ?? true)) return false;
  audio ??= new Ctx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const now = audio.currentTime + 0.01;
  for (const [freq, at, len, type, volume] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(volume, now + at);
    gain.gain.exponentialRampToValueAtTime(0.001, now + at + len); // a short fade: no click
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + len + 0.02);
  }
  // An idle context keeps its audio thread running: stop it once the last note has faded.
  const end = Math.max(...notes.map(([, at, len]) => at + len)) + 0.1;
  clearTimeout(idle);
  idle = setTimeout(() => audio.suspend().catch(() => {}), end * 1000 + 50);
  window.dispatchEvent(new CustomEvent("meja:sound", { detail: cue }));
  return true;
}

/** A speaker with sound waves, or crossed out when muted (no emoji: not every phone has them). */
function speaker(off) {
  return s("svg", { class: "mute-icon", viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true" },
    s("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }),
    off ? s("path", { d: "M16 9l6 6M22 9l-6 6", stroke: "currentColor", "stroke-width": 2, fill: "none" })
      : s("path", { d: "M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13", stroke: "currentColor",
        "stroke-width": 2, fill: "none", "stroke-linecap": "round" }));
}

function label(btn) {
  const text = t(muted ? "sound.off" : "sound.on");
  btn.dataset.muted = muted ? "1" : "0"; // the label says the state and what a click does
  btn.setAttribute("aria-label", text);
  btn.title = text;
  btn.replaceChildren(speaker(muted), h("span", { class: "mute-label" }, t("sound.label")));
}

/** Draw the header's mute switch (again after a language change) and wire it once. */
export function muteButton(btn) {
  if (!buttons.has(btn)) {
    buttons.add(btn);
    btn.addEventListener("click", () => setMuted(!muted));
  }
  label(btn);
}
