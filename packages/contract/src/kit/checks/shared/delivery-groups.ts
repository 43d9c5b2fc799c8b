// Telling a delivery's retries from other deliveries: what the delivery check counts and the
// pipeline tests compare.
import type { Delivery } from '../../receiver.ts';
import { type Discrepancy, truncate } from '../../verify.ts';

export interface DeliveryGroup {
  /** The X-Service-Delivery value. */
  id: string;
  delivery: Delivery;
  /** How many more times the same delivery arrived (retries after a lost acknowledgement). */
  retries: number;
}

/**
 * Deliveries grouped by X-Service-Delivery. The document allows a retry with the same id and the
 * byte-identical body; one id carrying two different bodies is a violation.
 */
export function groupByDeliveryId(deliveries: Delivery[]): { groups: DeliveryGroup[]; violations: Discrepancy[] } {
  const groups = new Map<string, DeliveryGroup>();
  const violations: Discrepancy[] = [];
  for (const delivery of deliveries) {
    const id = String(delivery.headers['x-service-delivery']);
    const group = groups.get(id);
    if (!group) {
      groups.set(id, { id, delivery, retries: 0 });
    } else if (group.delivery.raw.equals(delivery.raw)) {
      group.retries++;
    } else {
      violations.push({
        aspect: 'expectation',
        message: `X-Service-Delivery ${id} came with two different bodies: a retry must resend the same bytes, and another event needs another id`,
        details: [truncate(group.delivery.raw.toString('utf8'), 300), truncate(delivery.raw.toString('utf8'), 300)],
      });
    }
  }
  return { groups: [...groups.values()], violations };
}
