import { useEffect, type RefObject } from "react";

/**
 * Closes a header disclosure (a native `<details>`) on Escape and on a pointer press outside it,
 * as a menu is expected to behave; the element keeps its own keyboard and screen-reader handling.
 */
export function useDismissable(details: RefObject<HTMLDetailsElement | null>): void {
  useEffect(() => {
    const close = (e: Event): void => {
      const el = details.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, [details]);
}
