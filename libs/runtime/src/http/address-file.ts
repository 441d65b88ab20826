import { chmod, rename, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { RuntimeError } from '../errors.js';

/**
 * `REGATTA_ADDRESS_FILE`: where a program records the addresses its servers bound, for the process that started it
 * on port 0 (tests, the sandbox) to read instead of picking free ports beforehand (docs/adr/0015).
 */
export const ADDRESS_FILE_ENV = 'REGATTA_ADDRESS_FILE';

/** What the address file holds: one `host:port` per server that listens (`health`, `webhook`). */
export type BoundAddresses = Partial<Record<'health' | 'webhook', string>>;

/** The address file could not be written: the parent that waits for it would never learn where we listen. */
export class AddressFileError extends RuntimeError {
  constructor(file: string, cause: unknown) {
    super(
      'REGATTA_ADDRESS_FILE',
      `cannot record the bound address in ${file} (${ADDRESS_FILE_ENV}): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** `127.0.0.1:8081`, `[::1]:8081`. */
export function formatAddress(address: AddressInfo): string {
  return address.family === 'IPv6'
    ? `[${address.address}]:${address.port}`
    : `${address.address}:${address.port}`;
}

// every server of this process writes the same file: one record and one write at a time
const recorded = new Map<string, BoundAddresses>();
let writes: Promise<void> = Promise.resolve();

/**
 * Adds `key: host:port` to the address file (when `file` is set) and rewrites it whole: a temporary file renamed
 * over it, mode 0600, so a reader sees the old or the new content and never half of it.
 */
export function recordAddress(
  key: keyof BoundAddresses,
  address: AddressInfo,
  file: string | undefined = process.env[ADDRESS_FILE_ENV],
): Promise<void> {
  if (!file) return Promise.resolve();
  const next = { ...recorded.get(file), [key]: formatAddress(address) };
  recorded.set(file, next);
  const write = writes.then(async () => {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify(recorded.get(file)) + '\n', { mode: 0o600 });
      await chmod(tmp, 0o600); // the mode of writeFile applies only to a new file
      await rename(tmp, file);
    } catch (err) {
      throw new AddressFileError(file, err);
    }
  });
  writes = write.catch(() => undefined);
  return write;
}
