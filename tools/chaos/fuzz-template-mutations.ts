// Pod-template mutations R2 shares between the kinds of fuzz-kinds.ts (paths are CloneSet's; each kind rewrites them).
import fc from 'fast-check';
import { at, type Mutation } from './fuzz.js';

/** The template's container list: empty, a duplicate name, a name that is no DNS-1123 label, no image. */
export const CONTAINERS_INVALID: Mutation[] = [
  fc.constant(at('spec.template.spec.containers', [])),
  fc.constant(
    at('spec.template.spec.containers', [
      { name: 'main', image: 'a' },
      { name: 'main', image: 'b' },
    ]),
  ),
  fc.constantFrom('Main', 'main_1').map((n) => at('spec.template.spec.containers.0.name', n)),
  fc.constant(at('spec.template.spec.containers.0.image', '')),
];

/** Template mutations Kubernetes' pod validation refuses (paths are CloneSet's; each kind rewrites them). */
export const TEMPLATE_INVALID: Mutation[] = [
  fc.constantFrom('Sometimes', 'always').map((v) => at('spec.template.spec.containers.0.imagePullPolicy', v)),
  fc
    .constantFrom(0, 70000, -1)
    .map((v) => at('spec.template.spec.containers.0.ports', [{ containerPort: v }])),
  fc.constant(at('spec.template.spec.containers.0.ports', [{ containerPort: 80, protocol: 'HTTP' }])),
  fc
    .constantFrom('MY VAR', '1X', '')
    .map((v) => at('spec.template.spec.containers.0.env', [{ name: v, value: 'x' }])),
  fc.constant(
    at('spec.template.spec.containers.0.resources', { requests: { cpu: '2' }, limits: { cpu: '1' } }),
  ),
  fc.constant(at('spec.template.spec.containers.0.resources', { limits: { cpu: 'lots' } })),
  fc.constant(at('spec.template.spec.containers.0.volumeMounts', [{ name: 'nowhere', mountPath: '/x' }])),
  fc.constant(
    at('spec.template.spec.volumes', [
      { name: 'v', emptyDir: {} },
      { name: 'v', emptyDir: {} },
    ]),
  ),
  fc.constant(at('spec.template.spec.dnsPolicy', 'Sometimes')),
  fc.constant(at('spec.template.spec.restartPolicy', 'Never')),
  fc.constant(
    at('spec.template.spec.affinity', {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} },
    }),
  ),
  fc.constant(at('spec.template.spec.activeDeadlineSeconds', 0)),
  fc.constant(at('spec.template.spec.initContainers', [{ name: 'main', image: 'busybox:1.37' }])),
];
