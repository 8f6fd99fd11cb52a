// Seat tokens, kept in the browser's localStorage by match so a reload keeps the seat.

export interface Seat {
  playerId: string;
  token: string;
}

const PREFIX = "tabletop.seat.";

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function loadSeat(matchId: string): Seat | null {
  const raw = storage()?.getItem(PREFIX + matchId);
  if (!raw) return null;
  try {
    const seat = JSON.parse(raw) as Partial<Seat>;
    return typeof seat.playerId === "string" && typeof seat.token === "string" ? { playerId: seat.playerId, token: seat.token } : null;
  } catch {
    return null;
  }
}

export function saveSeat(matchId: string, seat: Seat): void {
  storage()?.setItem(PREFIX + matchId, JSON.stringify(seat));
}

export function forgetSeat(matchId: string): void {
  storage()?.removeItem(PREFIX + matchId);
}
