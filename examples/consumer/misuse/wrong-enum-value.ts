// A severity the contract does not list.
import type { components } from 'secmon-api/types';

export const body: components['schemas']['FindingCreate'] = {
  title: 'SSH root login enabled',
  severity: 'urgent', // error: urgent
  device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2',
};
