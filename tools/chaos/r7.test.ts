import { describe, expect, it } from 'vitest';
import { metricValue } from './r7.js';

const PAGE = [
  '# HELP regatta_cache_entries_set_aside_total Bus values set aside',
  '# TYPE regatta_cache_entries_set_aside_total counter',
  'regatta_cache_entries_set_aside_total{cache="pods",reason="envelope"} 1',
  'regatta_cache_entries_set_aside_total{cache="pods",reason="shape"} 2',
  'regatta_cache_in_sync{cache="pods"} 1',
  'regatta_cache_in_sync{cache="podsx"} 0',
].join('\n');

describe('metricValue', () => {
  it.each([
    ['regatta_cache_entries_set_aside_total', { cache: 'pods', reason: 'envelope' }, 1],
    ['regatta_cache_entries_set_aside_total', { cache: 'pods', reason: 'shape' }, 2],
    ['regatta_cache_entries_set_aside_total', { cache: 'pods', reason: 'other' }, undefined],
    ['regatta_cache_in_sync', { cache: 'pods' }, 1],
    ['regatta_cache_in_sync', { cache: 'podsx' }, 0],
    ['regatta_cache_in', { cache: 'pods' }, undefined],
  ])('%s %j → %s', (name, labels, value) => {
    expect(metricValue(PAGE, name, labels)).toBe(value);
  });
});
