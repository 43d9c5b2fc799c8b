// Reading one setting's text: each parser names the setting in its ConfigError, so start-up says
// which variable or flag is wrong and what it accepts.

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export function parseLogLevel(value: string): string {
  if (LOG_LEVELS.includes(value)) return value;
  throw new ConfigError(`SECMON_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${value}'`);
}

export function parseInteger(name: string, value: string, min: number, max: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not '${value}'`);
  }
  return number;
}

export function parseBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ConfigError(`${name} must be 'true' or 'false', not '${value}'`);
}

export function parseNumber(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new ConfigError(`${name} must be a positive number, not '${value}'`);
  return number;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
