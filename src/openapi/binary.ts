// Bodies for binary media types: the smallest valid file of the type, so a client's download path can be
// tried: a one-page PDF, a 1×1 PNG or GIF, and empty bytes for anything else (application/octet-stream, zip …).
// Text media types (text/*, XML, JSON) are not binary: they are answered from their examples.

/** A one-page PDF with a correct cross-reference table (byte offsets computed, not copied). */
function onePagePdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const GIF_1X1 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

const base64 = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'base64'));

function isText(base: string): boolean {
  return (
    base.startsWith('text/') ||
    base.includes('json') ||
    base.endsWith('/xml') ||
    base.endsWith('+xml') ||
    base.endsWith('/json') ||
    base.endsWith('+json') ||
    base === 'application/x-www-form-urlencoded' ||
    base === 'application/javascript' ||
    base === 'application/yaml'
  );
}

/** The body and file extension for a binary media type; undefined for a text one. */
export function binaryBody(mediaType: string): { readonly bytes: Uint8Array; readonly ext: string } | undefined {
  const base = mediaType.split(';')[0]!.trim().toLowerCase();
  if (isText(base) || base === 'multipart/form-data' || base.startsWith('multipart/')) return undefined;
  if (base === 'application/pdf') return { bytes: onePagePdf(), ext: '.pdf' };
  if (base === 'image/png') return { bytes: base64(PNG_1X1), ext: '.png' };
  if (base === 'image/gif') return { bytes: base64(GIF_1X1), ext: '.gif' };
  return { bytes: new Uint8Array(0), ext: '.bin' };
}
