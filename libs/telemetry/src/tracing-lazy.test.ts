// startTracing loads the OpenTelemetry SDK only when tracing is on (docs/adr/0051, fifth amendment): a program
// without an endpoint never evaluates the SDK and its exporters. vi.mock's factory runs when the module is first
// imported, so it records whether anything imported the SDK.
import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => ({ sdk: 0, started: 0 }));

vi.mock('@opentelemetry/sdk-node', () => {
  loaded.sdk++;
  return {
    NodeSDK: class {
      start(): void {
        loaded.started++;
      }
      shutdown(): Promise<void> {
        return Promise.resolve();
      }
    },
  };
});

describe('startTracing loads the SDK lazily', () => {
  it('does not import it when no endpoint is configured, and does once one is', async () => {
    const { startTracing } = await import('./tracing.js');
    const off = await startTracing({ serviceName: 'svc', env: {} });
    expect(off.enabled).toBe(false);
    expect(loaded.sdk).toBe(0);

    const on = await startTracing({ serviceName: 'svc', endpoint: 'http://127.0.0.1:1', env: {} });
    expect(on.enabled).toBe(true);
    expect(loaded).toEqual({ sdk: 1, started: 1 });
    await on.shutdown();
  });
});
