// This browser's preferences of the app, kept in localStorage.

const SOUND = "tabletop.sound";
const PACE = "tabletop.bot-pace-ms";

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** True when the "your turn" sound is on (off unless the player turned it on). */
export function loadSound(): boolean {
  return storage()?.getItem(SOUND) === "on";
}

export function saveSound(on: boolean): void {
  storage()?.setItem(SOUND, on ? "on" : "off");
}

/** The "thinking…" beat before each bot move is shown, in milliseconds (600 by default). */
export function loadPace(): number {
  const raw = Number(storage()?.getItem(PACE) ?? "");
  return Number.isFinite(raw) && raw >= 0 && storage()?.getItem(PACE) !== null ? Math.min(raw, 5000) : 600;
}

export function savePace(ms: number): void {
  storage()?.setItem(PACE, String(Math.max(0, Math.min(5000, Math.round(ms)))));
}
