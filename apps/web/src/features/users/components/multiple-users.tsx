import {
  CheckCircleOutlined,
  DeleteOutlined,
  DownloadOutlined,
  ExclamationCircleOutlined,
} from '@ant-design/icons';
import { defaultPageSize } from '@imprest/domain/constants.ts';
import type { Department } from '@imprest/domain/enums.ts';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Flex,
  Input,
  Segmented,
  Select,
  Spin,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useMemo, useState } from 'react';
import { FileChip } from '../../../components/files/components/file-chip.tsx';
import { FileUploadArea } from '../../../components/files/components/file-upload-area.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/api-download.ts';
import { tablePagination } from '../../../lib/pagination.tsx';
import { departmentLabel } from '../../../lib/request-labels.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useCreateUsers, type NewUserInput } from '../api/create-users.ts';
import { useTakenEmails } from '../api/get-taken-emails.ts';
import {
  csvColumns,
  decodeCsv,
  departmentOf,
  digitsOnly,
  parseUsersCsv,
  rowProblems,
  serverErrorsByRow,
  templateCsv,
  templateFileName,
  type CsvUserRow,
} from '../utils/users-csv.ts';
import { createUserFailed } from './user-messages.ts';
import { departmentOptions } from './user-labels.ts';
import './users.css';

type ViewMode = 'preview' | 'edit';

type MultipleUsersProps = {
  onAdded: (count: number) => void;
  onCancel: () => void;
};

type EditableField = 'fullname' | 'department' | 'phone_number' | 'email';

/** Spec §5: each user of a bulk upload gets the staff position. */
function toNewUser(row: CsvUserRow): NewUserInput {
  return {
    fullname: row.fullname.trim(),
    email: row.email.trim(),
    department: (departmentOf(row.department) ?? row.department) as Department,
    role: 'staff',
    system_role: 'staff',
    phone_number: row.phone_number || null,
  };
}

function downloadTemplate() {
  saveFile({ blob: new Blob([templateCsv], { type: 'text/csv' }), filename: templateFileName });
}

/**
 * Spec §2 New users, Multiple: the CSV template, a CSV-only upload read in the browser, and a
 * Preview / Edit table that marks every row that cannot be saved and lets it be fixed first. Save
 * stays disabled while any row needs fixing; what the server refuses is marked on its row too.
 */
