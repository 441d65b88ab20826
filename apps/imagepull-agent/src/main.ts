// The node agent of image pre-warming (OpenKruise's kruise-daemon image puller): one per node, started with its node
// name and the node's CRI socket. It reads only its own NodeImage, from the bus (no API watch), and writes its status.
import { parseArgs } from 'node:util';
import { runNodeAgent } from '@regatta/image-puller';
import { nodeAgentInboxPrefix } from '@regatta/runtime';

const { values } = parseArgs({
  options: {
    node: { type: 'string' },
    'cri-socket': { type: 'string' },
    'max-workers-for-pull-image': { type: 'string', default: '-1' },
  },
});
const nodeName = values.node ?? process.env['NODE_NAME'];
const criSocket = values['cri-socket'] ?? process.env['CRI_SOCKET'];
const maxWorkers = Number(values['max-workers-for-pull-image']);
if (!nodeName || !criSocket || !Number.isInteger(maxWorkers)) {
  process.stderr.write(
    'usage: imagepull-agent --node <name> --cri-socket <path> [--max-workers-for-pull-image <n>] (or NODE_NAME, CRI_SOCKET)\n',
  );
  process.exit(2);
}
// authenticated by its ServiceAccount token (the chart's `bus.nodeAgentAuth: callout`), its bus user may receive only
// on its node's inbox prefix, which the auth callout derives from the node name as this does (docs/adr/0059)
if (process.env['NATS_TOKEN_FILE'] && !process.env['NATS_INBOX_PREFIX']) {
  process.env['NATS_INBOX_PREFIX'] = nodeAgentInboxPrefix(nodeName);
}
await runNodeAgent({ nodeName, criSocket, maxWorkers });
