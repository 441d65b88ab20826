import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority } from './certificates.js';
import { AddressFileError, formatAddress } from './address-file.js';
import type { Logger } from '../logger.js';
import { ProbeServer } from './probe-server.js';
import { WebhookServer } from './webhook-server.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'regatta-address-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A logger that keeps the lines written at info level. */
function recordingLogger(lines: { fields: object; msg?: string }[]): Logger {
  const self: Logger = {
    error: () => undefined,
    warn: () => undefined,
    debug: () => undefined,
    info: (fields: object | string, msg?: string) => {
      if (typeof fields === 'object') lines.push({ fields, ...(msg !== undefined && { msg }) });
    },
    child: () => self,
  };
  return self;
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', () => resolve(true));
  });

describe('servers on port 0 (docs/adr/0015)', () => {
  it('record the addresses they got in the address file, mode 0600, and log "listening" once each', async () => {
    const file = join(dir, 'addresses.json');
    const lines: { fields: object; msg?: string }[] = [];
    const logger = recordingLogger(lines);
    const serving = await (await createCertificateAuthority('address-file-ca')).issueServing(['127.0.0.1']);
    const probes = new ProbeServer({ host: '127.0.0.1', port: 0, addressFile: file, logger });
    const webhooks = new WebhookServer({
      tls: serving,
      host: '127.0.0.1',
      port: 0,
      addressFile: file,
      logger,
    });
    const stop = new AbortController();
    const running = [probes.start(stop.signal), webhooks.start(stop.signal)];
    try {
      const [health, webhook] = await Promise.all([probes.listening(), webhooks.listening()]);
      expect(health.port).toBeGreaterThan(0);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
        health: `127.0.0.1:${health.port}`,
        webhook: `127.0.0.1:${webhook.port}`,
      });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const listening = lines.filter((l) => l.msg === 'listening').map((l) => l.fields);
      expect(listening).toEqual([
        expect.objectContaining({ address: `127.0.0.1:${health.port}` }),
        expect.objectContaining({ address: `127.0.0.1:${webhook.port}` }),
      ]);
    } finally {
      stop.abort();
      await Promise.all(running);
    }
  });

  it('stop listening and fail when the address cannot be recorded', async () => {
    const server = new ProbeServer({
      host: '127.0.0.1',
      port: 0,
      addressFile: join(dir, 'missing', 'a.json'),
    });
    const stop = new AbortController();
    const failed = server.start(stop.signal).then(
      () => undefined,
      (err: unknown) => err,
    );
    const address = await new Promise<number>((resolve) => {
      const poll = () => (server.address ? resolve(server.address.port) : setTimeout(poll, 5));
      poll();
    });
    const err = await failed;
    expect(err).toBeInstanceOf(AddressFileError);
    expect(err).toMatchObject({ code: 'REGATTA_ADDRESS_FILE' });
    expect(await refused(address)).toBe(true);
  });

  it('write IPv6 addresses in brackets', () => {
    expect(formatAddress({ address: '::1', family: 'IPv6', port: 80 })).toBe('[::1]:80');
    expect(formatAddress({ address: '0.0.0.0', family: 'IPv4', port: 8081 })).toBe('0.0.0.0:8081');
  });
});
