// Waits that make a fresh sandbox look like the long-running kruise install OpenKruise's e2e specs expect.
import type { KubeClient } from '@regatta/kube';

/** The Nodes that have no NodeImage of their name yet (a NodeImage is named after its Node). */
export const nodesWithoutNodeImage = (nodes: readonly string[], nodeImages: readonly string[]): string[] =>
  nodes.filter((n) => !nodeImages.includes(n));

/** Polls until every Node has its NodeImage; throws after `timeoutMs`. Closes the client. */
export async function waitForNodeImages(kube: KubeClient, timeoutMs: number): Promise<void> {
  const names = async (apiVersion: string, kind: string) =>
    (await kube.list({ apiVersion, kind })).items.map((o) => o.metadata?.name ?? '');
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const missing = nodesWithoutNodeImage(
        await names('v1', 'Node'),
        await names('apps.kruise.io/v1alpha1', 'NodeImage'),
      );
      if (missing.length === 0) return;
      if (Date.now() > deadline)
        throw new Error(`no NodeImage after ${timeoutMs / 1000} s for the nodes ${missing.join(', ')}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await kube.close();
  }
}
