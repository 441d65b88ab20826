// The CLI as a kubectl plugin for krew (docs/images.md "The CLI as one file"): a reproducible archive holding the one
// file as `kubectl-regatta` (tar and gzip of oci.ts: owner 0, mtime 0), and the krew manifest naming its sha256.
// The file is JavaScript for Node 24, the same on every OS, so one archive serves Linux and macOS.
import { createHash } from 'node:crypto';
import { gzip, tarArchive } from './oci.js';

/** The plugin archive: `kubectl-regatta`, executable. */
export function krewArchive(cli: Uint8Array): Buffer {
  return gzip(tarArchive([{ type: 'file', path: 'kubectl-regatta', mode: 0o755, data: cli }]));
}

/** The krew Plugin manifest (krew.googlecontainertools.github.com/v1alpha2) for an archive at `uri`. */
export function krewManifest(o: { version: string; uri: string; archive: Uint8Array }): string {
  const sha256 = createHash('sha256').update(o.archive).digest('hex');
  return [
    'apiVersion: krew.googlecontainertools.github.com/v1alpha2',
    'kind: Plugin',
    'metadata:',
    '  name: regatta',
    'spec:',
    `  version: v${o.version}`,
    '  shortDescription: Follow and steer rollouts of OpenKruise-compatible workloads',
    '  description: |',
    '    rollout status, pause, resume, history and undo of CloneSets, Advanced StatefulSets, Advanced DaemonSets,',
    '    UnitedDeployments and SidecarSets; a preview of which pods a change updates in place; rollout traces.',
    '  caveats: |',
    '    Needs Node.js 24 on the PATH.',
    '  platforms:',
    '    - selector:',
    '        matchExpressions:',
    '          - { key: os, operator: In, values: [linux, darwin] }',
    `      uri: ${o.uri}`,
    `      sha256: ${sha256}`,
    '      bin: kubectl-regatta',
    '      files:',
    '        - { from: kubectl-regatta, to: . }',
    '',
  ].join('\n');
}
