import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, DEFAULT_ALLOW_LIST, MirrorConfigError, parseAllowList, readMirrorConfig } from './catalogue.js';

describe('allow-list', () => {
  it('names only catalogue resources, and gives Secrets to resourcedistribution alone', () => {
    for (const [controller, ids] of DEFAULT_ALLOW_LIST) {
      for (const id of ids) expect(CATALOGUE.has(id), `${controller}: ${id}`).toBe(true);
      expect(ids.has('secrets.v1')).toBe(controller === 'resourcedistribution');
    }
    expect([...DEFAULT_ALLOW_LIST.get('cloneset')!].sort()).toEqual([
      'clonesets.v1alpha1.apps.kruise.io',
      'controllerrevisions.v1.apps',
      'imagepulljobs.v1beta1.apps.kruise.io',
      'namespaces.v1',
      'persistentvolumeclaims.v1',
      'pods.v1',
    ]);
  });

  it('REGATTA_MIRROR_ALLOW adds or replaces entries', () => {
    const allow = parseAllowList(' test-controller=configmaps.v1 ; cloneset=pods.v1,namespaces.v1');
    expect([...allow.get('test-controller')!]).toEqual(['configmaps.v1']);
    expect([...allow.get('cloneset')!]).toEqual(['pods.v1', 'namespaces.v1']);
    expect(allow.get('resourcedistribution')).toBeDefined();
  });

  it.each(['cloneset', 'x=widgets.v1', 'Bad=pods.v1', '=pods.v1'])('refuses %s', (v) => {
    expect(() => parseAllowList(v)).toThrow(MirrorConfigError);
  });
});

describe('readMirrorConfig', () => {
  it('reads the Secret hash key from the environment or a file, and refuses a short one', () => {
    const key = 'k'.repeat(32);
    expect(readMirrorConfig({ REGATTA_SECRET_HASH_KEY: key }).secretHashKey).toBe(key);
    const file = join(mkdtempSync(join(tmpdir(), 'regatta-key-')), 'key');
    writeFileSync(file, `${key}\n`);
    expect(readMirrorConfig({ REGATTA_SECRET_HASH_KEY_FILE: file }).secretHashKey).toBe(key);
    expect(readMirrorConfig({}).secretHashKey).toBeUndefined();
    expect(() => readMirrorConfig({ REGATTA_SECRET_HASH_KEY: 'short' })).toThrow(/at least 32/);
  });
});
