// The chart pushed as an OCI artifact to a registry (crane's, as the sandbox runs it) and read back by helm.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHART_DIR,
  freePort,
  locateHelm,
  nodeBinaries,
  ManagedProcess,
  waitFor,
} from '@regatta/local-cluster';
import { chartPushArgs, chartRef, packageChart } from './chart.js';

function helmOrUndefined(): string | undefined {
  try {
    return locateHelm();
  } catch {
    return undefined;
  }
}
const helm = helmOrUndefined();
const crane = nodeBinaries().crane;
const skip = !helm
  ? 'helm not built (npm run helm:build)'
  : !existsSync(crane)
    ? 'crane not built'
    : undefined;
if (skip) process.stderr.write(`[release] chart.test.ts skipped: ${skip}\n`);

describe('chartPushArgs', () => {
  it('pushes to oci://<registry>/charts, over plain HTTP to a local registry', () => {
    expect(chartPushArgs('/d/regatta-0.1.0.tgz', '127.0.0.1:5000')).toEqual([
      'push',
      '/d/regatta-0.1.0.tgz',
      'oci://127.0.0.1:5000/charts',
      '--plain-http',
    ]);
    expect(chartPushArgs('x.tgz', 'ghcr.io', 'regatta/charts')).toEqual([
      'push',
      'x.tgz',
      'oci://ghcr.io/regatta/charts',
    ]);
    expect(chartRef('127.0.0.1:5000', 'regatta')).toBe('oci://127.0.0.1:5000/charts/regatta');
  });
});

describe.skipIf(skip !== undefined)('the chart as an OCI artifact', () => {
  const work = mkdtempSync(join(tmpdir(), 'regatta-chart-oci-'));
  let registry: ManagedProcess | undefined;
  afterAll(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('is packaged, pushed to a registry and rendered from there', async () => {
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    registry = ManagedProcess.start({
      name: 'registry',
      command: crane,
      args: ['registry', 'serve', '--address', address],
      logFile: join(work, 'registry.log'),
    });
    await waitFor(
      'the registry',
      async () => (await fetch(`http://${address}/v2/`).catch(() => undefined))?.status === 200,
      {
        timeoutMs: 15_000,
        intervalMs: 100,
      },
    );
    const tgz = packageChart(helm!, CHART_DIR, join(work, 'charts'));
    expect(tgz).toMatch(/regatta-\d+\.\d+\.\d+\.tgz$/);
    const pushed = execFileSync(helm!, chartPushArgs(tgz, address), { encoding: 'utf8', stdio: 'pipe' });
    expect(pushed).toContain('Digest: sha256:');
    const ref = chartRef(address, 'regatta');
    const chart = execFileSync(helm!, ['show', 'chart', ref, '--plain-http'], { encoding: 'utf8' });
    expect(chart).toContain('name: regatta');
    // the CRDs came along (the symlink files/crds is resolved by helm package)
    const rendered = execFileSync(
      helm!,
      ['template', 'r', ref, '--plain-http', '--set', 'bus.url=nats://nats:4222'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    expect(rendered).toContain('name: clonesets.apps.kruise.io');
    expect(rendered).toContain('image: ghcr.io/regatta/regatta-cloneset:');
  }, 120_000);
});
