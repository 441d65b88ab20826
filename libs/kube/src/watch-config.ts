// client-node's Watch builds its requests from a KubeConfig alone and sends no User-Agent of its own, so the API
// server (its audit log, its request metrics) would name the HTTP library ("undici") for every watch a program
// holds. This view of a KubeConfig adds the program's user agent to each request it authenticates.
import type { KubeConfig, RequestContext } from '@kubernetes/client-node';

/** `kc`, whose `applySecurityAuthentication` also sets `User-Agent: <userAgent>`; everything else is `kc`'s. */
export function withUserAgent(kc: KubeConfig, userAgent: string): KubeConfig {
  const view = Object.create(kc) as KubeConfig;
  view.applySecurityAuthentication = async (ctx: RequestContext) => {
    await kc.applySecurityAuthentication(ctx);
    ctx.setHeaderParam('User-Agent', userAgent);
  };
  return view;
}
