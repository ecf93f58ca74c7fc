// CSV text → JSON text: a bare array with one object per row, keyed by the header row, fields in column order,
// rows in source order, every value a JSON string (the reference never infers types).
//
// RFC 4180 with the leniencies of the reference's reader (Rust csv crate): CRLF, LF and a lone CR all end a
// record; a leading BOM is dropped; completely empty lines are skipped; a quote only opens a quoted field at the
// start of a field (elsewhere it is literal); text after a closing quote joins the field; an unterminated quoted
// field runs to the end of the input. A row whose field count differs from the header's is an error.

export class CsvError extends Error {
  constructor(
    message: string,
    /** 1-based record number (the header is record 1) */
    readonly record: number,
  ) {
    super(message);
  }
}

// sticky: the run of plain characters starting at lastIndex (a quote inside an unquoted field is literal)
const UNQUOTED_RUN = /[^,\r\n]+/y;

/** Split CSV text into records of fields. */
export function parseCsv(text: string): string[][] {
  const src = text.startsWith('\ufeff') ? text.slice(1) : text;
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let sawAny = false; // the current record has at least one character (so an empty line is skipped)
  let i = 0;
  const endField = (): void => {
    fields.push(field);
    field = '';
  };
  const endRecord = (): void => {
    if (sawAny) {
      endField();
      records.push(fields);
    }
    fields = [];
    field = '';
    sawAny = false;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '"' && field === '' && (fields.length === 0 ? !sawAny : src[i - 1] === ',')) {
      // quoted field: up to the closing quote, '""' is a literal quote
      sawAny = true;
      i++;
      for (;;) {
        const q = src.indexOf('"', i);
        if (q < 0) {
          field += src.slice(i);
          i = src.length;
          break;
        }
        field += src.slice(i, q);
        if (src[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      continue;
    }
    if (c === ',') {
      sawAny = true;
      endField();
      i++;
    } else if (c === '\n' || c === '\r') {
      endRecord();
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
    } else {
      sawAny = true;
      UNQUOTED_RUN.lastIndex = i;
      UNQUOTED_RUN.test(src);
      field += src.slice(i, UNQUOTED_RUN.lastIndex);
      i = UNQUOTED_RUN.lastIndex;
    }
  }
  endRecord();
  return records;
}

/** CSV text → minified JSON array text. Throws CsvError on a row whose length differs from the header's. */
export function csvToJson(text: string): string {
  const [header, ...rows] = parseCsv(text);
  if (header === undefined) return '[]';
  const keys = header.map((h) => JSON.stringify(h));
  const parts: string[] = [];
  rows.forEach((row, index) => {
    if (row.length !== header.length) {
      throw new CsvError(
        `record ${index + 2} has ${row.length} fields, but the header has ${header.length}`,
        index + 2,
      );
    }
    // a repeated header keeps its first position and takes the last value, like an ordered map
    const members = new Map<string, string>();
    row.forEach((value, column) => members.set(keys[column]!, JSON.stringify(value)));
    parts.push('{' + [...members].map(([k, v]) => k + ':' + v).join(',') + '}');
  });
  return '[' + parts.join(',') + ']';
}
