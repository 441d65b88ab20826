/**
 * resource.Quantity: parse, compare, add and print in canonical form, with apimachinery's rules. The value is held
 * exactly as a BigInt count of nano-units (10⁻⁹), the smallest unit a Quantity keeps: finer input is rounded up
 * (away from zero), so `0.1n` becomes `1n`.
 *
 * Canonical form (what the API server stores and prints):
 * - DecimalSI / DecimalExponent: the largest exponent that is a multiple of 3 with an integer mantissa
 *   (`1000m` → `1`, `0.1` → `100m`, `1000` → `1k`, `1e3` stays `1e3`);
 * - BinarySI: the largest power of 1024 with an integer mantissa (`1.5Gi` → `1536Mi`); values below 1024 in
 *   magnitude or with a fractional part are printed as DecimalSI (`0.5Ki` → `512`).
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A string that is not a quantity; the message shows the accepted syntax. */
export class QuantityParseError extends Error {
  readonly code = 'REGATTA_KUBE_INVALID_QUANTITY';

  constructor(
    readonly input: string,
    reason: string,
  ) {
    super(
      `invalid quantity ${JSON.stringify(input)}: ${reason}; write a number with an optional suffix ` +
        `(n u m k M G T P E, Ki Mi Gi Ti Pi Ei, or an exponent such as 1e3), e.g. "500m" or "1.5Gi"`,
    );
    this.name = 'QuantityParseError';
  }
}

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_NAMES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
/** Exponents beyond this are refused rather than expanded into enormous BigInts. */
const MAX_EXPONENT = 64;

const NANO = 1_000_000_000n;
/** apimachinery caps BinarySI quantities at MaxInt64. */
const MAX_BINARY_NANOS = (2n ** 63n - 1n) * NANO;
/** Sign, digits, optional fraction, then suffix letters, optional sign and digits (apimachinery's scanner). */
const QUANTITY_RE = /^([+-]?)(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[+-]?\d*)$/;

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Divides magnitudes rounding up (away from zero). */
function ceilDivAbs(a: bigint, b: bigint): bigint {
  const neg = a < 0n;
  const m = neg ? -a : a;
  const q = (m + b - 1n) / b;
  return neg ? -q : q;
}

function interpretSuffix(input: string, suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  const dec = DECIMAL_SUFFIXES[suffix];
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES[suffix];
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1));
    if (Math.abs(exponent) > MAX_EXPONENT) throw new QuantityParseError(input, `exponent ${exponent} is out of range`);
    return { base: 10, exponent, format: 'DecimalExponent' };
  }
  throw new QuantityParseError(input, `unknown suffix ${JSON.stringify(suffix)}`);
}

export class Quantity {
  private constructor(
    /** The exact value in nano-units. */
    readonly nanos: bigint,
    readonly format: QuantityFormat,
  ) {}

  /** Parses a quantity string (or a JSON number, as apimachinery's unmarshaller accepts); throws {@link QuantityParseError}. */
  static parse(input: string | number): Quantity {
    const str = typeof input === 'number' ? String(input) : input;
    if (str.length === 0) throw new QuantityParseError(str, 'empty string');
    const m = QUANTITY_RE.exec(str);
    if (!m) throw new QuantityParseError(str, 'unexpected characters');
    const [, sign = '', intPart = '', fracPart = '', suffix = ''] = m;
    const { base, exponent, format } = interpretSuffix(str, suffix);
    // like apimachinery, a missing integer part is 0 ("", ".5", "-" alone are all numbers)
    let n = BigInt((intPart || '0') + fracPart);
    if (sign === '-') n = -n;
    const scale = fracPart.length;
    let nanos: bigint;
    if (base === 10) {
      const shift = exponent - scale + 9;
      nanos = shift >= 0 ? n * pow10(shift) : ceilDivAbs(n, pow10(-shift));
    } else {
      nanos = ceilDivAbs(n * (1n << BigInt(exponent)) * NANO, pow10(scale));
    }
    let fmt = format;
    if (fmt === 'BinarySI') {
      if (nanos > MAX_BINARY_NANOS) nanos = MAX_BINARY_NANOS;
      if (nanos < -MAX_BINARY_NANOS) nanos = -MAX_BINARY_NANOS;
      if (nanos < NANO && nanos > -NANO) fmt = 'DecimalSI';
    }
    return new Quantity(nanos, fmt);
  }

