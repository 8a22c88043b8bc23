import { describe, expect, it } from 'vitest';
import {
  attachmentType,
  departmentLabels,
  departments,
  labelOf,
  requestCategoryLabels,
  requestStatuses,
  requestStatusLabels,
  roleListText,
} from './enums.ts';

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

describe('labelOf', () => {
  it('writes a stored value in the words the pages use', () => {
    expect(labelOf(requestStatusLabels, 'on_progress')).toBe('On progress');
    expect(labelOf(requestCategoryLabels, 'accomodation')).toBe('Accommodation');
    expect(labelOf(departmentLabels, 'stemKits')).toBe('Stem Kits');
  });

  it('keeps a value it has no words for, rather than showing nothing', () => {
    expect(labelOf(requestStatusLabels, 'archived_by_a_later_version')).toBe(
      'archived_by_a_later_version',
    );
  });

  it('has words for every request status and department', () => {
    expect(Object.keys(requestStatusLabels).sort()).toEqual([...requestStatuses].sort());
    expect(Object.keys(departmentLabels).sort()).toEqual([...departments].sort());
  });
});

describe('roleListText', () => {
  it('lists positions as British English does', () => {
    expect(roleListText(['finance_officer'])).toBe('Finance Officer');
    expect(roleListText(['finance_officer', 'executive_secretary'])).toBe(
      'Finance Officer and Executive Secretary',
    );
    expect(roleListText(['finance_officer', 'executive_secretary', 'director'])).toBe(
      'Finance Officer, Executive Secretary and Director',
    );
    expect(roleListText([])).toBe('');
  });
});
