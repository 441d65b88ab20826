// An httpGet preStop hook as the kubelet runs one (kubernetes `pkg/kubelet/lifecycle/handlers.go`, `runHTTPHandler`,
// and `pkg/probe/http/request.go`): a GET to the handler's host — the pod's IP when it names none — on its port (a
// number, or the name of one of the container's ports), its path (which may carry a query), with its headers and the
// kubelet's user agent; HTTPS does not verify the certificate. Any answer ends the hook; an error or a status of 400
// or more is logged and the container is stopped anyway. Upstream's kruise-daemon reads no pod IP (its
// `GetPodStatus` leaves them out), so there an httpGet hook without a host fails; the node agent asks CRI for it.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** `HTTPGetAction` of core/v1. */
export interface HttpGetAction {
  path?: string;
  port: number | string;
  host?: string;
  scheme?: string;
  httpHeaders?: { name: string; value: string }[];
}

/** The container's ports, for a named port (core/v1 `ContainerPort`). */
export interface NamedPort {
  name?: string;
  containerPort: number;
}

/** The hook's URL, or why it has none. Pure. */
export function httpGetUrl(
  action: HttpGetAction,
  podIP: string,
  ports: readonly NamedPort[] = [],
): { url: URL } | { problem: string } {
  const host = action.host || podIP;
  if (!host) return { problem: 'the pod has no IP and the hook names no host' };
  const port = resolvePort(action.port, ports);
  if (port === undefined)
    return { problem: `port ${JSON.stringify(action.port)} is not a port of the container` };
  const scheme = (action.scheme ?? 'HTTP').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https')
    return { problem: `scheme ${JSON.stringify(action.scheme)} is not HTTP or HTTPS` };
  const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  let path = action.path ?? '';
  if (!path.startsWith('/')) path = `/${path}`;
  return { url: new URL(`${scheme}://${hostPort}${path}`) };
}

function resolvePort(port: number | string, ports: readonly NamedPort[]): number | undefined {
  const n =
    typeof port === 'number'
      ? port
      : /^\d+$/.test(port)
        ? Number(port)
        : ports.find((p) => p.name === port)?.containerPort;
  return n !== undefined && n > 0 && n < 65536 ? n : undefined;
}

/** Sends the GET; resolves with the status code (the body is read and dropped), rejects on an error or timeout. */
export function sendHttpGet(
  url: URL,
  headers: HttpGetAction['httpHeaders'],
  timeoutMs: number,
): Promise<number> {
  const h: Record<string, string> = { 'User-Agent': 'kube-lifecycle/regatta', Accept: '*/*' };
  for (const { name, value } of headers ?? []) h[name] = value;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { method: 'GET', headers: h, timeout: timeoutMs, rejectUnauthorized: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
