// Unicode case folding of one path segment, done by us so matching is identical on every platform.
//
// Full case folding (CaseFolding.txt, statuses C and F) is reproduced with the locale-independent
// String.prototype.toLowerCase/toUpperCase of the engine: lower → upper → lower turns 'ß', 'ẞ' and 'ﬀ' into
// 'ss' and 'ff', 'ſ' into 's', the Kelvin sign into 'k', titlecase 'ǅ' into 'ǆ'. Two spots need care:
// - toLowerCase applies the context rule for final sigma, so every 'ς' is mapped to 'σ' afterwards (folding
//   maps both sigmas to 'σ');
// - upper-casing the Turkish dotless 'ı' gives 'I', which would fold it into 'i'; case folding leaves 'ı' alone,
//   so the text is folded around it.
// No NFC/NFD normalisation is performed: 'é' (U+00E9) and 'e' + U+0301 stay different.

const DOTLESS_I = 'ı';

function foldRun(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase();
  return text.toLowerCase().toUpperCase().toLowerCase().replace(/ς/g, 'σ');
}

/** The case-folded form of a segment: two names match case-insensitively when their folds are equal. */
export function foldCase(segment: string): string {
  if (!segment.includes(DOTLESS_I)) return foldRun(segment);
  return segment.split(DOTLESS_I).map(foldRun).join(DOTLESS_I);
}
