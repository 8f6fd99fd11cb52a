// Seat tokens, kept in the browser's localStorage by match so a reload keeps the seat; and the
// creator's secrets of the matches this browser created (the creator token and the seats' invites).

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

/** What the creator of a match keeps: the creator token and each human seat's invite secret. */
export interface CreatorSecrets {
  creatorToken: string;
  invites: { [playerId: string]: string };
}

const CREATOR_PREFIX = "tabletop.creator.";

export function saveCreator(matchId: string, secrets: CreatorSecrets): void {
  storage()?.setItem(CREATOR_PREFIX + matchId, JSON.stringify(secrets));
}

export function loadCreator(matchId: string): CreatorSecrets | null {
  const raw = storage()?.getItem(CREATOR_PREFIX + matchId);
  if (!raw) return null;
  try {
    const found = JSON.parse(raw) as Partial<CreatorSecrets>;
    if (typeof found.creatorToken !== "string" || typeof found.invites !== "object" || found.invites === null) return null;
    const invites: { [playerId: string]: string } = {};
    for (const [playerId, secret] of Object.entries(found.invites)) if (typeof secret === "string") invites[playerId] = secret;
    return { creatorToken: found.creatorToken, invites };
  } catch {
    return null;
  }
}

/** Every match this browser holds a seat of (its tokens in localStorage), with the seat. */
export function heldSeats(): { matchId: string; seat: Seat }[] {
  const store = storage();
  if (!store) return [];
  const found: { matchId: string; seat: Seat }[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    const matchId = key.slice(PREFIX.length);
    const seat = loadSeat(matchId);
    if (seat) found.push({ matchId, seat });
  }
  return found;
}
