// A minimal Regatta-style program for programs.int.test.ts: a probe server (and a webhook server when
// REGATTA_WEBHOOK_ADDR is set) on the configured addresses, until SIGTERM. FIXTURE_EXIT=<code> exits at once.
import { createCertificateAuthority, parseHostPort, ProbeServer, WebhookServer } from '@regatta/runtime';

const exitCode = process.env['FIXTURE_EXIT'];
if (exitCode) process.exit(Number(exitCode));

const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
const servers: Promise<void>[] = [];
const health = parseHostPort('REGATTA_HEALTH_ADDR', process.env['REGATTA_HEALTH_ADDR'] ?? '');
servers.push(new ProbeServer(health).start(stop.signal));
const webhookAddr = process.env['REGATTA_WEBHOOK_ADDR'];
if (webhookAddr) {
  const { host, port } = parseHostPort('REGATTA_WEBHOOK_ADDR', webhookAddr);
  const tls = await (await createCertificateAuthority('fixture-ca')).issueServing([host]);
  servers.push(new WebhookServer({ tls, host, port }).start(stop.signal));
}
await Promise.all(servers);
