// The node agent (OpenKruise's kruise-daemon): one per node, started with its node name and the node's CRI socket.
// Its duties: image pulls (only its own NodeImage, from the bus) and container recreation (its node's
// ContainerRecreateRequests, from the bus) and, on nodes a real kubelet runs, container meta (its node's pods, from the
// bus); no API watch. `--duties` switches them.
import { parseArgs } from 'node:util';
import { parseDuties, runNodeAgent } from '@regatta/image-puller';
import { nodeAgentInboxPrefix } from '@regatta/runtime';

const { values } = parseArgs({
  options: {
    node: { type: 'string' },
    'cri-socket': { type: 'string' },
    'max-workers-for-pull-image': { type: 'string', default: '-1' },
    // imagepull,containerrecreate[,containermeta] (default: the first two; all: every one): the chart's nodeAgent.duties
    duties: { type: 'string' },
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
let duties;
try {
  duties = parseDuties(values.duties ?? process.env['REGATTA_NODE_AGENT_DUTIES']);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
await runNodeAgent({ nodeName, criSocket, maxWorkers, duties });
