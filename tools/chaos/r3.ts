// R3, blast radius (SidecarSet, the program with a pod webhook, docs/adr/0026): unselected pods are created one
// after the other with the SidecarSet program absent (the baseline), running, and hung (SIGSTOP: alive, its
// sockets open, answering nothing). A hung webhook the API server calls costs every create its timeout; a pod no
// SidecarSet selects must not pay it. A selected pod while the program hangs must fail safe: refused, never
// created without its sidecar.
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { fmt, nowMs, summarize } from '../bench/common.js';
import type { CheckResult } from './report.js';
import { deleteConfigurations } from './webhook-configs.js';
import type { Violation } from './checker.js';
import type { World } from './world.js';

/** An unselected create slower than this paid a webhook's timeout (the API server's default is 10 s). */
const BLOCKED_MS = 5000;
const ADMISSION = 'admissionregistration.k8s.io/v1';

const podOf = (ns: string, name: string, app: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app } },
    spec: { containers: [{ name: 'main', image: 'nginx:1.27.3' }] },
  }) as KubeObject;

/** Creates `k` pods one after the other; each create's duration, ms. */
async function createTimes(client: KubeClient, ns: string, prefix: string, k: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < k; i++) {
    const t = nowMs();
    await client.create(podOf(ns, `${prefix}-${i}`, 'unselected'));
    times.push(nowMs() - t);
  }
  return times;
}

async function podWebhookEntries(client: KubeClient): Promise<string[]> {
  const cfg = await client.getOrUndefined<KubeObject & { webhooks?: { name: string }[] }>({
    apiVersion: ADMISSION,
    kind: 'MutatingWebhookConfiguration',
    name: 'regatta-sidecarset-pods',
  });
  return cfg?.webhooks?.map((h) => h.name) ?? [];
}

export async function checkBlastRadius(w: World, o: { pods: number }): Promise<CheckResult> {
  const ns = 'chaos-r3';
  const k = o.pods;
  const violations: Violation[] = [];
  const notes: string[] = [];
  await w.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });

  // a few creates first, unmeasured: the first writes into a new namespace are slower, whatever runs
  await createTimes(w.client, ns, 'warm-up', 5);
  w.log(`R3: ${k} unselected pods with the SidecarSet program absent`);
  const absent = await createTimes(w.client, ns, 'absent', k);

  const program = w.program('sidecarset', { webhook: true });
  await program.start();
  await w.client.create({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name: 'chaos-r3' },
    spec: {
      selector: { matchLabels: { app: 'selected' } },
      containers: [{ name: 'agent', image: 'busybox', command: ['sleep', '999d'] }],
    },
  });
  const deadline = Date.now() + 120_000;
  while (!(await podWebhookEntries(w.client)).includes('chaos-r3.sidecarset.pods.regatta.kruise.io')) {
    if (Date.now() > deadline)
      throw new Error('R3: the SidecarSet pod webhook entry did not appear in 2 min');
    await sleep(500);
  }
  const injected = await w.client.create(podOf(ns, 'selected-running', 'selected'));
  const injectedNames =
    (injected as { spec?: { containers?: { name: string }[] } }).spec?.containers?.map((c) => c.name) ?? [];
  if (!injectedNames.includes('agent'))
    notes.push(`a selected pod with the program running got containers ${injectedNames.join(', ')}`);
  w.log(`R3: ${k} unselected pods with the program running`);
  const running = await createTimes(w.client, ns, 'running', k);

  program.pause();
  await sleep(500);
  w.log(`R3: ${k} unselected pods with the program hung (SIGSTOP)`);
  const hung = await createTimes(w.client, ns, 'hung', k);
  const t = nowMs();
  let selected: string;
  try {
    const p = await w.client.create(podOf(ns, 'selected-hung', 'selected'));
    const names =
      (p as { spec?: { containers?: { name: string }[] } }).spec?.containers?.map((c) => c.name) ?? [];
    selected = `created with ${names.join(', ')}`;
    if (!names.includes('agent'))
      violations.push({
        kind: 'status',
        at: w.now(),
        count: 1,
        detail: 'a selected pod was created without its sidecar while the program hung',
      });
  } catch (err) {
    selected = `refused in ${fmt((nowMs() - t) / 1000)} s`;
    void err;
  }
  program.resume();
  await program.stop();
  const slow = hung.filter((x) => x > BLOCKED_MS).length;
  if (slow > 0)
    violations.push({
      kind: 'unavailable',
      at: w.now(),
      count: slow,
      detail: `${slow}/${k} unselected creates took over ${BLOCKED_MS / 1000} s with the program hung`,
    });
  await w.client
    .delete({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', name: 'chaos-r3' })
    .catch(() => undefined);
  // its configurations (`regatta-sidecarset-pods` keeps a pod entry per SidecarSet, failurePolicy Fail): a dead
  // program's would refuse the next checks' writes
  await deleteConfigurations(w, 'sidecarset');
  await w.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns });
  const p = (xs: number[]) => {
    const s = summarize(xs);
    return `${fmt(s.p50)} ms / ${fmt(s.max)} ms`;
  };
  const ratio = summarize(hung).p50 / summarize(absent).p50;
  return {
    id: 'R3',
    title: 'blast radius (SidecarSet)',
    figures: [
      ['unselected creates, program absent (p50 / max)', p(absent)],
      ['… program running', p(running)],
      ['… program hung (SIGSTOP)', p(hung)],
      ['hung / absent, p50', `${fmt(ratio, 2)}×`],
      ['a selected pod, program hung', selected],
    ],
    violations,
    crashes: program.crashes.length,
    notes,
  };
}
