// What route handlers get from the app: the store, the clock, and the webhook URL policy.
import type { Store } from '../store/store.ts';

/** Resolves to a reason when the URL is refused (400 url-not-allowed), undefined when allowed. */
export type WebhookUrlCheck = (url: string) => Promise<string | undefined>;

export interface RouteContext {
  store: Store;
  now: () => Date;
  checkWebhookUrl: WebhookUrlCheck;
}
