// Formatting JSON5 numbers as JSON text the way the reference does (serde_json, which prints floats with ryu).
// Integers keep every digit (any size); floats print their shortest round-trip digits, always with a fraction or
// an exponent: `5.` → `5.0`, `1e2` → `100.0`, `1.50` → `1.5`, `1e16` → `1e16`, `0.00001` → `1e-5`.

/** An integer literal (decimal digits or 0x hex, optional sign) as exact JSON digits: `+5` → `5`, `0x10` → `16`, `-0` → `0`. */
export function formatInteger(sign: '' | '+' | '-', digits: string): string {
  const magnitude = BigInt(digits);
  return (sign === '-' ? -magnitude : magnitude).toString();
}

/** A float as ryu prints it (what serde_json emits); NaN and ±Infinity have no JSON form and become null. */
export function formatFloat(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest digits that round-trip, like ryu.
  const [mantissa = '', exponent = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const length = digits.length;
  const kk = Number(exponent) + 1; // value = 0.digits × 10^kk
  const k = kk - length; // value = digits × 10^k
  if (k >= 0 && kk <= 16) return sign + digits + '0'.repeat(k) + '.0';
  if (kk > 0 && kk <= 16) return sign + digits.slice(0, kk) + '.' + digits.slice(kk);
  if (kk > -5 && kk <= 0) return sign + '0.' + '0'.repeat(-kk) + digits;
  const tail = length === 1 ? '' : '.' + digits.slice(1);
  return sign + digits[0] + tail + 'e' + String(kk - 1);
}
