// The exchanges a failure's replay needs, in the run's order: the failing check's own, the earlier
// ones that produced a value they send (a fixture another check created), and the creates that
// filled a list the check read.
import type { Exchange } from './http.ts';
import { producedBy } from './repro.ts';

/**
 * The exchanges a failure needs: the check's own (`own`), preceded by the earlier ones of the run
 * (`all`, in order) that produced a value they use (a fixture another check created), recursively.
 */
export function exchangesLeadingTo(all: readonly Exchange[], own: readonly Exchange[]): Exchange[] {
  const position = new Map(all.map((exchange, index) => [exchange, index]));
  const needed = new Set<Exchange>();
  const require = (exchange: Exchange) => {
    if (needed.has(exchange)) return;
    needed.add(exchange);
    const sent = requestText(exchange);
    const before = position.get(exchange) ?? all.length;
    for (let earlier = 0; earlier < before; earlier++) {
      if (producedBy(all[earlier]!, earlier).some((p) => sent.includes(p.value))) require(all[earlier]!);
    }
  };
  for (const exchange of own) require(exchange);
  for (const exchange of own) for (const create of createsListedBy(all, exchange)) require(create);
  const order = (exchange: Exchange) => position.get(exchange) ?? all.length + own.indexOf(exchange);
  return [...needed].sort((a, b) => order(a) - order(b));
}

/** Most items a list's page walk can need (the largest page). */
const MOST_LISTED = 100;

/** For a list (a GET on a collection), the run's earlier successful creates on it: what filled the list. */
function createsListedBy(all: readonly Exchange[], list: Exchange): Exchange[] {
  if (list.request.method !== 'GET') return [];
  const collection = new URL(list.request.url).pathname;
  const before = all.indexOf(list) < 0 ? all.length : all.indexOf(list);
  return all
    .slice(0, before)
    .filter((e) => e.request.method === 'POST' && new URL(e.request.url).pathname === collection && e.status >= 200 && e.status < 300)
    .slice(-MOST_LISTED);
}

const requestText = (exchange: Exchange) =>
  [exchange.request.url, ...Object.values(exchange.request.headers), exchange.request.body ?? ''].join('\n');
