import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { TlsConfigError } from '../errors.js';

/** The serving key pair, given inline or as files (re-read periodically, for rotated secrets). */
export type TlsSource =
  | { certPem: string; keyPem: string }
  | {
      certFile: string;
      keyFile: string;
      /** How often the files are re-read; a change is applied to new connections. Default 10 s. */
      reloadIntervalMs?: number;
    };

export interface KeyPair {
  cert: string;
  key: string;
}

/** Reads the key pair and checks that it is usable (PEM parses, key matches certificate). */
export async function loadKeyPair(source: TlsSource): Promise<KeyPair> {
  let pair: KeyPair;
  if ('certPem' in source) {
    pair = { cert: source.certPem, key: source.keyPem };
  } else {
    try {
      const [cert, key] = await Promise.all([
        readFile(source.certFile, 'utf8'),
        readFile(source.keyFile, 'utf8'),
      ]);
      pair = { cert, key };
    } catch (err) {
      throw new TlsConfigError(`cannot read ${source.certFile} / ${source.keyFile}`, err);
    }
  }
  try {
    createSecureContext(pair);
  } catch (err) {
    throw new TlsConfigError(
      `the key pair is not usable: ${err instanceof Error ? err.message : String(err)}`,
      err,
    );
  }
  return pair;
}
