import { InvalidOptionsError } from './errors.js';

/** Known gates with their defaults (OpenKruise's names, e.g. `{ PreparingUpdateAsUpdate: false }`). */
export type FeatureGateDefaults<G extends string> = Readonly<Record<G, boolean>>;

/**
 * Parses OpenKruise's `--feature-gates` syntax (`A=true,B=false`; spaces ignored) against the gates a program knows.
 * An unknown gate or a value other than true/false is an error naming the variable, so a typo never silently keeps
 * a default.
 */
export function parseFeatureGates<G extends string>(
  what: string,
  value: string | undefined,
  defaults: FeatureGateDefaults<G>,
): Record<G, boolean> {
  const gates = { ...defaults } as Record<G, boolean>;
  for (const part of (value ?? '').split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim();
    const raw =
      eq < 0
        ? ''
        : item
            .slice(eq + 1)
            .trim()
            .toLowerCase();
    if (!Object.hasOwn(defaults, name)) {
      throw new InvalidOptionsError(
        what,
        `unknown feature gate '${name}' (known: ${Object.keys(defaults).sort().join(', ')})`,
      );
    }
    if (raw !== 'true' && raw !== 'false') {
      throw new InvalidOptionsError(what, `feature gate '${name}' needs =true or =false, got '${item}'`);
    }
    gates[name as G] = raw === 'true';
  }
  return gates;
}
