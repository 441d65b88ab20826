// The ContainerRecreateRequest manager, declared (upstream `pkg/controller/containerrecreaterequest`): requests and
// the pods they name, fed by the watcher over the bus; it completes what the node agent cannot (pod gone, no answer,
// deadline), holds pods not ready first when asked, drops the active label and deletes after the TTL; and serves the
// admission webhooks that read the pod. The recreation itself is the node agent's (apps/imagepull-agent, its recreate
// duty). It never watches the API server (docs/containerrecreaterequest.md).
import { KINDS } from '@regatta/api';
import {
  CONTROLLER_NAME,
  CrrReconciler,
  MUTATE_CRR_PATH,
  VALIDATE_CRR_PATH,
  apiServerPods,
  crrDefaulter,
  crrValidator,
  crrWebhookConfigurations,
  crrsForPodChange,
} from '@regatta/containerrecreaterequest';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';

const containerrecreaterequest = ControllerBuilder.controller({
  name: 'containerrecreaterequest',
  eventComponent: CONTROLLER_NAME,
  maxConcurrentReconciles: 3,
})
  // the agent's status writes move a request on (Recreating → sync statuses, Completed → TTL)
  .for('crrs', KINDS.containerrecreaterequests, { predicates: [] })
  .watches('pods', KINDS.pods, crrsForPodChange)
  .webhooks(({ client }) => ({
    routes: [
      mutating(MUTATE_CRR_PATH, crrDefaulter(apiServerPods(client))),
      validating(VALIDATE_CRR_PATH, crrValidator()),
    ],
    configurations: (url, ca, scope) => crrWebhookConfigurations(url, ca, scope),
  }))
  .reconciler(({ readers, client }) => new CrrReconciler({ crrs: readers.crrs, pods: readers.pods, client }));

await runController(containerrecreaterequest);
