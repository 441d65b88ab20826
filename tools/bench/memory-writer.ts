// Benchmark 3, writer process: puts N realistic pods into a pods mirror bucket with MirrorWriter (what
// the watcher does), and writes the same pods as JSON lines for the informer-style baseline.
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { KINDS } from '@regatta/api';
import { connectBus, encodeEnvelope, MirrorWriter, trimForMirror } from '@regatta/bus';
import { serve } from './common.js';
import type { Pod } from '@regatta/api';
import { podVariant } from './pod-template.js';

serve({
  async write(p: { nats: string; prefix: string; templateFile: string; count: number; jsonlFile: string }) {
    const template = JSON.parse(await readFile(p.templateFile, 'utf8')) as Pod;
    const bus = await connectBus({ servers: p.nats, name: 'bench-memory-writer', prefix: p.prefix });
    const out = createWriteStream(p.jsonlFile);
    let fullBytes = 0;
    let trimmedBytes = 0;
    let envelopeBytes = 0;
    try {
      const writer = await MirrorWriter.open(bus, KINDS.pods);
      const batch = 100;
      for (let i = 0; i < p.count; i += batch) {
        const pods = Array.from({ length: Math.min(batch, p.count - i) }, (_, k) =>
          podVariant(template, i + k),
        );
        for (const pod of pods) {
          const trimmed = trimForMirror(pod, KINDS.pods);
          const line = JSON.stringify(trimmed);
          fullBytes += Buffer.byteLength(JSON.stringify(pod));
          trimmedBytes += Buffer.byteLength(line);
          envelopeBytes += encodeEnvelope(trimmed).byteLength;
          if (!out.write(line + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
        }
        await Promise.all(pods.map((pod) => writer.put(pod)));
      }
      // as the watcher after its first list: the benchmark's caches sync once all N pods are written, not before
      await writer.markListed();
    } finally {
      await new Promise<void>((r) => out.end(() => r()));
      await bus.close();
    }
    return {
      count: p.count,
      jsonBytesWithManagedFields: fullBytes / p.count,
      jsonBytes: trimmedBytes / p.count,
      envelopeBytes: envelopeBytes / p.count,
    };
  },
});
