/** The cluster side of `regatta list`: one LIST per kind the cluster serves; the rows and the table are list.ts. */
import { ForbiddenError, UnknownResourceError } from '@regatta/kube';
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

/** A kind the user may not list (RBAC): left out, and said so under the table (`notListed` in JSON/YAML). */
export interface NotListed {
  kind: string;
  reason: string;
}

/**
 * Prints the workloads; kinds whose CRD the cluster does not serve are left out, and so are kinds the user may not
 * list (an app team with namespace rights cannot list the cluster-scoped SidecarSets), said so. Fails only when no
 * kind may be listed. Returns the rows.
 */
export async function listWorkloads(ctx: RolloutContext, opts: ListOptions): Promise<ListRow[]> {
  const now = opts.now ?? new Date();
  const notListed: NotListed[] = [];
  let lastForbidden: ForbiddenError | undefined;
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
        if (e instanceof ForbiddenError) {
          notListed.push({ kind: info.title, reason: e.message });
          lastForbidden = e;
          return [];
        }
        throw e;
      }
    }),
  );
  if (lastForbidden && notListed.length === ROLLOUT_KINDS.length) throw lastForbidden;
  notListed.sort((a, b) => a.kind.localeCompare(b.kind));
  const rows = sortRows(
    perKind.flat(),
    ROLLOUT_KINDS.map((k) => k.names[0]!),
  );
  const note = notListed.map((n) => `not listed: ${n.kind} (${n.reason})\n`).join('');
  ctx.out(
    opts.output === 'table'
      ? `${formatList(rows, opts.allNamespaces)}\n${note}`
      : formatStructured(opts.output, { items: rows, ...(notListed.length > 0 ? { notListed } : {}) }),
  );
  return rows;
}
