import type { BudgetHistoryPoint } from '@imprest/domain/api/budgets.ts';
import type { Currency } from '@imprest/domain/enums.ts';
import { Empty } from 'antd';
import dayjs from 'dayjs';
import {
  Area,
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatAmount } from '../../../lib/format.ts';

const compactNumber = new Intl.NumberFormat('en-GB', {
  notation: 'compact',
  maximumFractionDigits: 1,
});

/** '2026-03' → 'Mar 2026'. */
function monthLabel(month: string): string {
  return dayjs(`${month}-01`).format('MMM YYYY');
}

type BudgetHistoryChartProps = { history: BudgetHistoryPoint[]; currency: Currency };

/**
 * The budget month by month (the detail's `history`): the amount in force as a stepped area, and
 * the running totals committed and spent by requests as bars.
 */
export function BudgetHistoryChart({ history, currency }: BudgetHistoryChartProps) {
  if (history.length === 0) {
    return <Empty description="No history yet" image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  }
  // An area needs two months to show; a budget in its first month gets a bar like the others.
  const isSingleMonth = history.length === 1;
  return (
    <div style={{ width: '100%', height: 280 }} data-testid="budget-history-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={history} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="month" tickFormatter={monthLabel} tick={{ fontSize: 12 }} />
          <YAxis
            width={52}
            tickFormatter={(value: number) => compactNumber.format(value)}
            tick={{ fontSize: 12 }}
          />
          <Tooltip
            labelFormatter={(label) => monthLabel(String(label))}
            formatter={(value) => formatAmount(Number(value), currency)}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {isSingleMonth ? (
            <Bar
              dataKey="amount"
              name="Budget amount"
              fill="#93b4f5"
              maxBarSize={28}
              isAnimationActive={false}
            />
          ) : (
            <Area
              type="stepAfter"
              dataKey="amount"
              name="Budget amount"
              stroke="#1d4ed8"
              fill="#1d4ed8"
              fillOpacity={0.12}
              strokeWidth={2}
              dot={{ r: 3 }}
              isAnimationActive={false}
            />
          )}
          <Bar
            dataKey="committed"
            name="Committed"
            fill="#f59e0b"
            maxBarSize={28}
            isAnimationActive={false}
          />
          <Bar
            dataKey="spent"
            name="Spent"
            fill="#16a34a"
            maxBarSize={28}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
