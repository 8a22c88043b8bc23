import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import { Flex, Select, Typography } from 'antd';
import { formatDateTime } from '../../../lib/format.ts';

type VersionSelectorProps = {
  request: RequestResponse;
  value: string;
  onChange: (id: string) => void;
};

/** Spec §2: 'Select request version' lists the creation time of every version, newest first. */
export function VersionSelector({ request, value, onChange }: VersionSelectorProps) {
  const versions = [...request.version_history].sort((a, b) => b.version - a.version);
  const latest = versions[0]?.version;
  return (
    <Flex
      vertical
      gap={4}
      className="no-print"
      style={{ minWidth: 0, maxWidth: 360, width: '100%' }}
    >
      <label htmlFor="request-version">
        <Typography.Text type="secondary">Select request version</Typography.Text>
      </label>
      <Select
        id="request-version"
        value={value}
        onChange={onChange}
        data-testid="version-selector"
        options={versions.map((version) => ({
          value: version.id,
          label: `${formatDateTime(version.created_at)} · Version ${version.version}${
            version.version === latest ? ' (latest)' : ''
          }`,
        }))}
      />
    </Flex>
  );
}
