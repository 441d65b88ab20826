import { describe, expect, it } from 'vitest';
import { DAEMONSET_FEATURE_GATES } from '@regatta/ads';
import { ASTS_FEATURE_GATES } from '@regatta/asts';
import { CLONESET_FEATURE_GATES } from '@regatta/cloneset';
import { DELETION_PROTECTION_FEATURE_GATES } from '@regatta/deletionprotection';
import { IMAGEPULL_FEATURE_GATES } from '@regatta/imagepull';
import { ADVANCED_CRON_JOB_FEATURE_GATES } from '@regatta/advancedcronjob';
import { RESOURCE_DISTRIBUTION_FEATURE_GATES } from '@regatta/resourcedistribution';
import { SIDECARSET_FEATURE_GATES } from '@regatta/sidecarset';
import { UNITED_DEPLOYMENT_FEATURE_GATES } from '@regatta/uniteddeployment';
import { OPENKRUISE_FEATURE_GATES } from '@regatta/runtime';
import { allOn, featureGatesValue, KNOWN_FAILURES, NOT_APPLICABLE, SPEC_FILES } from './suites.js';

describe('feature gates for the sandbox', () => {
  it('turns every gate a controller knows on, as AllAlpha=true,AllBeta=true does', () => {
    expect(allOn({ B: false, A: true })).toEqual({ A: true, B: true });
  });
  it('joins the gates of the files to run, sorted', () => {
    expect(featureGatesValue([{ featureGates: { B: true } }, { featureGates: { A: true, B: true } }])).toBe(
      'A=true,B=true',
    );
    expect(featureGatesValue([])).toBe('');
  });
  it('lists each spec file once', () => {
    const files = SPEC_FILES.map((f) => f.file);
    expect(new Set(files).size).toBe(files.length);
  });
  it('keys every not-applicable spec and known failure by a listed file, and never both', () => {
    const files = SPEC_FILES.map((f) => f.file);
    for (const key of [...Object.keys(NOT_APPLICABLE), ...Object.keys(KNOWN_FAILURES)]) {
      expect(
        files.some((f) => key.startsWith(`${f}:`)),
        key,
      ).toBe(true);
      expect(NOT_APPLICABLE[key] !== undefined && KNOWN_FAILURES[key] !== undefined, key).toBe(false);
    }
  });
  it('turns on every gate of every program a file runs, each one OpenKruise knows (every program accepts them all)', () => {
    const known: Record<string, readonly string[]> = {
      cloneset: Object.keys(CLONESET_FEATURE_GATES),
      asts: Object.keys(ASTS_FEATURE_GATES),
      ads: Object.keys(DAEMONSET_FEATURE_GATES),
      sidecarset: Object.keys(SIDECARSET_FEATURE_GATES),
      uniteddeployment: Object.keys(UNITED_DEPLOYMENT_FEATURE_GATES),
      imagepull: Object.keys(IMAGEPULL_FEATURE_GATES),
      resourcedistribution: Object.keys(RESOURCE_DISTRIBUTION_FEATURE_GATES),
      advancedcronjob: Object.keys(ADVANCED_CRON_JOB_FEATURE_GATES),
      deletionprotection: Object.keys(DELETION_PROTECTION_FEATURE_GATES),
    };
    for (const f of SPEC_FILES) {
      for (const c of f.controllers)
        for (const g of known[c] ?? []) expect(f.featureGates[g], `${f.file}: ${c}'s ${g}`).toBe(true);
      for (const g of Object.keys(f.featureGates)) expect(OPENKRUISE_FEATURE_GATES.has(g), g).toBe(true);
    }
  });
});
