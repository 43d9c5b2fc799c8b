// What a create or a full replacement turns a webhook into: defaults, the secret change (with
// rotation), which secrets sign a delivery, and the rule for the service's `disabled_reason`. Pure
// functions; the store persists their results.
import type { components } from '../../../../generated/schema.d.ts';

type Webhook = components['schemas']['Webhook'];
type WebhookCreate = components['schemas']['WebhookCreate'];
type WebhookUpdate = components['schemas']['WebhookUpdate'];

/**
 * A PUT that replaces a webhook's secret keeps the one it replaced valid this long (deliveries
 * carry a signature for each), so a receiver can deploy the new secret without refusing a
 * delivery. A second replacement within the overlap ends the first one's (at most two secrets are
 * valid at once). Removing the secret (`null`) stops signing at once and forgets the previous
 * secret too; re-sending the current secret changes nothing.
 */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A new webhook as stored: its public fields and its secret; no delivery yet, no service reason. */
export interface NewWebhook extends Omit<Webhook, 'has_secret' | 'disabled_reason' | 'last_delivery'> {
  secret: string | null;
}

/**
 * A full replacement, except the secret: omitted (`keep`) keeps it, null removes it, a string
 * replaces it; a replaced secret stays valid until `previousUntil` (epoch ms). The store applies
 * the change to the row's secrets, which the API never shows, with rotatedSecrets.
 */
export interface WebhookReplacement extends Omit<Webhook, 'has_secret' | 'last_delivery' | 'created_at'> {
  secret: { keep: boolean; secret: string | null; previousUntil: number };
}

export function newWebhook(id: string, input: WebhookCreate, now: string): NewWebhook {
  return {
    id,
    url: input.url,
    events: input.events,
    secret: input.secret ?? null,
    description: input.description ?? '',
    enabled: input.enabled !== false,
    created_at: now,
    updated_at: now,
  };
}

/** Enabling clears the service's `disabled_reason`; disabling keeps a reason the service set. */
export function replacedWebhook(current: Webhook, input: WebhookUpdate, now: string): WebhookReplacement {
  const enabled = input.enabled !== false;
  return {
    id: current.id,
    url: input.url,
    events: input.events,
    description: input.description ?? '',
    enabled,
    disabled_reason: enabled || current.enabled ? null : current.disabled_reason,
    updated_at: now,
    secret: { keep: input.secret === undefined, secret: input.secret ?? null, previousUntil: Date.parse(now) + SECRET_OVERLAP_MS },
  };
}

/** The secrets a webhook's row holds; only the store and the delivery engine see them. */
export interface StoredSecrets {
  secret: string | null;
  previousSecret: string | null;
  /** Epoch ms until which `previousSecret` still signs. */
  previousSecretExpiresAt: number | null;
}

/** The row's secrets after a replacement's secret change (see SECRET_OVERLAP_MS). */
export function rotatedSecrets(current: StoredSecrets, change: WebhookReplacement['secret']): StoredSecrets {
  if (change.keep) return current;
  if (change.secret === null) return { secret: null, previousSecret: null, previousSecretExpiresAt: null };
  if (current.secret === null || current.secret === change.secret) return { ...current, secret: change.secret };
  return { secret: change.secret, previousSecret: current.secret, previousSecretExpiresAt: change.previousUntil };
}

/** The secrets that sign a delivery attempted at `now` (epoch ms): the current one, and the one it replaced while that is valid. */
export function signingSecrets(stored: StoredSecrets, now: number): { secret: string | null; previousSecret: string | null } {
  const valid = stored.secret !== null && stored.previousSecret !== stored.secret && (stored.previousSecretExpiresAt ?? 0) > now;
  return { secret: stored.secret, previousSecret: valid ? stored.previousSecret : null };
}
