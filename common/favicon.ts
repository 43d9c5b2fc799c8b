// The SecMon icon, a shield with a tick: the reference server answers it at /favicon.svg and
// /favicon.ico (where browsers look when a page names none) and its settings page links it; the
// docs page carries it inline, so the page stays one file that contacts no one.
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<path fill="#1f5fbf" d="M16 2 4 6.5v8.2c0 7.3 5.1 13.3 12 15.3 6.9-2 12-8 12-15.3V6.5z"/>' +
  '<path fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round" d="m10.5 16.5 4 4 7-8"/>' +
  '</svg>';

export const FAVICON_PATHS = ['/favicon.svg', '/favicon.ico'];

/** A `<link>` to the icon inside the page itself. */
export const INLINE_FAVICON_LINK = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}">`;
