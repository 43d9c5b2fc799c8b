// Realistic bodies for each event type, for the development simulator. Device and scan events
// have no API resource, so the simulator is the only way to make the server send them.
import type { EventOf, EventType, WebhookEvent } from '../../packages/api/src/events.ts';
import { digests } from '../platform.ts';

const TITLES = [
  'SSH root login enabled',
  'Disk encryption disabled',
  'Outdated OpenSSL 1.1.1 package',
  'Firewall allows inbound SMB',
  'Screen lock timeout over 15 minutes',
] as const;
const HOSTS = ['web-01.prod.example.com', 'build-agent-7', 'laptop-ana', 'db-primary.internal.example.com', 'kiosk-lobby-2'] as const;
const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
const PLATFORMS = ['linux', 'windows', 'macos', 'ios', 'android'] as const;

type Samplers = { [T in EventType]: (at: string, ms: number, pick: <V>(values: readonly V[]) => V) => EventOf<T> };

const SAMPLERS: Samplers = {
  'finding.created': (at, ms, pick) => ({
    event: 'finding.created',
    timestamp: at,
    data: {
      finding_id: digests.newId('fnd', ms),
      severity: pick(SEVERITIES),
      title: pick(TITLES),
      device_id: digests.newId('dev', ms),
      policy_id: digests.newId('pol', ms),
    },
  }),
  'finding.resolved': (at, ms, pick) => ({
    event: 'finding.resolved',
    timestamp: at,
    data: {
      finding_id: digests.newId('fnd', ms),
      severity: pick(SEVERITIES),
      title: pick(TITLES),
      device_id: digests.newId('dev', ms),
      policy_id: digests.newId('pol', ms),
      resolution_reason: pick(['fixed', 'no_longer_detected', 'duplicate'] as const),
      resolved_at: at,
    },
  }),
  'compliance.changed': (at, ms, pick) => {
    const previous = pick(['compliant', 'non_compliant'] as const);
    return {
      event: 'compliance.changed',
      timestamp: at,
      data: {
        policy_id: digests.newId('pol', ms),
        previous_status: previous,
        current_status: previous === 'compliant' ? 'non_compliant' : 'compliant',
        finding_id: digests.newId('fnd', ms),
        changed_at: at,
      },
    };
  },
  'device.connected': (at, ms, pick) => ({
    event: 'device.connected',
    timestamp: at,
    data: {
      device_id: digests.newId('dev', ms),
      hostname: pick(HOSTS),
      platform: pick(PLATFORMS),
      ip_address: `203.0.113.${1 + Math.floor(Math.random() * 254)}`,
      connected_at: at,
    },
  }),
  'device.disconnected': (at, ms, pick) => ({
    event: 'device.disconnected',
    timestamp: at,
    data: {
      device_id: digests.newId('dev', ms),
      hostname: pick(HOSTS),
      reason: pick(['shutdown', 'heartbeat_timeout', 'agent_uninstalled', 'unknown'] as const),
      disconnected_at: at,
    },
  }),
  'scan.completed': (at, ms, pick) => ({
    event: 'scan.completed',
    timestamp: at,
    data: {
      scan_id: digests.newId('scn', ms),
      device_id: digests.newId('dev', ms),
      outcome: pick(['succeeded', 'succeeded', 'partial', 'failed'] as const),
      started_at: new Date(ms - 90_000 - Math.floor(Math.random() * 600_000)).toISOString(),
      completed_at: at,
      new_findings: { info: pick([0, 1, 4]), low: pick([0, 2]), medium: pick([0, 1, 3]), high: pick([0, 1]), critical: pick([0, 0, 1]) },
    },
  }),
};

/** A plausible body of `type` at `now`; the caller validates it after applying any overrides. */
export function sampleEvent(type: EventType, now: Date = new Date()): WebhookEvent {
  const pick = <V>(values: readonly V[]): V => values[Math.floor(Math.random() * values.length)]!;
  return SAMPLERS[type](now.toISOString(), now.getTime(), pick);
}

/**
 * Deep-merges `overrides` over `base`: objects merge key by key, anything else replaces. The
 * result is untyped on purpose: it must be validated against the event schema before use.
 */
export function mergeOverrides(base: unknown, overrides: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(overrides)) return overrides === undefined ? base : overrides;
  // fromEntries defines own properties, so a "__proto__" key stays data (and fails validation).
  const keys = new Set([...Object.keys(base), ...Object.keys(overrides)]);
  return Object.fromEntries(
    [...keys].map((key) => [key, Object.hasOwn(overrides, key) ? mergeOverrides(ownValue(base, key), overrides[key]) : base[key]]),
  );
}

const ownValue = (object: Record<string, unknown>, key: string) => (Object.hasOwn(object, key) ? object[key] : undefined);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
