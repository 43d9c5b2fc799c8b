// How the 429 probe spends the quota: in waves of concurrent requests, so a window is used up in
// few round trips.

/** Requests the probe has in flight at once. */
export const PROBE_WAVE = 8;