  /** A quantity of `nanos` nano-units. */
  static fromNanos(nanos: bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(nanos, format);
  }

  /** A whole-unit quantity, e.g. `Quantity.fromInt(2)` → `2`, `Quantity.fromInt(1024, 'BinarySI')` → `1Ki`. */
  static fromInt(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(value) * NANO, format);
  }

  /** A milli-unit quantity, e.g. `Quantity.fromMilli(1500)` → `1500m`. */
  static fromMilli(milli: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(milli) * 1_000_000n, format);
  }

  isZero(): boolean {
    return this.nanos === 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.nanos === 0n ? 0 : this.nanos < 0n ? -1 : 1;
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `other`. */
  cmp(other: Quantity): -1 | 0 | 1 {
    return this.nanos === other.nanos ? 0 : this.nanos < other.nanos ? -1 : 1;
  }

  equals(other: Quantity): boolean {
    return this.nanos === other.nanos;
  }

  /** Sum; keeps this quantity's format unless this is zero (then the other's), as apimachinery does. */
  add(other: Quantity): Quantity {
    return new Quantity(this.nanos + other.nanos, this.isZero() ? other.format : this.format);
  }

  sub(other: Quantity): Quantity {
    return new Quantity(this.nanos - other.nanos, this.isZero() ? other.format : this.format);
  }

  neg(): Quantity {
    return new Quantity(-this.nanos, this.format);
  }

  /** The value in whole units, rounded away from zero (apimachinery `Value()`). */
  value(): number {
    return Number(ceilDivAbs(this.nanos, NANO));
  }

  /** The value in milli-units, rounded away from zero (apimachinery `MilliValue()`). */
  milliValue(): number {
    return Number(ceilDivAbs(this.nanos, 1_000_000n));
  }

  /** The canonical string. */
  toString(): string {
    if (this.nanos === 0n) return '0';
    if (this.format === 'BinarySI' && (this.nanos >= 1024n * NANO || this.nanos <= -1024n * NANO) && this.nanos % NANO === 0n) {
      let m = this.nanos / NANO;
      let e = 0;
      while (e < BINARY_NAMES.length - 1 && m % 1024n === 0n) {
        m /= 1024n;
        e++;
      }
      return `${m}${BINARY_NAMES[e]}`;
    }
    let m = this.nanos;
    let e = -9;
    while (m % 10n === 0n) {
      m /= 10n;
      e++;
    }
    const r = ((e % 3) + 3) % 3;
    m *= pow10(r);
    e -= r;
    if (this.format === 'DecimalExponent') return e === 0 ? `${m}` : `${m}e${e}`;
    const suffix = DECIMAL_BY_EXPONENT.get(e);
    // beyond Exa there is no SI suffix; apimachinery has no defined output there, the exponent form is exact
    return suffix === undefined ? `${m}e${e}` : `${m}${suffix}`;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** Parses a quantity; throws {@link QuantityParseError}. */
export function parseQuantity(input: string | number): Quantity {
  return Quantity.parse(input);
}

/** Compares two quantities given as strings or values: negative, zero or positive. */
export function compareQuantities(a: string | number | Quantity, b: string | number | Quantity): -1 | 0 | 1 {
  const qa = a instanceof Quantity ? a : Quantity.parse(a);
  const qb = b instanceof Quantity ? b : Quantity.parse(b);
  return qa.cmp(qb);
}

/** The canonical form of a quantity string, e.g. `"1.5Gi"` → `"1536Mi"`. */
export function canonicalQuantity(input: string | number): string {
  return Quantity.parse(input).toString();
}
