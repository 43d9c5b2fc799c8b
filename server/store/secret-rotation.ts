// Secret rotation, one rule for both stores: a PUT that replaces a webhook's secret keeps the one
// it replaced valid for SECRET_OVERLAP_MS (deliveries carry a signature for each), so a receiver
// can deploy the new secret without refusing a delivery. A second replacement within the overlap
// ends the first one's (at most two secrets are valid at once). Removing the secret (`null`) stops
// signing at once and forgets the previous secret too; re-sending the current secret changes nothing.
import type { components } from '../../generated/schema.d.ts';

export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The PUT's `secret` as the SET clause's parameters. */
export function secretChange(secret: components['schemas']['WebhookUpdate']['secret'], now: string): { keep: boolean; secret: string | null; previousUntil: number } {
  return { keep: secret === undefined, secret: secret ?? null, previousUntil: Date.parse(now) + SECRET_OVERLAP_MS };
}

/**
 * The SET assignments of the secret columns, in SQL both engines read alike; `param` names the
 * placeholders of secretChange's fields. Every right-hand side reads the row as it was.
 */
export function secretAssignments(param: (name: 'keep' | 'secret' | 'previousUntil') => string): string {
  const [keep, secret, until] = [param('keep'), param('secret'), param('previousUntil')];
  const replaced = `secret IS NOT NULL AND ${secret} IS NOT NULL AND secret <> ${secret}`;
  return `secret = CASE WHEN ${keep} THEN secret ELSE ${secret} END,
       previous_secret = CASE WHEN ${keep} THEN previous_secret WHEN ${secret} IS NULL THEN NULL WHEN ${replaced} THEN secret ELSE previous_secret END,
       previous_secret_expires_at = CASE WHEN ${keep} THEN previous_secret_expires_at WHEN ${secret} IS NULL THEN NULL
         WHEN ${replaced} THEN ${until} ELSE previous_secret_expires_at END`;
}

/** The claim's select expression: the previous secret while it is valid at `now` (epoch ms), else NULL. */
export const validPreviousSecret = (now: string) => `CASE WHEN w.previous_secret_expires_at > ${now} THEN w.previous_secret END AS previous_secret`;
