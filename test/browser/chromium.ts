// Debian's Chromium, driven by playwright-core: never a downloaded browser. The flags keep it off
// the network (this machine has none) and out of the sandbox it cannot have as root.
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** What a test file holds of the browser: contexts of its own, closed together. */
export interface ChromiumSession {
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a new context of its own, as fresh as a new browser profile's. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Closes the contexts opened through this session; the browser stays for the next file. */
  close(): Promise<void>;
}

// One Chromium per test process: the files a worker runs one after another share it (a launch costs
// about 1.7 s of CPU) and each keeps to contexts of its own, which share no cookies, storage, cache
// or service workers. Playwright stops it when the process ends.
let shared: Promise<Browser> | undefined;
const launch = () => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

export async function launchChromium(): Promise<ChromiumSession> {
  let browser = await (shared ??= launch());
  if (!browser.isConnected()) browser = await (shared = launch());
  const contexts: BrowserContext[] = [];
  const newContext = async (options?: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    contexts.push(context);
    return context;
  };
  return {
    newContext,
    newPage: async (options) => (await newContext(options)).newPage(),
    close: async () => {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
    },
  };
}
