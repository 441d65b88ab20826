/** `regatta diff -f FILE` (also `kubectl regatta diff`): wiring only, the logic is @regatta/rollout-cli. */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { parseAllDocuments } from 'yaml';
import { RolloutUsageError, diffTargets, diffWorkloads } from '@regatta/rollout-cli';
import { contextFor, type TargetOptions } from './rollout-command.js';

async function readManifests(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (e) {
    throw new RolloutUsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const docs = parseAllDocuments(text);
  const docList = Array.isArray(docs) ? docs : [docs];
  for (const d of docList) {
    if (d.errors.length > 0) throw new RolloutUsageError(`${file} is not valid YAML: ${d.errors[0]!.message}`);
  }
  return docList.map((d) => d.toJS() as unknown);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function addDiffCommand(program: Command): void {
  program
    .command('diff')
    .summary('preview which pods a change would update in place, recreate or keep, and why')
    .description(
      'before applying a change to a CloneSet, Advanced StatefulSet or Advanced DaemonSet: which of its pods would be ' +
        'updated in place, which recreated, which kept by the partition, and which changed fields force a recreate ' +
        "(the controllers' in-place rules, the strategy and partition of the file). Reads the live object and its " +
        'pods; the API server checks the file with a dry run, nothing is changed. Exit 0 with the preview, 1 when the ' +
        'object does not exist or the API server refuses the file, 2 for a bad file or option',
    )
    .requiredOption('-f, --filename <file>', "the manifest (YAML or JSON, several documents allowed; '-' reads stdin)")
    .option('-n, --namespace <ns>', "namespace of objects whose manifest names none (default: the kubeconfig context's, else default)")
    .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', "kubeconfig context (default: the kubeconfig's current context)")
    .action(async (opts: TargetOptions & { filename: string }) => {
      const targets = diffTargets(await readManifests(opts.filename), opts.filename);
      const ctx = contextFor(opts);
      try {
        await diffWorkloads(ctx, targets);
      } finally {
        await ctx.close();
      }
    });
}
