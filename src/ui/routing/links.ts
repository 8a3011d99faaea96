/**
 * Which link clicks the app handles without a full page load (docs/product-rules.md#navigation): internal links only,
 * never modified clicks, downloads, other targets, other hosts, file-like paths or same-page hashes.
 * Pure so it tests without a DOM; the shell feeds it facts read off the event and the anchor.
 */

export interface ClickFacts {
  readonly button: number;
  readonly metaKey: boolean;
  readonly ctrlKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly defaultPrevented: boolean;
}

export interface AnchorFacts {
  /** The resolved absolute href (anchor.href), or null when the anchor has none. */
  readonly href: string | null;
  readonly target: string;
  readonly hasDownload: boolean;
  /** rel="external" opts a link out of client-side routing. */
  readonly rel: string;
}

export interface LocationFacts {
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
}

/** A last segment with a dot-extension (`/docs/terms.pdf`) is a file, not a page. */
const FILE_LIKE = /\/[^/]+\.[a-z0-9]{1,8}$/i;

/**
 * Returns the in-app address (path + query + hash) to navigate to, or null when the browser should
 * handle the click itself.
 */
export function interceptTarget(click: ClickFacts, anchor: AnchorFacts, here: LocationFacts): string | null {
  if (click.defaultPrevented || click.button !== 0) return null;
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return null;
  if (anchor.href === null || anchor.hasDownload) return null;
  if (anchor.target !== "" && anchor.target !== "_self") return null;
  if (/\bexternal\b/i.test(anchor.rel)) return null;
  let url: URL;
  try {
    url = new URL(anchor.href, here.origin);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.origin !== here.origin) return null;
  // /index.html is the root page, not a file download.
  if (FILE_LIKE.test(url.pathname) && !url.pathname.endsWith("/index.html")) return null;
  // Same page with only a hash: let the browser scroll to the fragment.
  if (url.hash !== "" && url.pathname === here.pathname && url.search === here.search) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
