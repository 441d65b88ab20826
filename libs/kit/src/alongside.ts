/**
 * Parts of a program that run beside its controllers, declared rather than wired by hand in its main: started on
 * every replica (leader or not) before the program, stopped after it (the ImagePull program's auth callout for the
 * node agents, docs/adr/0059).
 */
import { readAuthCalloutSettings, runAuthCallout } from '@regatta/bus';
import { KubeClient } from '@regatta/kube';
import { createLogger } from '@regatta/telemetry';

/** What a part beside the controllers is started with. */
export interface AlongsideContext {
  /** `regatta-<name>`. */
  readonly program: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A part started before the program's controllers and stopped after them; `undefined` when it is switched off. */
export interface Alongside {
  start(ctx: AlongsideContext): Promise<{ stop(): Promise<void> } | undefined>;
}

/**
 * The bus's auth callout for node agents, when an issuer seed is set (REGATTA_AUTH_CALLOUT_*: the chart's
 * `bus.nodeAgentAuth: callout`): its own API connection (user agent `regatta-<name>/auth-callout`) and bus
 * connection, logs under the component `auth-callout`.
 */
export function busAuthCallout(o: { bucket: string; registration: (node: string) => string }): Alongside {
  return {
    start: async ({ program, env }) => {
      const settings = readAuthCalloutSettings(env);
      if (!settings) return undefined;
      return runAuthCallout({
        settings,
        name: `${program}/auth-callout`,
        client: KubeClient.fromDefault({ fieldManager: program, userAgent: `${program}/auth-callout` }),
        log: createLogger({ name: program }).child({ component: 'auth-callout' }),
        bucket: o.bucket,
        registration: o.registration,
      });
    },
  };
}

/** Runs `run` between the start and the stop of the parts beside it (stopped last started, first). */
export async function withAlongside(
  parts: readonly Alongside[],
  ctx: AlongsideContext,
  run: () => Promise<void>,
): Promise<void> {
  const started: { stop(): Promise<void> }[] = [];
  try {
    for (const part of parts) {
      const s = await part.start(ctx);
      if (s) started.unshift(s);
    }
    await run();
  } finally {
    for (const s of started) await s.stop();
  }
}
