/** An init container with `restartPolicy: Always` (a Kubernetes native sidecar; `sidecarcontrol.IsSidecarContainer`). */
export function isNativeSidecar(c: { restartPolicy?: unknown }): boolean {
  return c.restartPolicy === 'Always';
}
