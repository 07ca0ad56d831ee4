/**
 * The activity chart's colours, one per outcome (docs/protocol.md#activity). Each has at least the
 * 3:1 contrast with the white page that WCAG 2.2 SC 1.4.11 asks of graphics; a white gap between
 * stacked segments keeps neighbours apart, and the legend and the data table carry the same
 * information without colour.
 */

export const OUTCOME_COLOURS: Readonly<Record<string, string>> = {
  ok: '#1a7f37',
  essai: '#0969da',
  autre_domaine: '#bc4c00',
  transfert: '#8250df',
  regeneration: '#57606a',
  revocation: '#cf222e',
  expiree: '#8a6100',
  inconnue: '#24292f',
};

/** For a motif a later service adds: picked in turn, by its place among the unknown ones. */
export const SPARE_COLOURS: readonly string[] = ['#953800', '#1b7c83', '#6639ba', '#4d2d00'];

/** The known motifs in the order the chart stacks them (docs/protocol.md#reasons). */
export const KNOWN_MOTIFS: readonly string[] = [
  'autre_domaine',
  'expiree',
  'inconnue',
  'revocation',
  'transfert',
  'regeneration',
];

/** WCAG 2.2 relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.2 contrast ratio of two `#rrggbb` colours, from 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
