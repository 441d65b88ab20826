import { describe, expect, it } from 'vitest';
import { appEntries, baseEntries, etcFiles, parseLdd, runConfig } from './image.js';

describe('parseLdd', () => {
  it('keeps resolved libraries and the interpreter, drops the vdso, reports what is not found', () => {
    const out = [
      '\tlinux-vdso.so.1 (0x00007ffd)',
      '\tlibdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f)',
      '\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x00007f)',
      '\tlibfoo.so.1 => not found',
      '\t/lib64/ld-linux-x86-64.so.2 (0x00007f)',
      '',
    ].join('\n');
    expect(parseLdd(out)).toEqual({
      libraries: [
        '/lib/x86_64-linux-gnu/libdl.so.2',
        '/lib/x86_64-linux-gnu/libstdc++.so.6',
        '/lib64/ld-linux-x86-64.so.2',
      ],
      missing: ['libfoo.so.1'],
    });
  });
});

describe('image contents', () => {
  it('puts Node, the libraries at their paths, /etc and a sticky /tmp in the base', () => {
    const libs = new Map([['/lib64/ld.so', new Uint8Array([1])]]);
    const entries = baseEntries(new Uint8Array([2]), libs);
    expect(entries.map((e) => `${e.type}:${e.path}`).sort()).toEqual([
      'dir:tmp',
      'file:etc/group',
      'file:etc/nsswitch.conf',
      'file:etc/passwd',
      'file:lib64/ld.so',
      'file:usr/local/bin/node',
    ]);
    const passwd = etcFiles().find((e) => e.path === 'etc/passwd');
    expect(passwd?.type === 'file' && Buffer.from(passwd.data).toString()).toContain('nonroot:x:65532:65532');
    expect(etcFiles().find((e) => e.path === 'tmp')).toEqual({ type: 'dir', path: 'tmp', mode: 0o1777 });
  });

  it('puts the bundle under /app, read-only', () => {
    expect(appEntries(new Map([['main.mjs', new Uint8Array([1])]]))).toEqual([
      { type: 'file', path: 'app/main.mjs', mode: 0o644, data: new Uint8Array([1]) },
    ]);
  });

  it("runs as the Dockerfile says: Node's flags, the bundle, a numeric non-root user", () => {
    const c = runConfig({ app: 'cloneset', version: '0.1.0' });
    expect(c.User).toBe('65532:65532');
    expect(c.Entrypoint).toEqual([
      '/usr/local/bin/node',
      '--max-semi-space-size=4',
      '--heap-growing-percent=30',
      '/app/main.mjs',
    ]);
    expect(c.Env).toContain('MALLOC_ARENA_MAX=2');
    expect(c.Labels?.['org.opencontainers.image.version']).toBe('0.1.0');
  });
});
