// Calls of the hosting features (rematch, history) the typed client does not wrap yet.

export interface HistoryView {
  match_id: string;
  player_id: string | null;
  index: number;
  head: number;
  status: string;
  view: unknown;
  actions: { type: string; index?: number | null }[];
}

export interface RematchAnswer {
  match: { id: string };
  player_id: string;
  token: string;
}

/** The links between a match and its rematch, and the fairness commitment, from the match info. */
export interface HostedInfo {
  rematch?: { previous: string | null; next: string | null };
  fairness?: { commitment: string | null; key: string | null; seed: number | null };
}

async function call<T>(baseUrl: string, method: string, path: string, token: string | null): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${baseUrl}${path}`, { method, headers });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.message ?? `HTTP ${response.status}`);
  return body as T;
}

/** The caller's view of the match after its first `index` actions. */
export function historyAt(baseUrl: string, matchId: string, index: number, token: string | null): Promise<HistoryView> {
  return call(baseUrl, "GET", `/matches/${encodeURIComponent(matchId)}/history/${index}`, token);
}

/** The rematch of a finished match, and a token for the caller's seat in it. */
export function askRematch(baseUrl: string, matchId: string, token: string): Promise<RematchAnswer> {
  return call(baseUrl, "POST", `/matches/${encodeURIComponent(matchId)}/rematch`, token);
}

export interface Verification {
  verified: boolean;
  problems: string[];
  actions: number;
  outcomes: number;
  /** Actions with parts hidden during the match (a sealed bid, a dealt card), checked in full. */
  hidden: number;
}

/** The server's replay of the match's public record (its full log once over) with its revealed key (what `tabletop verify` does). */
export function verification(baseUrl: string, matchId: string): Promise<Verification> {
  return call(baseUrl, "GET", `/matches/${encodeURIComponent(matchId)}/verification`, null);
}
