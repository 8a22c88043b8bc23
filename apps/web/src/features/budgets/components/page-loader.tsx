import { Flex, Spin } from 'antd';

type PageLoaderProps = { label: string };

/** The progress shown while a budget page waits for its data. */
export function PageLoader({ label }: PageLoaderProps) {
  return (
    <Flex justify="center" align="center" style={{ minHeight: 240 }} role="status">
      <Spin size="large" description={label} />
    </Flex>
  );
}
