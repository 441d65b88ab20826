import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { krewArchive, krewManifest } from './krew.js';

const cli = new Uint8Array(Buffer.from('#!/usr/bin/env node\nconsole.log(1)\n'));

describe('krew', () => {
  it('archives the CLI as an executable kubectl-regatta, the same bytes every time', () => {
    const a = krewArchive(cli);
    expect(krewArchive(cli).equals(a)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'regatta-krew-test-'));
    try {
      writeFileSync(join(dir, 'p.tar.gz'), a);
      expect(execFileSync('tar', ['-tvzf', join(dir, 'p.tar.gz')], { encoding: 'utf8' })).toMatch(
        /^-rwxr-xr-x .* kubectl-regatta\n$/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the archive by URI and sha256 in a krew Plugin manifest', () => {
    const archive = krewArchive(cli);
    const m = parse(krewManifest({ version: '0.1.0', uri: 'https://x/regatta.tar.gz', archive })) as {
      kind: string;
      metadata: { name: string };
      spec: { version: string; platforms: { uri: string; sha256: string; bin: string }[] };
    };
    expect(m.kind).toBe('Plugin');
    expect(m.metadata.name).toBe('regatta');
    expect(m.spec.version).toBe('v0.1.0');
    expect(m.spec.platforms[0]).toMatchObject({
      uri: 'https://x/regatta.tar.gz',
      sha256: createHash('sha256').update(archive).digest('hex'),
      bin: 'kubectl-regatta',
    });
  });
});
