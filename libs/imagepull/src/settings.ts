/**
 * The imagepull program's settings from its environment (OpenKruise's flags and env of kruise-manager, plus two
 * Regatta test settings that shorten a day or ten minutes to seconds).
 */
import { DAEMON_CONFIG_NAMESPACE_ENV, DEFAULT_DAEMON_CONFIG_NAMESPACE } from '@regatta/api';
import { ImagePullError } from './errors.js';
import { DEFAULT_NODEIMAGE_CREATION_DELAY_MS } from './nodeimage-reconciler.js';
import { RESPONSE_TIMEOUT_MS } from './nodeimage-status.js';
import { DEFAULT_TTL_SECONDS_FOR_ALWAYS_NODEIMAGE } from './sync.js';

export interface ImagePullSettings {
  /** `KRUISE_DAEMON_CONFIG_NS` (default `kruise-daemon-config`). */
  daemonConfigNamespace: string;
  /** `REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS` (`--nodeimage-creation-delay`, default 30). */
  creationDelayMs: number;
  /** `REGATTA_DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE` (`--default-ttlseconds-for-always-nodeimage`, 0…2678400, default 300). */
  defaultTtlSecondsForAlways: number;
  /** `REGATTA_IMAGEPULL_NEVER_TTL_SECONDS`: the tag TTL of Never jobs (default a day ± 10 min; tests shorten it). */
  ttlSecondsForNever?: number;
  /** `REGATTA_NODEIMAGE_RESPONSE_TIMEOUT_SECONDS`: how long a node has to answer a tag (default 600). */
  responseTimeoutMs: number;
}

function seconds(env: NodeJS.ProcessEnv, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new ImagePullError('REGATTA_IMAGEPULL_SETTING', `${name}=${raw} is not a whole number of seconds in 0…${max}`);
  return n;
}

export function imagePullSettings(env: NodeJS.ProcessEnv = process.env): ImagePullSettings {
  const never = seconds(env, 'REGATTA_IMAGEPULL_NEVER_TTL_SECONDS');
  return {
    daemonConfigNamespace: env[DAEMON_CONFIG_NAMESPACE_ENV] || DEFAULT_DAEMON_CONFIG_NAMESPACE,
    creationDelayMs: (seconds(env, 'REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS') ?? DEFAULT_NODEIMAGE_CREATION_DELAY_MS / 1000) * 1000,
    defaultTtlSecondsForAlways:
      seconds(env, 'REGATTA_DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE', 2678400) ?? DEFAULT_TTL_SECONDS_FOR_ALWAYS_NODEIMAGE,
    ...(never !== undefined ? { ttlSecondsForNever: never } : {}),
    responseTimeoutMs: (seconds(env, 'REGATTA_NODEIMAGE_RESPONSE_TIMEOUT_SECONDS') ?? RESPONSE_TIMEOUT_MS / 1000) * 1000,
  };
}
