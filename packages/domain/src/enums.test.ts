import { describe, expect, it } from 'vitest';
import { attachmentType } from './enums.ts';

describe('attachmentType', () => {
  it.each([
    ['photo.PNG', 'image'],
    ['scan.jpeg', 'image'],
    ['a.webp', 'image'],
    ['report.docx', 'msdoc'],
    ['sheet.xlsx', 'msdoc'],
    ['slides.pptx', 'msdoc'],
    ['receipt.pdf', 'pdf'],
    ['bundle.zip', 'zip'],
    ['notes.txt', 'none'],
    ['noextension', 'none'],
  ])('%s is %s', (name, type) => {
    expect(attachmentType(name)).toBe(type);
  });
});
