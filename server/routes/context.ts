// What route handlers get from the app: the database, the clock, and the webhook URL policy.
import type { DatabaseSync } from 'node:sqlite';

/** Resolves to a reason when the URL is refused (400 url-not-allowed), undefined when allowed. */
export type WebhookUrlCheck = (url: string) => Promise<string | undefined>;

export interface RouteContext {
  db: DatabaseSync;
  now: () => Date;
  checkWebhookUrl: WebhookUrlCheck;
}
