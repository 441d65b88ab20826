import { describe, expect, it } from 'vitest';
import { decodeAddress, parseListening, socketInodes, unexpectedListeners } from './listen.js';

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0000000000000000 100 0 0 10 0
   1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 222 1 0000000000000000 100 0 0 10 0
   2: 0100007F:1F90 0100007F:A000 01 00000000:00000000 00:00000000 00000000  1000        0 333 1 0000000000000000 20 4 30 10 -1
`;

describe('listening sockets from /proc', () => {
  it('decodes IPv4 and IPv6 addresses', () => {
    expect(decodeAddress('0100007F')).toBe('127.0.0.1');
    expect(decodeAddress('00000000')).toBe('0.0.0.0');
    expect(decodeAddress('00000000000000000000000000000000')).toBe('::');
    expect(decodeAddress('00000000000000000000000001000000')).toBe('::1');
    expect(decodeAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
  });

  it('keeps LISTEN rows only, with port and inode', () => {
    expect(parseListening(TCP)).toEqual([
      { address: '127.0.0.1', port: 8080, inode: '111' },
      { address: '0.0.0.0', port: 22, inode: '222' },
    ]);
  });

  it('reads socket inodes from fd links', () => {
    expect([...socketInodes(['socket:[111]', '/dev/null', 'pipe:[5]', 'socket:[9]'])]).toEqual(['111', '9']);
  });

  it('flags any address but the configured ones', () => {
    const rows = parseListening(TCP);
    expect(unexpectedListeners(rows, ['127.0.0.1:8080'])).toEqual(['0.0.0.0:22']);
    expect(unexpectedListeners(rows.slice(0, 1), ['127.0.0.1:8080'])).toEqual([]);
    expect(unexpectedListeners(rows.slice(0, 1), ['127.0.0.1:9090'])).toEqual(['127.0.0.1:8080']);
    expect(unexpectedListeners([{ address: '::', port: 1, inode: '1' }], [])).toEqual(['[::]:1']);
  });
});
