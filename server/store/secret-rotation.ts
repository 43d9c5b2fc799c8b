// Secret rotation's SQL, one rule for both stores (server/domain/webhooks.ts decides the change):
// the secret a PUT replaced keeps signing deliveries beside the new one until its expiry.
/**
 * The SET assignments of the secret columns, in SQL both engines read alike; `param` names the
 * placeholders of WebhookReplacement['secret']'s fields. Every right-hand side reads the row as it was.
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
export const validPreviousSecret = (now: string) =>
  `CASE WHEN w.previous_secret_expires_at > ${now} THEN w.previous_secret END AS previous_secret`;
