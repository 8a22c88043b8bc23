import { Spin } from 'antd';
import './home.css';

/**
 * Where Home's lists stand until their data and the table have come: one loader the height of a
 * short list, so the lists appear together rather than each pushing the next down as it fills
 * (issue 13: no layout shift while Home loads).
 */
export function ListsLoader() {
  return (
    <div className="home-lists-loader" role="status" aria-label="Loading the requests">
      <Spin />
    </div>
  );
}
