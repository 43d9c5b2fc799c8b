// Shrinking a failing sequence of the model-based check: the commands it ran, and the shortest
// sequence that still shows the same difference within a time budget.
import { type Cmd, ModelDifference } from './model-commands.ts';

/** The commands a failing sequence ran: fast-check wraps generated ones (`cmd`, `hasRan`); an opening is the plain list. */
export function ranCommands(sequence: Iterable<Cmd>): Cmd[] {
  const out: Cmd[] = [];
  for (const item of sequence) {
    const wrapped = item as Cmd & { cmd?: Cmd; hasRan?: boolean };
    if (wrapped.cmd === undefined) out.push(item);
    else if (wrapped.hasRan) out.push(wrapped.cmd);
  }
  return out;
}

export const ruleOf = (error: unknown) => (error instanceof ModelDifference ? error.differences[0]?.rule : undefined);

/** Drops each step whose absence still fails with the same rule; what is left is the shortest sequence found. */
export async function minimise(
  commands: Cmd[],
  error: unknown,
  run: (commands: Iterable<Cmd>) => Promise<void>,
  spent: () => boolean,
): Promise<{ commands: Cmd[]; error: unknown; dropped: number }> {
  let current = commands;
  let failure = error;
  for (let i = current.length - 1; i >= 0 && !spent(); i--) {
    const without = current.filter((_, j) => j !== i);
    const outcome = await run(without).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (outcome !== undefined && ruleOf(outcome) === ruleOf(error)) {
      current = without;
      failure = outcome;
    }
  }
  return { commands: current, error: failure, dropped: commands.length - current.length };
}
