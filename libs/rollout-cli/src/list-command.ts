/** The cluster side of `regatta list`: one LIST per kind the cluster serves; the rows and the table are list.ts. */
import { UnknownResourceError } from '@regatta/kube';
import type { RolloutContext } from './commands.js';
import { ROLLOUT_KINDS } from './kinds.js';
import { formatList, listRow, sortRows, type ListRow } from './list.js';
import { formatStructured, type OutputFormat } from './output.js';
import type { Workload } from './progress.js';

export interface ListOptions {
  /** Every namespace (kubectl's `-A`); otherwise the context's namespace (and the cluster-scoped SidecarSets). */
  allNamespaces: boolean;
  output: OutputFormat;
  now?: Date;
}

/** Prints the workloads; kinds whose CRD the cluster does not serve are left out. Returns the rows. */
export async function listWorkloads(ctx: RolloutContext, opts: ListOptions): Promise<ListRow[]> {
  const now = opts.now ?? new Date();
  const perKind = await Promise.all(
    ROLLOUT_KINDS.map(async (info) => {
      const namespace = info.clusterScoped || opts.allNamespaces ? undefined : ctx.namespace;
      try {
        const list = await ctx.client.listAll<Workload>({
          apiVersion: info.apiVersion,
          kind: info.kind,
          ...(namespace ? { namespace } : {}),
        });
        return list.items.map((w) => listRow(info, w, now));
      } catch (e) {
        if (e instanceof UnknownResourceError) return [];
        throw e;
      }
    }),
  );
  const rows = sortRows(
    perKind.flat(),
    ROLLOUT_KINDS.map((k) => k.names[0]!),
  );
  ctx.out(
    opts.output === 'table'
      ? `${formatList(rows, opts.allNamespaces)}\n`
      : formatStructured(opts.output, { items: rows }),
  );
  return rows;
}
