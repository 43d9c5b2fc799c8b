// What a run of the kit is told: the target and its keys, the profile, and how to generate, pace,
// listen and judge (most of the CLI's flags set one of these).
import type { OpenApiDocument } from 'secmon-api/src/document';

export type Profile = 'stateful' | 'stateless';

export interface KitOptions {
  baseUrl: string;
  apiKey: string;
  readKey?: string;
  profile: Profile;
  /** Seed of every generated case, so a failing run can be repeated exactly. */
  seed?: number;
  /** Generated valid and invalid cases per operation. */
  cases?: number;
  /** The rate-limit probe runs only when the key's quota (RateLimit-Policy q) is at most this. */
  rateProbeMaxQuota?: number;
  /** How long to wait for webhook deliveries. */
  eventTimeoutMs?: number;
  /** The document to test against; the bundle by default (tests inject variants). */
  document?: OpenApiDocument;
  /**
   * `skip`: event checks are reported as skipped (a target that cannot reach the kit's receiver),
   * and webhooks the kit creates point at an address that never resolves.
   */
  events?: 'check' | 'skip';
  /** Event types declared out of scope (`--events skip:<types>`): not raised, reported as skipped. */
  eventsOutOfScope?: string[];
  /** Raises the events no operation causes another way than the simulator (`--trigger-command`, see raise.ts). */
  triggerCommand?: string;
  /** The receiver's URL as the target reaches it (a tunnel or CI service in front of `receiverListen`). */
  receiverUrl?: string;
  /** Where the receiver listens: `host:port` (default 127.0.0.1 on a free port). */
  receiverListen?: { host: string; port: number };
  /** Told whenever the kit waits for the target's rate limit. */
  onWait?: (ms: number, why: string) => void;
  /** Accept fields and enum values newer than the document in responses and events (`--allow-newer-fields`). */
  allowNewerFields?: boolean;
  /** An origin the target allows for browsers (the CORS check; without it a localhost origin is tried). */
  corsOrigin?: string;
  /** Why the first retry's wait and a Retry-After are not judged (the target compresses its retry schedule). */
  skipRetryTiming?: string;
}

/** The cases a check generates per operation unless told otherwise. */
export const DEFAULT_CASES = 24;

/**
 * The largest quota the 429 probe uses up unless told otherwise: a few hundred requests on a shared
 * target; on this machine's loopback (a development server), where it costs nobody else, a quota a
 * local server exhausts in seconds (the reference server's development quota is 10,000).
 */
export function defaultRateProbeMax(baseUrl: string): number {
  const host = URL.canParse(baseUrl) ? new URL(baseUrl).hostname : '';
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host) ? 20_000 : 300;
}
