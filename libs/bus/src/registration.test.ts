import { describe, expect, it } from 'vitest';
import { parseRegistration, registrationKey } from './registration.js';

const POD = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true };

describe('parseRegistration', () => {
  it.each([
    ['cloneset.pod-0', 'this is not json', 'value is not JSON'],
    ['cloneset.pod-0', '42', 'value is not an object'],
    ['cloneset.pod-0', '[]', 'value is not an object'],
    ['cloneset.pod-0', '{"kinds":"pods"}', 'kinds is not a list'],
    ['cloneset.pod-0', '{"kinds":[{"plural":"pods"}]}', 'a kind lacks group, version or plural'],
    ['cloneset.pod-0', '{"kinds":[null]}', 'a kind lacks group, version or plural'],
    ['cloneset.pod-0', JSON.stringify({ controller: 'resourcedistribution', kinds: [POD] }), "controller resourcedistribution differs from the key's"],
    ['Cloneset.pod-0', JSON.stringify({ kinds: [POD] }), 'key is not <controller>.<instance>'],
    ['cloneset', JSON.stringify({ kinds: [POD] }), 'key is not <controller>.<instance>'],
  ])('%s = %s is refused: %s', (key, value, reason) => {
    expect(parseRegistration(key, value, 0)).toEqual({ ok: false, key, reason });
  });

  it("takes the controller from the key and the time from the server, not from the writer's word", () => {
    const r = parseRegistration('cloneset.pod-0', JSON.stringify({ controller: 'cloneset', instance: 'x', kinds: [POD], at: 9e15 }), 1000);
    expect(r).toEqual({ ok: true, registration: { controller: 'cloneset', instance: 'pod-0', kinds: [POD], at: 1000 } });
  });

  it('registrationKey refuses a controller name NATS permissions could not bind to one token', () => {
    expect(registrationKey('cloneset', 'pod/0.a')).toBe('cloneset.pod-0-a');
    expect(() => registrationKey('clone.set', 'x')).toThrow(TypeError);
    expect(() => registrationKey('*', 'x')).toThrow(TypeError);
  });
});
