// Where a command-line tool finds its cluster, by kubectl's rules (the programs use KubeClient.fromDefault, which
// deliberately has no fallback): `--kubeconfig` if given, else the files of KUBECONFIG (merged), else
// ~/.kube/config, else the in-cluster service account; `--context` picks a context of whichever was loaded.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigError } from './client.js';

export interface KubectlConfigOptions {
  /** `--kubeconfig`: this file only. */
  kubeconfig?: string;
  /** `--context`: a context of the loaded configuration instead of its current one. */
  context?: string;
}

/** Which source kubectl would read: a file given, KUBECONFIG, the home file, the pod's service account, or none. */
export function kubectlConfigSource(
  o: KubectlConfigOptions,
  env: NodeJS.ProcessEnv,
  homeFileExists: boolean,
): 'flag' | 'env' | 'home' | 'cluster' | 'none' {
  if (o.kubeconfig) return 'flag';
  if (env['KUBECONFIG']) return 'env';
  if (homeFileExists) return 'home';
  return env['KUBERNETES_SERVICE_HOST'] ? 'cluster' : 'none';
}

/**
 * KUBECONFIG's files merged as kubectl merges them: a name (cluster, user, context) and the current context come from
 * the first file that sets them; files that do not exist are skipped.
 */
function loadMerged(kc: KubeConfig, files: string[]): void {
  const clusters = new Map<string, KubeConfig['clusters'][number]>();
  const users = new Map<string, KubeConfig['users'][number]>();
  const contexts = new Map<string, KubeConfig['contexts'][number]>();
  let currentContext = '';
  for (const file of files) {
    const part = new KubeConfig();
    part.loadFromFile(file);
    for (const c of part.clusters) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of part.users) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of part.contexts) if (!contexts.has(c.name)) contexts.set(c.name, c);
    currentContext ||= part.currentContext;
  }
  kc.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext,
  });
}

/** The configuration kubectl would use with these flags (see the file comment); throws KubeConfigError saying what to fix. */
export function loadKubectlConfig(o: KubectlConfigOptions, env: NodeJS.ProcessEnv = process.env): KubeConfig {
  const home = join(homedir(), '.kube', 'config');
  const source = kubectlConfigSource(o, env, existsSync(home));
  const kc = new KubeConfig();
  try {
    if (source === 'flag') kc.loadFromFile(o.kubeconfig!);
    else if (source === 'env')
      loadMerged(
        kc,
        env['KUBECONFIG']!.split(delimiter).filter((f) => f && existsSync(f)),
      );
    else if (source === 'home') kc.loadFromFile(home);
    else if (source === 'cluster') kc.loadFromCluster();
  } catch (e) {
    throw new KubeConfigError(
      `cannot load the kubeconfig (${source === 'flag' ? o.kubeconfig : source === 'env' ? `KUBECONFIG=${env['KUBECONFIG']}` : home}): ` +
        `${e instanceof Error ? e.message : String(e)}; check the path and the file's contents`,
      { cause: e },
    );
  }
  if (source === 'none')
    throw new KubeConfigError('no kubeconfig: pass --kubeconfig, set KUBECONFIG, or create ~/.kube/config');
  if (o.context !== undefined) {
    if (!kc.getContextObject(o.context)) {
      const known = kc.getContexts().map((c) => c.name);
      throw new KubeConfigError(
        `context ${JSON.stringify(o.context)} is not in the kubeconfig (contexts: ${known.join(', ') || 'none'})`,
      );
    }
    kc.setCurrentContext(o.context);
  }
  return kc;
}
