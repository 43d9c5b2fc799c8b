// Waiting in tests and benchmarks. State the server records after a receiver answered is awaited as a condition
// with a generous bound (a loaded CI machine can take far longer than a fixed sleep guesses);
// `sleep` is only for asserting that nothing more happens within a window.

/**
 * Polls `condition` every 20 ms until it holds or `timeoutMs` passes; resolves with whether it held
 * and never throws, so the assertion that follows reports what was actually there.
 */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(20);
  }
}

/** Sleeps; for asserting that nothing more arrives. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
