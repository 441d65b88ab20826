// The node agent of image pre-warming (OpenKruise's kruise-daemon image puller): one per node, started with its node
// name and the node's CRI socket. It reads only its own NodeImage, from the bus (no API watch), and writes its status.
import { parseArgs } from 'node:util';
import { runNodeAgent } from '@regatta/image-puller';

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
await runNodeAgent({ nodeName, criSocket, maxWorkers });
