// Verifying with a secret read from an environment variable that may be unset.
import { verifySignature } from 'secmon-api/webhooks';

export function verified(raw: Uint8Array, signature: string | undefined): boolean {
  return verifySignature(raw, signature, process.env.SECMON_WEBHOOK_SECRET); // error: string | undefined
}
