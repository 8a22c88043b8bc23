import { previewColumnLimit, previewRowLimit } from '@imprest/domain/files.ts';
import { Alert, Tabs } from 'antd';
import { useState } from 'react';
import { PreviewMessage } from './preview-parts.tsx';
import { useWorkerResult, workerStateMessage } from './use-worker-result.tsx';
import type { SheetResult, SheetTable } from './sheet.worker.ts';

const count = new Intl.NumberFormat('en-GB');

/** 0 → A, 25 → Z, 26 → AA: the spreadsheet's own column names. */
function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

type SheetPreviewProps = { fileName: string; bytes: Uint8Array };

/**
 * A spreadsheet (.xlsx) or CSV read in a worker and shown as a table, one sheet at a time, cut at
 * 1,000 rows and 100 columns with the real size said (issue 12).
 */
export function SheetPreview({ fileName, bytes }: SheetPreviewProps) {
  const state = useWorkerResult<SheetResult>(
    () => new Worker(new URL('./sheet.worker.ts', import.meta.url), { type: 'module' }),
    { bytes, fileName },
    bytes,
  );
  const [sheetIndex, setSheetIndex] = useState(0);

  switch (state.status) {
    case 'ready': {
      const sheets = state.result.sheets;
      if (sheets.length === 0) {
        return <PreviewMessage status="info" text="This spreadsheet is empty." />;
      }
      const sheet = sheets[Math.min(sheetIndex, sheets.length - 1)] ?? sheets[0];
      return (
        <div className="preview-frame" data-testid="sheet-preview">
          {sheets.length > 1 ? (
            <Tabs
              size="small"
              activeKey={String(sheetIndex)}
              onChange={(key) => setSheetIndex(Number(key))}
              items={sheets.map((item, index) => ({ key: String(index), label: item.name }))}
            />
          ) : null}
          {sheet ? <SheetView sheet={sheet} /> : null}
        </div>
      );
    }
    default:
      return workerStateMessage(state, 'spreadsheet');
  }
}

function SheetView({ sheet }: { sheet: SheetTable }) {
  if (sheet.totalRows === 0) {
    return <PreviewMessage status="info" text="This sheet is empty." />;
  }
  const columns = Math.min(sheet.totalColumns, previewColumnLimit);
  const isCut = sheet.totalRows > previewRowLimit || sheet.totalColumns > previewColumnLimit;
  return (
    <>
      {isCut ? (
        <Alert
          type="info"
          showIcon
          className="preview-sheet-note"
          data-testid="sheet-limit"
          title={
            sheet.totalRows > previewRowLimit
              ? `Showing the first ${count.format(previewRowLimit)} of ${count.format(sheet.totalRows)} rows. Download the file to see them all.`
              : `Showing the first ${previewColumnLimit} of ${count.format(sheet.totalColumns)} columns. Download the file to see them all.`
          }
        />
      ) : null}
      <div className="preview-stage preview-sheet" tabIndex={0}>
        <table className="preview-sheet-table">
          <thead>
            <tr>
              <th className="preview-sheet-corner" />
              {Array.from({ length: columns }, (_, index) => (
                <th key={index} scope="col">
                  {columnName(index)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sheet.rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                <th scope="row">{rowIndex + 1}</th>
                {Array.from({ length: columns }, (_, index) => (
                  <td key={index}>{row[index] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