export function MultipleUsers({ onAdded, onCancel }: MultipleUsersProps) {
  const isMobile = useIsMobile();
  const [fileName, setFileName] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [isReading, setIsReading] = useState(false);
  const [rows, setRows] = useState<CsvUserRow[]>([]);
  const [viewMode, setViewMode] = useState<ViewMode>('preview');
  // 'Only rows to fix' keeps the rows that needed fixing when it was ticked, fixed or not, so a
  // row does not vanish while it is being typed into.
  const [focusKeys, setFocusKeys] = useState<ReadonlySet<string> | null>(null);
  const [serverErrors, setServerErrors] = useState<Map<string, string[]>>(new Map());
  const [page, setPage] = useState({ current: 1, pageSize: defaultPageSize });
  const create = useCreateUsers();
  const createOnce = useOneAtATime(create);
  const takenEmails = useTakenEmails(rows.length > 0);

  const problems = useMemo(
    () => rowProblems(rows, { takenEmails: takenEmails.data ?? undefined, serverErrors }),
    [rows, takenEmails.data, serverErrors],
  );
  const shownRows = focusKeys ? rows.filter((row) => focusKeys.has(row.key)) : rows;
  const isChecking = rows.length > 0 && takenEmails.isPending;

  async function handleCsvFile(file: File) {
    setIsReading(true);
    setFileName(file.name);
    setFileError(null);
    setRows([]);
    setServerErrors(new Map());
    setFocusKeys(null);
    create.reset();
    try {
      const text = decodeCsv(await file.arrayBuffer());
      if (text === null) {
        setFileError(
          'The file is not UTF-8 text. Save it as "CSV UTF-8" in your spreadsheet and upload it again.',
        );
        return;
      }
      const result = parseUsersCsv(text);
      if ('error' in result) {
        setFileError(result.error);
        return;
      }
      setRows(result.rows);
      setViewMode('preview');
      setPage((current) => ({ ...current, current: 1 }));
    } catch {
      setFileError('The file could not be read.');
    } finally {
      setIsReading(false);
    }
  }

  function handleRemoveFile() {
    setFileName(null);
    setFileError(null);
    setRows([]);
    setServerErrors(new Map());
    setFocusKeys(null);
    create.reset();
  }

  function showOnlyProblems(isOnly: boolean, keys: Iterable<string> = problems.keys()) {
    setFocusKeys(isOnly ? new Set(keys) : null);
    setPage((current) => ({ ...current, current: 1 }));
  }

  function forgetServerErrors(key: string) {
    if (!serverErrors.has(key)) return;
    setServerErrors((current) => {
      const next = new Map(current);
      next.delete(key);
      return next;
    });
  }

  function changeCell(key: string, field: EditableField, value: string) {
    const next = field === 'phone_number' ? digitsOnly(value) : value;
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [field]: next } : row)));
    forgetServerErrors(key);
  }

  function removeRow(key: string) {
    setRows((current) => current.filter((row) => row.key !== key));
    forgetServerErrors(key);
  }

  function handleSave() {
    createOnce(rows.map(toNewUser), {
      onSuccess: (users) => onAdded(users.length),
      onError: (error) => {
        if (!isApiError(error) || error.details.length === 0) return;
        const mapped = serverErrorsByRow(rows, error.details);
        setServerErrors(mapped.byRow);
        if (mapped.byRow.size > 0) showOnlyProblems(true, mapped.byRow.keys());
      },
    });
  }

  const isEditing = viewMode === 'edit';
  /** A text column: the value in Preview, an input in Edit. */
  function textColumn(
    title: string,
    field: Exclude<EditableField, 'department'>,
    label: string,
    input: { inputMode?: 'numeric' | 'email'; minWidth: number },
  ): TableColumnsType<CsvUserRow>[number] {
    return {
      title,
      key: field,
      render: (_value, row) =>
        isEditing ? (
          <Input
            size="small"
            inputMode={input.inputMode}
            aria-label={`${label}, row ${row.row}`}
            value={row[field]}
            onChange={(event) => changeCell(row.key, field, event.target.value)}
            style={{ minWidth: input.minWidth }}
          />
        ) : (
          row[field]
        ),
    };
  }

  const columns: TableColumnsType<CsvUserRow> = [
    { title: 'ROW', dataIndex: 'row', key: 'row', width: 56 },
    textColumn('FULL NAME', 'fullname', 'Full name', { minWidth: 150 }),
    {
      title: 'DEPARTMENT',
      key: 'department',
      render: (_value, row) =>
        isEditing ? (
          <Select
            size="small"
            aria-label={`Department, row ${row.row}`}
            value={departmentOf(row.department) ?? undefined}
            placeholder={row.department || 'Choose'}
            options={departmentOptions}
            showSearch={{ optionFilterProp: 'label' }}
            onChange={(value: Department) => changeCell(row.key, 'department', value)}
            style={{ minWidth: 150 }}
          />
        ) : (
          departmentLabel(row.department)
        ),
    },
    textColumn('PHONE', 'phone_number', 'Phone', { inputMode: 'numeric', minWidth: 110 }),
    textColumn('EMAIL', 'email', 'E-mail', { inputMode: 'email', minWidth: 200 }),
    {
      title: 'CHECK',
      key: 'check',
      render: (_value, row) => {
        const list = problems.get(row.key);
        if (!list) {
          return (
            <Typography.Text type="success">
              <CheckCircleOutlined /> Ready
            </Typography.Text>
          );
        }
        return (
          <Flex vertical gap={2} className="csv-row-problems">
            {list.map((problem) => (
              <Typography.Text key={problem} type="danger">
                <ExclamationCircleOutlined /> {problem}
              </Typography.Text>
            ))}
          </Flex>
        );
      },
    },
  ];
  // On a phone the reasons come first after the row number, where they are seen without scrolling.
  if (isMobile) {
    const check = columns.pop();
    if (check) columns.splice(1, 0, check);
  }
  if (isEditing) {
    columns.push({
      title: <span className="sr-only">Remove</span>,
      key: 'remove',
      width: 48,
      render: (_value, row) => (
        <Button
          type="text"
          danger
          size="small"
          icon={<DeleteOutlined />}
          aria-label={`Remove row ${row.row}`}
          onClick={() => removeRow(row.key)}
        />
      ),
    });
  }

  const problemCount = problems.size;
  const canSave = rows.length > 0 && problemCount === 0 && !isChecking;

  return (
    <Flex vertical gap={16}>
      <Card title="Add several users" size={isMobile ? 'small' : 'medium'}>
        <Flex vertical gap={16}>
          <Flex gap={12} align="center" wrap justify="space-between">
            <Typography.Text type="secondary" style={{ flex: '1 1 260px' }}>
              One user per line with the columns {csvColumns.join(', ')}. Every user added this way
              gets the Staff position and an e-mail to choose a password.
            </Typography.Text>
            <Button icon={<DownloadOutlined />} onClick={downloadTemplate}>
              {templateFileName}
            </Button>
          </Flex>
          <FileUploadArea type="csv" onCsvFile={(file) => void handleCsvFile(file)} />
          {fileName ? (
            <div className="file-chips">
              <FileChip
                label={fileName}
                hasError={Boolean(fileError)}
                onRemove={handleRemoveFile}
              />
            </div>
          ) : null}
          {isReading ? <Spin size="small" /> : null}
          {fileError ? (
            <Alert type="error" showIcon title={fileError} data-testid="csv-error" />
          ) : null}
        </Flex>
      </Card>

      {rows.length > 0 ? (
        <Card size={isMobile ? 'small' : 'medium'} data-testid="csv-preview">
          <Flex vertical gap={12}>
            <Flex gap={12} align="center" wrap justify="space-between">
              <Segmented<ViewMode>
                aria-label="Preview or edit"
                value={viewMode}
                onChange={setViewMode}
                options={[
                  { label: 'Preview', value: 'preview' },
                  { label: 'Edit', value: 'edit' },
                ]}
              />
              <Checkbox
                checked={focusKeys !== null}
                onChange={(event) => showOnlyProblems(event.target.checked)}
              >
                Only rows to fix
              </Checkbox>
            </Flex>
            {isChecking ? (
              <Typography.Text type="secondary">
                <Spin size="small" /> Checking the e-mails against existing users…
              </Typography.Text>
            ) : null}
            <Alert
              type={problemCount > 0 ? 'warning' : 'success'}
              showIcon
              data-testid="csv-summary"
              title={
                problemCount > 0
                  ? `${rows.length} users read; ${problemCount} ${problemCount === 1 ? 'row needs' : 'rows need'} fixing before saving.${isEditing ? '' : ' Switch to Edit to fix them.'}`
                  : `${rows.length} users read and ready to save.`
              }
            />
            {create.isError ? (
              <Alert
                type="error"
                showIcon
                title={`${createUserFailed} ${create.error.message}`}
                data-testid="form-error"
              />
            ) : null}
            <Table<CsvUserRow>
              rowKey="key"
              columns={columns}
              dataSource={shownRows}
              size="small"
              scroll={{ x: 'max-content' }}
              rowClassName={(row) => (problems.has(row.key) ? 'csv-row-bad' : '')}
              locale={{ emptyText: 'No rows to fix.' }}
              pagination={tablePagination(shownRows.length, {
                current: page.current,
                pageSize: page.pageSize,
                size: isMobile ? 'small' : undefined,
                onChange: (current, pageSize) => setPage({ current, pageSize }),
              })}
              data-testid="csv-table"
            />
          </Flex>
        </Card>
      ) : null}

      <Flex gap={12} justify="flex-end" wrap>
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="primary" disabled={!canSave} loading={create.isPending} onClick={handleSave}>
          Save
        </Button>
      </Flex>
    </Flex>
  );
}
