/** What Tab can land on inside a container, in order. */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

/**
 * Keeps Tab and Shift+Tab inside `container`, wrapping at either end. A modal <dialog> makes the
 * page behind inert, but Tab past its last control still leaves for the browser's own UI.
 * Returns the remover.
 */
export function trapFocus(container: HTMLElement): () => void {
  const onKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    const items = focusables(container);
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items.at(-1)!;
    const active = document.activeElement;
    const outside = !(active instanceof HTMLElement) || !items.includes(active);
    if (event.shiftKey && (active === first || outside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || outside)) {
      event.preventDefault();
      first.focus();
    }
  };
  container.addEventListener('keydown', onKeydown);
  return () => container.removeEventListener('keydown', onKeydown);
}
