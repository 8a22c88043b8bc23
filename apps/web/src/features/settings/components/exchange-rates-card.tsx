import type { ExchangeRatesResponse } from '@imprest/domain/api/settings.ts';
import { updateExchangeRatesRequest } from '@imprest/domain/api/settings.ts';
import {
  foreignCurrencies,
  maxExchangeRate,
  minExchangeRate,
  type ExchangeRates,
} from '@imprest/domain/exchange-rates.ts';
import { Alert, App, Button, Card, Col, Form, InputNumber, Row, Skeleton, Typography } from 'antd';
import { formatNumber, formatRate } from '../../../lib/format.ts';
import { useFormFollows } from '../../../lib/use-form-follows.ts';
import { currencyLabel } from '../../../lib/request-labels.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useExchangeRates } from '../api/get-exchange-rates.ts';
import { useUpdateExchangeRates } from '../api/update-exchange-rates.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';

type RatesFormProps = { rates: ExchangeRatesResponse; version: string | null };

function RatesForm({ rates, version }: RatesFormProps) {
  const [form] = Form.useForm<ExchangeRates>();
  // Rates another officer saves meanwhile reach the fields not changed here: a save sends every
  // rate, and would otherwise put theirs back. One changed here too is shown as a clash, and a save
  // made on rates older than the stored ones is refused (docs/decisions/0035).
  const clashes = useFormFollows(form, rates.rates);
  const update = useUpdateExchangeRates();
  const sendUpdate = useOneAtATime(update);
  const { message } = App.useApp();

  function handleFinish(values: ExchangeRates) {
    sendUpdate(
      { body: { base: 'tzs', rates: values }, version },
      { onSuccess: () => void message.success('Exchange rates saved') },
    );
  }

  return (
    <Form<ExchangeRates>
      form={form}
      layout="vertical"
      initialValues={rates.rates}
      onFinish={handleFinish}
      disabled={update.isPending}
      data-testid="exchange-rates-form"
    >
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        Each rate lies between {formatNumber(minExchangeRate)} and {formatNumber(maxExchangeRate)}{' '}
        TZS per unit.
      </Typography.Paragraph>
      <Row gutter={16}>
        {foreignCurrencies.map((currency) => (
          <Col key={currency} xs={24} sm={8}>
            <Form.Item
              label={`1 ${currencyLabel(currency)} in ${currencyLabel(rates.base)}`}
              name={currency}
              rules={[
                { required: true, message: 'Enter a rate' },
                zodRule(updateExchangeRatesRequest.shape.rates.shape[currency]),
              ]}
            >
              <InputNumber<number>
                style={{ width: '100%' }}
                // No min/max here: antd would clamp 0.26 to 1 on blur and save a rate nobody typed,
                // the very mistake the bounds exist to catch. The zod rule above refuses it with
                // the bounds' message instead (docs/decisions/0013).
                step={1}
                formatter={(value) => {
                  const [whole = '', fraction] = String(value ?? '').split('.');
                  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
                  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
                }}
                parser={(text) => Number((text ?? '').replace(/[^\d.]/g, ''))}
              />
            </Form.Item>
          </Col>
        ))}
      </Row>
      {update.isError ? (
        <Alert type="error" showIcon title={update.error.message} style={{ marginBottom: 16 }} />
      ) : null}
      {foreignCurrencies.some((currency) => currency in clashes) ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="exchange-rates-clash"
          title="Someone else saved the exchange rates while you were editing."
          description={
            <>
              {foreignCurrencies
                .filter((currency) => currency in clashes)
                .map((currency) => (
                  <div key={currency}>
                    1 {currencyLabel(currency)} is now {formatRate(clashes[currency] ?? 0)}{' '}
                    {currencyLabel(rates.base)}. Save Rates replaces it with yours.
                  </div>
                ))}
            </>
          }
        />
      ) : null}
      <Button type="primary" htmlType="submit" loading={update.isPending}>
        Save Rates
      </Button>
    </Form>
  );
}

/** Finance's exchange rates to the base currency, used to pick the approval row (decisions §3). */
export function ExchangeRatesCard() {
  const rates = useExchangeRates();
  return (
    <Card title="Exchange Rates" size="small" data-testid="exchange-rates-card">
      <Typography.Paragraph type="secondary">
        Requests in another currency are converted to TZS with these rates to choose their approval
        group.
      </Typography.Paragraph>
      {rates.isPending ? <Skeleton active paragraph={{ rows: 2 }} /> : null}
      {rates.isError ? <Alert type="error" showIcon title={rates.error.message} /> : null}
      {rates.data ? <RatesForm rates={rates.data.data} version={rates.data.version} /> : null}
    </Card>
  );
}
