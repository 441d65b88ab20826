/**
 * Keeps one MutatingAdmissionPolicy and binding per compilable SidecarSet (compile.ts) in step with the SidecarSets,
 * and removes those of SidecarSets gone or no longer compilable (docs/adr/0089-sidecarset-injection-policies.md).
 * It runs where the pod webhook's configuration is recomputed (on every keeper pass and on each SidecarSet change):
 * `follow` returns, for the webhook entries of compiled SidecarSets, the condition that skips a pod the policy already
 * injected, and starts a sync in the background (one at a time; a change during a sync runs another after it).
 *
 * Served-API detection: on a cluster that does not serve `admissionregistration.k8s.io/v1` mutatingadmissionpolicies
 * (before Kubernetes 1.36, or with the API off) nothing is compiled and every SidecarSet stays on the webhook.
 */
import { SpecGuard, type KubeClient, type KubeObject } from '@regatta/kube';
import type { Logger } from '@regatta/runtime';
import type { AnySidecarSet } from '../injection/types.js';
import { specProblem } from '../spec-guard.js';
import {
  INJECTION_POLICY_LABEL,
  POLICY_API_VERSION,
  type PolicyCompileOptions,
  injectionPolicyObjects,
  notInjected,
  webhookOnlyReason,
} from './compile.js';

const FIELD_MANAGER = 'regatta-sidecarset';

/** The names of a SidecarSet's sidecars (its containers and init containers), each once. */
function sidecarNames(s: AnySidecarSet): string[] {
  return [...new Set([...(s.spec.containers ?? []), ...(s.spec.initContainers ?? [])].map((c) => c.name))];
}
const KINDS = ['MutatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy'] as const;

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface InjectionPolicyKeeperOptions {
  client: Pick<KubeClient, 'request' | 'list' | 'patch' | 'delete'>;
  log: Logger;
  scope?: { matchLabels: Record<string, string> };
  compile?: PolicyCompileOptions;
}

/** Whether the API server serves admissionregistration.k8s.io/v1 MutatingAdmissionPolicy. */
export async function servesMutatingAdmissionPolicy(client: Pick<KubeClient, 'request'>): Promise<boolean> {
  try {
    const list = await client.request<{ resources?: { name: string }[] }>('GET', `/apis/${POLICY_API_VERSION}`);
    return (list.resources ?? []).some((r) => r.name === 'mutatingadmissionpolicies');
  } catch (err) {
    if (/404|not found/i.test(String(err))) return false;
    throw err;
  }
}

export class InjectionPolicyKeeper {
  private served: boolean | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private latest: readonly AnySidecarSet[] = [];
  /** name → the JSON last applied (so an unchanged policy is not written again). */
  private readonly applied = new Map<string, string>();
  /** name → the JSON the API server refused as invalid. */
  private readonly refused = new Map<string, string>();

  private scope: { matchLabels: Record<string, string> } | undefined;

  /** Each SidecarSet's own admission rules, checked once per generation (spec-guard.ts). */
  private readonly guard = new SpecGuard<AnySidecarSet>(specProblem);

  constructor(private readonly o: InjectionPolicyKeeperOptions) {
    this.scope = o.scope;
  }

  private get labelValue(): string {
    return this.scope ? Object.values(this.scope.matchLabels).join('-') || 'scoped' : 'all';
  }

  /**
   * The SidecarSets the policies inject (on a cluster serving them), by name. One that fails its own admission rules
   * (stored while the SidecarSet webhook was off) is never compiled: the pod webhook injects no such SidecarSet either.
   */
  compiled(sidecarSets: readonly AnySidecarSet[]): AnySidecarSet[] {
    if (this.served !== true) return [];
    this.guard.retainOnly(new Set(sidecarSets.map((s) => s.metadata?.name ?? '')));
    // a sidecar name another SidecarSet also injects: only the webhook sees the two meet in a pod and refuses it
    const owners = new Map<string, number>();
    for (const s of sidecarSets) for (const n of sidecarNames(s)) owners.set(n, (owners.get(n) ?? 0) + 1);
    return sidecarSets.filter(
      (s) =>
        sidecarNames(s).every((n) => owners.get(n) === 1) &&
        this.guard.problem(s.metadata?.name ?? '', s) === undefined &&
        webhookOnlyReason(s, this.o.compile) === undefined &&
        injectionPolicyObjects(s, this.scope),
    );
  }

  /**
   * The pod webhook entries' extra conditions (by SidecarSet name): a pod the policy injected is not sent to the
   * webhook. Starts a sync towards `sidecarSets`.
   */
  follow(
    sidecarSets: readonly AnySidecarSet[],
    /** The program's scope, as the webhook configurations get it. */
    scope?: { matchLabels: Record<string, string> },
  ): ReadonlyMap<string, MatchCondition[]> {
    if (scope) this.scope = scope;
    this.latest = sidecarSets;
    void this.sync();
    const out = new Map<string, MatchCondition[]>();
    for (const s of this.compiled(sidecarSets)) {
      const names = [...(s.spec.containers ?? []), ...(s.spec.initContainers ?? [])].map((c) => c.name);
      out.set(s.metadata?.name ?? '', [{ name: 'not-injected-by-policy', expression: notInjected(names) }]);
    }
    return out;
  }

  /** One sync at a time; a call during one runs another after it. Resolves once the policies follow the latest call. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.syncOnce(this.latest).catch((err: unknown) => {
            this.o.log.warn({ err }, 'the SidecarSet injection policies could not be kept in step; retried at the next pass');
          });
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async syncOnce(sidecarSets: readonly AnySidecarSet[]): Promise<void> {
    this.served ??= await servesMutatingAdmissionPolicy(this.o.client);
    if (!this.served) return;
    const desired = this.compiled(sidecarSets).flatMap((s) => injectionPolicyObjects(s, this.scope) ?? []);
    const wanted = new Set(desired.map((d) => `${d.kind}/${d.metadata?.name}`));
    // policies first, then their bindings
    for (const obj of desired) {
      const key = `${obj.kind}/${obj.metadata?.name}`;
      const text = JSON.stringify(obj);
      if (this.applied.get(key) === text || this.refused.get(key) === text) continue;
      try {
        await this.o.client.patch(
          { apiVersion: POLICY_API_VERSION, kind: obj.kind!, name: obj.metadata!.name! },
          obj,
          { type: 'apply', force: true, fieldManager: FIELD_MANAGER },
        );
      } catch (err) {
        // refused as invalid: not tried again until the SidecarSet changes (its pods stay on the webhook meanwhile)
        if (/422|invalid/i.test(String(err))) this.refused.set(key, text);
        throw err;
      }
      this.applied.set(key, text);
    }
    for (const kind of KINDS) {
      const list = await this.o.client.list<KubeObject>(
        { apiVersion: POLICY_API_VERSION, kind },
        { labelSelector: `${INJECTION_POLICY_LABEL}=${this.labelValue}` },
      );
      // one deleted behind the keeper's back is applied again at the next pass
      const present = new Set(list.items.map((i) => `${kind}/${i.metadata?.name}`));
      for (const key of this.applied.keys()) if (key.startsWith(`${kind}/`) && !present.has(key)) this.applied.delete(key);
      for (const item of list.items) {
        const key = `${kind}/${item.metadata?.name}`;
        if (wanted.has(key)) continue;
        await this.o.client.delete({ apiVersion: POLICY_API_VERSION, kind, name: item.metadata!.name! }).catch((err: unknown) => {
          if (!/404|not found/i.test(String(err))) throw err;
        });
        this.applied.delete(key);
      }
    }
  }
}
