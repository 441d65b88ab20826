// Which TCP addresses a process listens on, from Linux's /proc: the socket inodes among its file descriptors
// (/proc/<pid>/fd → `socket:[inode]`) matched against the LISTEN rows of /proc/<pid>/net/tcp and tcp6 (the rows of
// its network namespace). The parsing and the verdict are pure; `listeningOf` reads /proc.
import { readdir, readFile, readlink } from 'node:fs/promises';

export interface ListenSocket {
  address: string;
  port: number;
  inode: string;
}

const LISTEN = '0A';

/** `0100007F` → `127.0.0.1`; a tcp6 address (32 hex digits, four little-endian words) → `::1`, `::ffff:127.0.0.1`… */
export function decodeAddress(hex: string): string {
  if (hex.length === 8) return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
  const bytes: number[] = [];
  for (let w = 0; w < 4; w++) {
    const word = hex.slice(w * 8, w * 8 + 8);
    for (let i = 3; i >= 0; i--) bytes.push(parseInt(word.slice(i * 2, i * 2 + 2), 16));
  }
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff)
    return `::ffff:${bytes.slice(12).join('.')}`;
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  // the longest run of two or more zero groups becomes `::`
  let best = [-1, 0];
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best[1]!) best = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (best[1]! < 2) return groups.join(':');
  return `${groups.slice(0, best[0]).join(':')}::${groups.slice(best[0]! + best[1]!).join(':')}`;
}

/** The LISTEN rows of a /proc/net/tcp or tcp6 text. */
export function parseListening(text: string): ListenSocket[] {
  const out: ListenSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[3] !== LISTEN) continue;
    const [addr, port] = f[1]!.split(':') as [string, string];
    out.push({ address: decodeAddress(addr), port: parseInt(port, 16), inode: f[9]! });
  }
  return out;
}

/** `socket:[12345]` links → the inodes. */
export function socketInodes(links: string[]): Set<string> {
  return new Set(links.map((l) => /^socket:\[(\d+)\]$/.exec(l)?.[1]).filter((x): x is string => !!x));
}

/**
 * The listeners that are not among the configured `host:port` addresses: any address but 127.0.0.1, or a port not
 * configured. Empty when the process listens only where it was told.
 */
export function unexpectedListeners(listening: ListenSocket[], configured: string[]): string[] {
  const allowed = new Set(configured);
  return listening
    .map((s) => `${s.address.includes(':') ? `[${s.address}]` : s.address}:${s.port}`)
    .filter((a) => !allowed.has(a))
    .filter((a, i, all) => all.indexOf(a) === i);
}

/** What `pid` listens on (TCP, IPv4 and IPv6). */
export async function listeningOf(pid: number): Promise<ListenSocket[]> {
  const fds = await readdir(`/proc/${pid}/fd`);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  const inodes = socketInodes(links);
  const rows: ListenSocket[] = [];
  for (const f of ['tcp', 'tcp6'])
    rows.push(...parseListening(await readFile(`/proc/${pid}/net/${f}`, 'utf8').catch(() => '')));
  return rows.filter((r) => inodes.has(r.inode));
}
