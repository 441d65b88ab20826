// Pods too large for JSON clients, as a test creates them: one posted as YAML (its JSON form is larger than the
// request), one posted as protobuf (the API server's densest input: its JSON form can exceed the bus limit).
import { request, type RequestOptions } from 'node:https';
import type { KubeClient } from '@regatta/kube';

/** A Pending pod (no scheduler picks it) whose one env value is `chars` control characters (U+0001). */
export function largePodYaml(namespace: string, name: string, chars: number): string {
  return [
    'apiVersion: v1',
    'kind: Pod',
    `metadata: {name: ${name}, namespace: ${namespace}}`,
    'spec:',
    '  schedulerName: no-such-scheduler',
    '  containers:',
    '  - name: c',
    '    image: busybox',
    '    env:',
    // YAML writes U+0001 as 4 bytes ("\x01"); JSON as 6 (\u0001)
    `    - {name: BIG, value: "${'\\x01'.repeat(chars)}"}`,
    '',
  ].join('\n');
}

export async function createPodFromYaml(client: KubeClient, namespace: string, yaml: string): Promise<void> {
  await client.request('POST', `/api/v1/namespaces/${namespace}/pods`, {
    body: yaml,
    contentType: 'application/yaml',
    timeoutMs: 60_000,
  });
}

// --- protobuf, just enough of k8s.io/api/core/v1/generated.proto for a Pod with one env value ---
const varint = (n: number): Buffer => {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
};
/** A length-delimited field (wire type 2). */
const field = (no: number, value: Buffer | string): Buffer => {
  const v = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([varint((no << 3) | 2), varint(v.length), v]);
};

/** The same Pod as {@link largePodYaml}, as the API server's protobuf envelope (runtime.Unknown). */
export function largePodProtobuf(namespace: string, name: string, chars: number): Buffer {
  const env = field(1, 'BIG'); // EnvVar.name
  const envVar = Buffer.concat([env, field(2, '\u0001'.repeat(chars))]); // EnvVar.value
  const container = Buffer.concat([field(1, 'c'), field(2, 'busybox'), field(7, envVar)]); // name, image, env
  const spec = Buffer.concat([field(2, container), field(19, 'no-such-scheduler')]); // containers, schedulerName
  const meta = Buffer.concat([field(1, name), field(3, namespace)]); // ObjectMeta name, namespace
  const pod = Buffer.concat([field(1, meta), field(2, spec)]);
  const typeMeta = Buffer.concat([field(1, 'v1'), field(2, 'Pod')]);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(1, typeMeta), field(2, pod)]);
}

export async function createPodFromProtobuf(client: KubeClient, namespace: string, body: Buffer): Promise<void> {
  const url = new URL(`${client.kubeConfig.getCurrentCluster()!.server}/api/v1/namespaces/${namespace}/pods`);
  const opts: RequestOptions = {
    method: 'POST',
    hostname: url.hostname,
    port: url.port,
    path: url.pathname,
    headers: {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
      Accept: 'application/json',
      'Content-Length': body.length,
    },
  };
  await client.kubeConfig.applyToHTTPSOptions(opts);
  await new Promise<void>((resolve, reject) => {
    const req = request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        (res.statusCode ?? 0) < 300
          ? resolve()
          : reject(new Error(`protobuf create: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
