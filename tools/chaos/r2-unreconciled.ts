// R2's first half, after the wait: every accepted object must have been reconciled within RECONCILE_WAIT_MS of its
// acceptance (docs/reliability-checks.md). An object its controller refused on purpose counts as handled: the
// reconciler's guard leaves a stored object it cannot act on alone with a Warning `InvalidSpec` event naming a field
// path (docs/adr/0010; an Advanced StatefulSet with `replicas: 2147483647` is admitted and refused this way).
// Anything else left waiting is an `unreconciled` violation, no longer a note (issue 47).
import type { KubeObject } from '@regatta/kube';
import type { Violation } from './checker.js';
import { refusalOf } from './r2-stored.js';
import type { World } from './world.js';

/** A Warning event as listed, with the name of the object it is about. */
export interface NamedEvent {
  involvedObject?: { name?: string };
  type?: string;
  reason?: string;
  message?: string;
}

export interface UnreconciledVerdict {
  /** Refused by the controller's guard with an event naming a field: handled, listed in the notes. */
  refused: string[];
  /** Neither reconciled nor refused: each is the violation. */
  unreconciled: string[];
}

/** Splits the accepted objects not reconciled in time by what their events say. */
export function unreconciledVerdict(
  notReconciled: readonly string[],
  events: readonly NamedEvent[],
): UnreconciledVerdict {
  const byName = new Map<string, NamedEvent[]>();
  for (const e of events) {
    const name = e.involvedObject?.name ?? '';
    byName.set(name, [...(byName.get(name) ?? []), e]);
  }
  const refused: string[] = [];
  const unreconciled: string[] = [];
  for (const name of notReconciled)
    (refusalOf(byName.get(name) ?? []) === 'named' ? refused : unreconciled).push(name);
  return { refused, unreconciled };
}

/** `notReconciled` judged by the kind's Warning events (read before the namespace goes, and its events with it). */
export async function unreconciledOf(
  w: World,
  of: { kind: string; namespace: string | undefined },
  notReconciled: readonly string[],
): Promise<UnreconciledVerdict> {
  if (notReconciled.length === 0) return { refused: [], unreconciled: [] };
  const events = await w.client.list<KubeObject & NamedEvent>(
    { apiVersion: 'v1', kind: 'Event', ...(of.namespace ? { namespace: of.namespace } : {}) },
    { fieldSelector: `type=Warning,involvedObject.kind=${of.kind}` },
  );
  return unreconciledVerdict(notReconciled, events.items);
}

/** At most this many names in a violation's detail (the report stays readable at 10 000 objects). */
const NAMES_SHOWN = 20;

/** The violation for `unreconciled` (none when empty), at `at` on the caller's clock. */
export function unreconciledViolation(
  kind: string,
  unreconciled: readonly string[],
  waitSeconds: number,
  at: number,
): Violation | undefined {
  if (unreconciled.length === 0) return undefined;
  const shown = unreconciled.slice(0, NAMES_SHOWN).join(', ');
  const more = unreconciled.length > NAMES_SHOWN ? ` and ${unreconciled.length - NAMES_SHOWN} more` : '';
  return {
    kind: 'unreconciled',
    at,
    count: unreconciled.length,
    detail: `${unreconciled.length} accepted ${kind} objects neither reconciled (status.observedGeneration) nor refused with an InvalidSpec event naming a field within ${waitSeconds} s: ${shown}${more}`,
  };
}
