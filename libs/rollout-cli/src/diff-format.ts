/** The text `regatta diff` prints: a headline, one row per pod, the totals and the fields that force a recreate. */
import type { DiffPlan, PodDiff } from './diff.js';
import { formatTable as table } from './table.js';

function detail(p: PodDiff): string {
  const parts: string[] = [];
  if (p.images.length > 0) parts.push(p.images.map((i) => `${i.container}: ${i.from} → ${i.to}`).join(', '));
  if (p.resize.length > 0)
    parts.push(
      `resize in place: ${p.resize.map((r) => `${r.container} ${r.resource} ${r.from || '<none>'} → ${r.to}`).join(', ')}`,
    );
  if (p.metadata) parts.push('labels/annotations');
  if (p.fields.length > 0) parts.push(`changes ${p.fields.join(', ')}`);
  if (p.reason && (p.action !== 'recreate' || p.fields.length === 0)) parts.push(p.reason);
  return parts.join('; ');
}

export function formatDiff(title: string, name: string, plan: DiffPlan): string {
  const unit = plan.kind === 'DaemonSet' ? 'nodes' : 'pods';
  const lines = [
    `${title} ${JSON.stringify(name)}: ` +
      (plan.templateChanged
        ? `template changes (${plan.targetRevision ? `back to revision ${plan.targetRevision}` : 'a new revision'})`
        : 'template unchanged') +
      `; strategy ${plan.strategy}, partition ${plan.partition} ${unit}`,
  ];
  if (plan.pods.length === 0) {
    lines.push('no pods');
  } else {
    lines.push(
      table([
        ['POD', 'NODE', 'REVISION', 'ACTION', 'DETAIL'],
        ...plan.pods.map((p) => [p.name, p.node || '<none>', p.revision || '<none>', p.action, detail(p)]),
      ]),
    );
  }
  const count = (a: PodDiff['action']) => plan.pods.filter((p) => p.action === a).length;
  const totals = [
    `${count('in place')} in place`,
    `${count('recreate')} recreated`,
    `${count('kept')} kept by the partition`,
    `${count('unchanged')} unchanged`,
  ];
  if (count('on delete') > 0) totals.push(`${count('on delete')} on delete`);
  if (count('blocked') > 0) totals.push(`${count('blocked')} blocked (cannot update in place)`);
  lines.push(totals.join(', '));
  if (plan.recreateFields.length > 0)
    lines.push(`fields that force a recreate: ${plan.recreateFields.join(', ')}`);
  return lines.join('\n');
}
