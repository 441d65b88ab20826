import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundles } from '../deploy/bundle.js';
import { cliFile } from './cli.js';

const bundle = [
  "import { argv } from 'node:process';",
  'console.log(process.env.REGATTA_INVOKED_AS, argv.length > 0);',
  '/*! For license information please see main.mjs.LEGAL.txt */',
  '//# sourceMappingURL=main.mjs.map',
  '',
].join('\n');

describe('cliFile', () => {
  it('starts with a shebang, inlines the licences, drops the map reference', () => {
    const text = cliFile(bundle, 'MIT: a */ b\n', '1.2.3');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(text).not.toContain('sourceMappingURL');
    expect(text).not.toContain('LEGAL.txt');
    expect(text).toContain('MIT: a * / b');
  });

  it('runs alone, extensionless, and knows the name it was called by', () => {
    const dir = mkdtempSync(join(tmpdir(), 'regatta-cli-test-'));
    try {
      const file = join(dir, 'regatta');
      writeFileSync(file, cliFile(bundle, 'MIT\n', '1.2.3'));
      chmodSync(file, 0o755);
      symlinkSync(file, join(dir, 'kubectl-regatta'));
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${join(process.execPath, '..')}:${process.env['PATH'] ?? ''}`,
      };
      delete env['REGATTA_INVOKED_AS'];
      expect(execFileSync(file, { encoding: 'utf8', env }).trim()).toBe('regatta true');
      expect(execFileSync(join(dir, 'kubectl-regatta'), { encoding: 'utf8', env }).trim()).toBe(
        'kubectl-regatta true',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the real CLI runs from its one file, with no checkout around it', () => {
    const bundles = buildBundles(['sandbox']);
    const dir = mkdtempSync(join(tmpdir(), 'regatta-cli-alone-'));
    try {
      const file = join(dir, 'regatta');
      const b = join(bundles, 'sandbox');
      writeFileSync(
        file,
        cliFile(
          readFileSync(join(b, 'main.mjs'), 'utf8'),
          readFileSync(join(b, 'main.mjs.LEGAL.txt'), 'utf8'),
          '1.2.3',
        ),
      );
      chmodSync(file, 0o755);
      symlinkSync(file, join(dir, 'kubectl-regatta'));
      const env: NodeJS.ProcessEnv = { PATH: `${join(process.execPath, '..')}:/usr/bin:/bin`, HOME: dir };
      expect(execFileSync(file, ['--help'], { encoding: 'utf8', env, cwd: dir })).toContain('rollout');
      expect(
        execFileSync(join(dir, 'kubectl-regatta'), ['rollout', '--help'], {
          encoding: 'utf8',
          env,
          cwd: dir,
        }),
      ).toContain('Usage: kubectl regatta rollout');
      expect(execFileSync(file, ['version'], { encoding: 'utf8', env, cwd: dir })).toMatch(
        /^regatta 1\.2\.3 /,
      );
      expect(execFileSync(file, ['completion', 'bash'], { encoding: 'utf8', env, cwd: dir })).toContain(
        'complete -F _regatta regatta kubectl-regatta',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(bundles, { recursive: true, force: true });
    }
  }, 120_000);
});
