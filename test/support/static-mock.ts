// One static mock (Prism behind the contract shim, as `npm run mock` starts it) per test process:
// the files a worker runs one after another share it, as they share Chromium (test/browser/chromium.ts).
// Both keep nothing between requests, so a file sees what a fresh mock would answer, and a launch
// costs about 3 s of CPU and seconds of waiting. Files that test the launcher itself, or start the
// mock with other options, start their own. The mock leaves with the process (exit-with-parent).
import { type MockServer, startMock } from '../../packages/mock/src/prism.ts';

let shared: Promise<MockServer> | undefined;

const running = (mock: MockServer) => {
  try {
    process.kill(mock.pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The process's static mock, started on first use and again if it is no longer running. Never stop it. */
export async function staticMock(): Promise<MockServer> {
  const mock = await (shared ??= startMock());
  if (running(mock)) return mock;
  await mock.stop();
  return (shared = startMock());
}
