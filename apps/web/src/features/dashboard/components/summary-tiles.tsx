import type { UserResponse } from '@imprest/domain/api/users.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { SummaryResponse } from '@imprest/domain/api/requests.ts';

type TileProps = { title: string; children: ReactNode };

function Tile({ title, children }: TileProps) {
  return (
    <Card size="small" style={{ height: '100%' }}>
      <Typography.Text type="secondary">{title}</Typography.Text>
      <div style={{ marginTop: 8 }}>{children}</div>
    </Card>
  );
}

type SummaryTilesProps = {
  user: UserResponse;
  summary: SummaryResponse | undefined;
  isLoading: boolean;
};

/** The six home tiles of spec §2. */
export function SummaryTiles({ user, summary, isLoading }: SummaryTilesProps) {
  const counts = [
    { title: 'Request Pending Approval', value: summary?.pending ?? 0 },
    { title: 'Approved Requests', value: summary?.approved ?? 0 },
    { title: 'Rejected Requests', value: summary?.rejected ?? 0 },
    { title: 'Unretired Requests', value: summary?.pending_retirement ?? 0 },
  ];

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={12} xl={8}>
        <Tile title="Profile">
          <Typography.Text strong style={{ fontSize: 18 }} ellipsis>
            {user.fullname}
          </Typography.Text>
        </Tile>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Tile title="Role">
          <Typography.Text strong style={{ fontSize: 18 }}>
            {roleLabels[user.role]}
          </Typography.Text>
        </Tile>
      </Col>
      {counts.map((tile) => (
        <Col key={tile.title} xs={12} sm={12} xl={8}>
          <Tile title={tile.title}>
            <Statistic value={tile.value} loading={isLoading} />
          </Tile>
        </Col>
      ))}
    </Row>
  );
}
