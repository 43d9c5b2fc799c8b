// A list walk judged against the model: every item matches the filters asked for, the order is
// newest first by created_at, no item comes twice, and every resource of the kit's that matches
// (and sorts before where the walk stopped) is there, as the model expects it. Other clients'
// items are judged only by what holds for every item.
import type { RuleId } from '../rules/catalogue.ts';
import type { Json } from './facts.ts';
import { canonical, type Difference, fieldDifferences, knownOf, type ModelState } from './state.ts';

/** Whether an item matches a list filter (`event` filters a webhook by one of its event types). */
function matches(item: Json, name: string, value: string): boolean {
  const field = item[name];
  if (Array.isArray(field)) return field.includes(value);
  if (typeof field === 'boolean') return String(field) === value;
  return field === value;
}

export function judgeWalk(
  state: ModelState,
  resource: string,
  filters: Record<string, string>,
  items: Json[],
  complete: boolean,
  rules: { order: RuleId; filter: RuleId },
): Difference[] {
  const out: Difference[] = [];
  const field = (name: string) => (name === 'event' ? 'events' : name);
  for (const item of items) {
    const missed = Object.entries(filters).find(([name, value]) => !matches(item, field(name), value));
    if (missed)
      out.push({
        rule: rules.filter,
        message: `${String(item.id)} has ${missed[0]} ${JSON.stringify(item[field(missed[0])])}, asked for ${missed[1]}`,
      });
  }
  for (let i = 1; i < items.length; i++) {
    if (String(items[i]!.created_at) > String(items[i - 1]!.created_at))
      out.push({
        rule: rules.order,
        message: `${String(items[i]!.id)} (created ${String(items[i]!.created_at)}) comes after the older ${String(items[i - 1]!.id)}`,
      });
  }
  const ids = items.map((item) => String(item.id));
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (twice.length > 0) out.push({ rule: rules.order, message: `the walk saw ${twice.join(', ')} twice` });
  const last = items.at(-1)?.created_at;
  for (const known of knownOf(state, resource)) {
    const item = items.find((candidate) => candidate.id === known.id);
    const wanted = Object.entries(filters).every(([name, value]) => matches(known.expected, field(name), value));
    if (item && !wanted) continue; // reported above as a filter miss
    if (item) {
      const wrong = fieldDifferences(known.expected, item);
      if (wrong.length > 0) out.push({ rule: rules.order, message: `the listed ${known.id} differs from the item: ${wrong.join('; ')}` });
      continue;
    }
    const created = String(known.expected.created_at);
    if (wanted && (complete || (last !== undefined && created > String(last))))
      out.push({ rule: rules.order, message: `${known.id} matches ${canonical(filters)} but the walk skipped it` });
  }
  return out;
}
