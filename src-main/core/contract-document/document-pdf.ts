import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, setLineWidth, setTextRenderingMode, TextRenderingMode, type PDFFont, type PDFPage } from 'pdf-lib';
import type { DocumentParagraph } from '../../../src-shared/contract-document/text';
import type { ShippedFont } from './shipped-font';

// The filled document as a PDF for signature (issue 29): its paragraphs laid out on A4 pages with
// the font the app ships (Noto Sans SC, so Chinese prints on any machine), text kept as text so it
// can be searched and extracted. Word's own layout (tables, images, exact spacing) is the DOCX's;
// the PDF carries the document's words in reading order.

const page = { width: 595.28, height: 841.89, marginX: 64, marginY: 72 };
const sizes = { normal: 11, heading: 14, title: 18 } as const;
const lineHeight = 1.6;
// The shipped variable font's default instance is its thinnest weight, and pdf-lib embeds the font
// as stored (no instancing): an outline stroke of the glyphs' colour brings it to a regular weight.
const strokeWidth = { normal: 0.35, heading: 0.6 } as const;

interface Piece {
  text: string;
  font: PDFFont;
}

/** The shipped font's subsets embedded as the text needs them, and each character's width (fontkit measures slowly). */
class Fonts {
  private readonly embedded = new Map<string, PDFFont>();
  private readonly widths = new Map<string, number>();

  constructor(
    private readonly doc: PDFDocument,
    private readonly shipped: ShippedFont,
  ) {}

  private subset(character: string): string {
    return this.shipped.subsetOf(character.codePointAt(0)!);
  }

  /** Embeds the subsets `text` needs that are not embedded yet. */
  async prepare(text: string): Promise<void> {
    for (const subset of new Set([...text].map((character) => this.subset(character)))) {
      if (!this.embedded.has(subset)) this.embedded.set(subset, await this.doc.embedFont(await this.shipped.bytes(subset), { subset: true }));
    }
  }

  of(character: string): PDFFont {
    return this.embedded.get(this.subset(character))!;
  }

  /** The character's width at size 1. */
  width(character: string): number {
    let width = this.widths.get(character);
    if (width === undefined) {
      width = this.of(character).widthOfTextAtSize(character, 1);
      this.widths.set(character, width);
    }
    return width;
  }
}

/** Lays paragraphs out line by line, breaking at the page's width (CJK breaks anywhere, Latin at spaces when it can). */
class Layout {
  private current: PDFPage;
  private y = page.height - page.marginY;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
  ) {
    this.current = this.newPage();
  }

  private newPage(): PDFPage {
    const added = this.doc.addPage([page.width, page.height]);
    added.pushOperators(setTextRenderingMode(TextRenderingMode.FillAndOutline), setLineWidth(strokeWidth.normal));
    this.y = page.height - page.marginY;
    this.current = added;
    return added;
  }

  /** Runs of one font each. */
  private pieces(text: string): Piece[] {
    const pieces: Piece[] = [];
    for (const character of text) {
      const font = this.fonts.of(character);
      const last = pieces.at(-1);
      if (last && last.font === font) last.text += character;
      else pieces.push({ text: character, font });
    }
    return pieces;
  }

  private textWidth(text: string, size: number): number {
    let width = 0;
    for (const character of text) width += this.fonts.width(character);
    return width * size;
  }

  /** Splits a line into lines that fit the width. */
  private wrap(text: string, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    let lineWidth = 0;
    let lastSpace = -1;
    for (const character of text) {
      const w = this.fonts.width(character) * size;
      if (lineWidth + w > width && line !== '') {
        const breakAt = character !== ' ' && lastSpace > 0 ? lastSpace : line.length;
        lines.push(line.slice(0, breakAt).trimEnd());
        line = line.slice(breakAt).trimStart();
        lineWidth = this.textWidth(line, size);
        lastSpace = -1;
      }
      if (character === ' ') lastSpace = line.length;
      line += character;
      lineWidth += w;
    }
    lines.push(line);
    return lines;
  }

  async paragraph(paragraph: DocumentParagraph, first: boolean): Promise<void> {
    const size = first && paragraph.heading ? sizes.title : paragraph.heading ? sizes.heading : sizes.normal;
    const centered = paragraph.centered || (first && paragraph.heading);
    const available = page.width - 2 * page.marginX;
    const step = size * lineHeight;
    const text = paragraph.text.replace(/\t/g, '    ');
    await this.fonts.prepare(text);
    for (const line of text.split('\n').flatMap((part) => this.wrap(part, size, available))) {
      if (this.y - step < page.marginY) this.newPage();
      this.y -= step;
      let x = centered ? page.marginX + (available - this.textWidth(line, size)) / 2 : page.marginX;
      if (paragraph.heading) this.current.pushOperators(setLineWidth(strokeWidth.heading));
      for (const piece of this.pieces(line)) {
        this.current.drawText(piece.text, { x, y: this.y, size, font: piece.font, color: rgb(0.1, 0.1, 0.1) });
        x += this.textWidth(piece.text, size);
      }
      if (paragraph.heading) this.current.pushOperators(setLineWidth(strokeWidth.normal));
    }
    // Space after a paragraph, as Word's default paragraph spacing.
    this.y -= size * 0.5;
  }
}

/** The PDF of a document's paragraphs, titled with the contract's name. */
export async function documentPdf(paragraphs: readonly DocumentParagraph[], title: string, shipped: ShippedFont): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(title);
  doc.setCreator('Contract Desk');
  const layout = new Layout(doc, new Fonts(doc, shipped));
  let first = true;
  for (const paragraph of paragraphs) {
    await layout.paragraph(paragraph, first);
    first = false;
  }
  return doc.save();
}
