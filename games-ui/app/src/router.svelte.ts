// Hash routes (#/, #/match/ID, #/match/ID/join/SEAT[/INVITE], #/match/ID/watch): no server routing
// needed, and an invite secret in a link never reaches a server (a fragment is not sent).

export type Route =
  | { page: "lobby" }
  | { page: "match"; matchId: string; watch: boolean }
  | { page: "join"; matchId: string; playerId: string; invite: string | null };

export function parse(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "match" && parts[1]) {
    if (parts[2] === "join" && parts[3]) return { page: "join", matchId: parts[1], playerId: parts[3], invite: parts[4] ?? null };
    return { page: "match", matchId: parts[1], watch: parts[2] === "watch" };
  }
  return { page: "lobby" };
}

export function matchHref(matchId: string): string {
  return `#/match/${encodeURIComponent(matchId)}`;
}

export function watchHref(matchId: string): string {
  return `${matchHref(matchId)}/watch`;
}

export function joinHref(matchId: string, playerId: string, invite: string | null = null): string {
  const base = `${matchHref(matchId)}/join/${encodeURIComponent(playerId)}`;
  return invite ? `${base}/${encodeURIComponent(invite)}` : base;
}

/** The absolute link to share (for another player's browser). */
export function absolute(href: string): string {
  return `${location.origin}${location.pathname}${href}`;
}

class Router {
  route = $state<Route>(parse(location.hash));

  constructor() {
    window.addEventListener("hashchange", () => {
      this.route = parse(location.hash);
    });
  }

  go(href: string): void {
    if (location.hash === href) this.route = parse(href);
    else location.hash = href;
  }

  /** Goes to `href` in place of the current page (Back skips it: a join link does not trap the user). */
  replace(href: string): void {
    history.replaceState(history.state, "", href);
    this.route = parse(href);
  }
}

export const router = new Router();
