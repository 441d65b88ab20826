import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMPONENT_VERSIONS,
  formatDuration,
  missingComponents,
  observeLine,
  renderProgress,
  startBuild,
  type BuildState,
} from './build-progress.js';

const T0 = 1_000_000;
const feed = (lines: string[], plan = ['nats', 'kubernetes'] as const): BuildState =>
  lines.reduce((s, l, i) => observeLine(s, l, T0 + (i + 1) * 1000), startBuild(plan, T0));

describe('build progress (tools/controlplane/build.sh lines)', () => {
  it.each([
    ['[controlplane 10:00:00] nats-server 2.14.5: resolving and compiling', 0, 'resolving and compiling'],
    ['go: downloading github.com/nats-io/jwt/v2 v2.8.0', 0, 'downloading github.com/nats-io/jwt/v2'],
    ['go: added golang.org/x/sys v0.40.0', 0, 'resolving modules'],
    ['[controlplane 10:01:00] nats-server: done in 55 s (20M)', 1, 'next'],
    ['[controlplane 10:00:00] nats 2.14.5: cached in /c/nats-2.14.5', 1, 'next'],
    [
      '[controlplane 10:01:00] kubernetes 1.36.3: compiling kube-apiserver (12 s so far)',
      1,
      'compiling kube-apiserver',
    ],
    ['something else entirely', 0, 'starting'],
  ])('%s → component %i, step %s', (line, current, step) => {
    const s = observeLine(startBuild(['nats', 'kubernetes'], T0), line, T0 + 1000);
    expect(s.current).toBe(current);
    expect(s.step).toBe(step);
  });

  it('moves on with every line and second, and says what is left from the measured durations', () => {
    const s = feed([
      '[controlplane 10:00:00] nats-server 2.14.5: resolving and compiling',
      '[controlplane 10:01:00] nats-server: done in 55 s (20M)',
      '[controlplane 10:01:00] kubernetes 1.36.3: compiling kube-apiserver (12 s so far)',
    ]);
    const line = renderProgress(s, T0 + 63_000);
    expect(line).toMatch(
      new RegExp(
        `^. building kubernetes ${COMPONENT_VERSIONS.kubernetes} \\(2/2\\): compiling kube-apiserver · 1m03s · about 11m59s left$`,
      ),
    );
    expect(renderProgress(s, T0 + 63_250)).not.toBe(line); // the spinner turns even when no line comes
    expect(renderProgress(s, T0 + 3_000_000)).toMatch(/about 1m00s left$/); // never claims to be done early
  });

  it('reports the total when all are built', () => {
    const s = feed([
      '[controlplane 10:01:00] nats-server: done in 55 s (20M)',
      '[controlplane 10:01:00] kubernetes: done in 700 s (300M)',
    ]);
    expect(renderProgress(s, T0 + 754_000)).toBe('built nats, kubernetes in 12m34s');
  });

  it.each([
    [5, '5s'],
    [65, '1m05s'],
    [3725, '1h02m'],
  ])('formats %i s as %s', (s, text) => expect(formatDuration(s)).toBe(text));

  it('lists the components whose cache folder is not complete', () => {
    const cache = mkdtempSync(join(tmpdir(), 'regatta-cache-'));
    try {
      mkdirSync(join(cache, `nats-${COMPONENT_VERSIONS.nats}`));
      writeFileSync(join(cache, `nats-${COMPONENT_VERSIONS.nats}`, '.complete'), 'x');
      mkdirSync(join(cache, `etcd-${COMPONENT_VERSIONS.etcd}`)); // a build that stopped half-way
      expect(missingComponents(cache)).toEqual(['etcd', 'kubernetes', 'jaeger']);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
