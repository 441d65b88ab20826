// A real node's credentials, from the cluster's CA (docs/real-nodes.md): the kubelet's client certificate as
// `system:node:<name>` in `system:nodes` (what the Node authorizer and NodeRestriction admission recognise, upstream
// plugin/pkg/auth/authorizer/node), its serving certificate for the node IP, and its kubeconfig.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { certificateAuthorityFromPem } from '@regatta/runtime';
import { kubeconfigYaml } from './components.js';
import { writePrivateFile } from './private-file.js';

export interface NodeCredentials {
  caFile: string;
  servingCert: string;
  servingKey: string;
  kubeconfig: string;
}

/** The user name of a node's kubelet. */
export const nodeUser = (name: string): string => `system:node:${name}`;

/**
 * Issues the node's certificates with the CA in `clusterPki` (`ca.crt`, `ca.key`, as LocalCluster writes them) and
 * writes them, and a kubeconfig for `server`, into `pkiDir`; keys and the kubeconfig are 0600.
 */
export async function writeNodeCredentials(o: {
  clusterPki: string;
  pkiDir: string;
  kubeconfig: string;
  name: string;
  nodeIp: string;
  server: string;
}): Promise<NodeCredentials> {
  const caPem = await readFile(join(o.clusterPki, 'ca.crt'), 'utf8');
  const ca = await certificateAuthorityFromPem(caPem, await readFile(join(o.clusterPki, 'ca.key'), 'utf8'));
  const client = await ca.issueClient(nodeUser(o.name), ['system:nodes']);
  const serving = await ca.issueServing([o.name, o.nodeIp, '127.0.0.1', 'localhost'], o.name);
  const out: NodeCredentials = {
    caFile: join(o.pkiDir, 'ca.crt'),
    servingCert: join(o.pkiDir, 'kubelet.crt'),
    servingKey: join(o.pkiDir, 'kubelet.key'),
    kubeconfig: o.kubeconfig,
  };
  await Promise.all([
    writeFile(out.caFile, caPem),
    writeFile(out.servingCert, serving.certPem),
    writePrivateFile(out.servingKey, serving.keyPem),
    writePrivateFile(
      out.kubeconfig,
      kubeconfigYaml({ server: o.server, caPem, certPem: client.certPem, keyPem: client.keyPem }),
    ),
  ]);
  return out;
}
