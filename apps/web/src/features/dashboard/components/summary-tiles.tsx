import type { UserResponse } from '@imprest/domain/api/users.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { Card, Col, Row, Statistic } from 'antd';
import type { ReactNode } from 'react';
import type { SummaryResponse } from '@imprest/domain/api/requests.ts';
import './home.css';

type TileProps = { title: string; children: ReactNode };

function Tile({ title, children }: TileProps) {
  return (
    <Card size="small" style={{ height: '100%' }}>
      <span className="home-tile-title">{title}</span>
      <div className="home-tile-body">{children}</div>
    </Card>
  );
}

type SummaryTilesProps = {
  user: UserResponse;
  summary: SummaryResponse | undefined;
  isLoading: boolean;
};

/** A count that could not be loaded: shown as unknown, where a 0 would pass for a real count. */
const missingCount = '–';

/** The six home tiles of spec §2. */
export function SummaryTiles({ user, summary, isLoading }: SummaryTilesProps) {
  const counts = [
    { title: 'Request Pending Approval', value: summary?.pending ?? missingCount },
    { title: 'Approved Requests', value: summary?.approved ?? missingCount },
    { title: 'Rejected Requests', value: summary?.rejected ?? missingCount },
    { title: 'Unretired Requests', value: summary?.pending_retirement ?? missingCount },
  ];

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={12} xl={8}>
        <Tile title="Profile">
          <span className="home-tile-value home-tile-ellipsis" title={user.fullname}>
            {user.fullname}
          </span>
        </Tile>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Tile title="Role">
          <span className="home-tile-value">{roleLabels[user.role]}</span>
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
