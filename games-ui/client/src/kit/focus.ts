// Focus after a move: a move re-renders or disables the control that made it; the focus stays on
// the board (the next control a seat may use there, else the board itself) instead of falling to
// the page.
import { tick } from "svelte";

const USABLE = "button:not([disabled]):not([aria-disabled='true']), input:not([disabled]), [tabindex='0']";

/** True when `element` can still take key presses (not removed, not disabled). */
function usable(element: Element | null, container: HTMLElement): boolean {
  if (!element || element === document.body || !container.contains(element)) return false;
  return !(element instanceof HTMLButtonElement || element instanceof HTMLInputElement) || !element.disabled;
}

/**
 * Runs `move` (a submit) and then keeps the focus inside `container` when it was there: on the
 * control that made the move if it is still usable, else on the container's first usable
 * control, else on the container (give it `tabindex="-1"` and an accessible name).
 */
export async function keepFocusIn<T>(container: HTMLElement | null | undefined, move: () => Promise<T>): Promise<T> {
  const before = typeof document === "undefined" ? null : document.activeElement;
  const inside = !!container && !!before && container.contains(before);
  const answer = await move();
  await tick();
  if (!container || !inside || !container.isConnected) return answer;
  if (usable(document.activeElement, container)) return answer;
  const next = container.querySelector<HTMLElement>(USABLE);
  (next ?? container).focus();
  return answer;
}
